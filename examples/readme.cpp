// The README example: open any supported dump, ask a question with a view,
// write a trace. Usage: example_readme DUMP_DIR (BM1684X, SG2260 or SG2260E).
#include <cstdio>

#include <tpuprof/tpuprof.hpp>

int main(int argc, char** argv) try {
  using namespace tpuprof;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DUMP_DIR\n", argv[0]);
    return 2;
  }
  auto t = tpuprof::open(argv[1]);  // any chip: detected from global.profile

  double idle_ns = 0;
  for (const idle_gap& g : t.events(engine::tiu) | views::idle_gaps(1000))  // TIU waits >= 1 us
    idle_ns += g.dur_ns();
  std::printf(
      "%s: %zu TIU, %zu GDMA, %zu SDMA, %zu CDMA commands; TIU idle %.3f us in gaps >= 1 us\n",
      t.info().chip.c_str(), t.events(engine::tiu).size(), t.events(engine::gdma).size(),
      t.events(engine::sdma).size(), t.events(engine::cdma).size(), idle_ns / 1e3);

  sinks::write_file<sinks::perfetto_sink>("readme_trace.pftrace", t);  // atomic: temp file + rename
  std::printf("wrote readme_trace.pftrace\n");
} catch (const tpuprof::decode_error& e) {  // file, byte offset and reason
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
