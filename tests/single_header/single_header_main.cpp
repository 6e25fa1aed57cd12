// Built against single_include/tpuprof/tpuprof.hpp only (no include/ on the
// path): decodes generated dumps of every chip and writes a Perfetto trace.
#include <cstdio>
#include <string>

#include <tpuprof/tpuprof.hpp>

int main() {
  using namespace tpuprof;
  auto g = synth::bm1684x_dump();
  bmprofile_decoder<chips::bm1684x> d(g.as_files());
  if (d.events().size() != g.expected.size()) return 1;
  synth::cdm_synth_options o;
  o.records = 64;
  auto a = synth::synthesize_cdm<chips::aksv>(o);
  cdm::cdm_decoder<chips::aksv> c(synth::as_dump_files(a));
  if (c.events().size() != a.expected.hw.size()) return 2;
  std::string out;
  sinks::perfetto_sink s{sinks::byte_output{out}};
  write_trace(c, s);
  std::printf("single header ok: %zu + %zu events, %zu trace bytes\n", d.events().size(),
              c.events().size(), out.size());
  return out.empty() ? 3 : 0;
}
