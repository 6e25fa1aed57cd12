// Compiled mode (TPUPROF_COMPILED_LIB): this program links
// tpuprof::tpuprof_compiled and decodes one dump per supported chip through the
// decoders instantiated in src/ (extern here). Event counts are the CLI's `info`.
#include <cstdio>
#include <filesystem>
#include <string>

#include <tpuprof/decode.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/tpuprof.hpp>

#ifndef TPUPROF_COMPILED_LIB
#error "this test is built against tpuprof::tpuprof_compiled"
#endif

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  using namespace tpuprof;
  const tpuprof::bmprofile_decoder<chips::bm1684x> bm(io::dump_files::open_directory(argv[1]));
  std::size_t bm_hw = 0;
  for (const engine_event& e : bm.events())
    if (is_hardware(e.engine)) ++bm_hw;
  const cdm::cdm_decoder<chips::aks> aks(io::dump_files::open_directory(argv[2]));
  const cdm::cdm_decoder<chips::aksv> aksv(io::dump_files::open_directory(argv[3]));
  // open() as declared by the umbrella in compiled mode, defined in src/open.cpp.
  const trace t = tpuprof::open(std::filesystem::path(argv[1]));
  std::size_t open_hw = 0;
  for (const engine_event& e : t.events())
    if (is_hardware(e.engine)) ++open_hw;
  std::printf(
      "compiled mode: bm1684x %zu hardware events, aks %zu events, aksv %zu events, open %zu\n",
      bm_hw, aks.events().size(), aksv.events().size(), open_hw);
}
