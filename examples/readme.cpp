// The README example: decode a dump, ask a question with a view, write a trace.
#include <cstdio>

#include <tpuprof/tpuprof.hpp>

int main(int argc, char** argv) {
  using namespace tpuprof;
  // A dump directory, or (no argument) a synthetic BM1684X dump held in memory.
  auto dump = synth::bm1684x_dump();
  auto files = argc > 1 ? io::dump_files::open_directory(argv[1]) : dump.as_files();
  bmprofile_decoder<chips::bm1684x> trace(std::move(files));  // lazy: records decode on the fly

  double idle_ns = 0;
  for (const idle_gap& g : trace.events(engine::tiu) | views::idle_gaps(1000))  // TIU waits >= 1 us
    idle_ns += g.dur_ns();
  std::printf("%zu TIU commands, TIU idle %.1f us in gaps >= 1 us\n",
              trace.events(engine::tiu).size(), idle_ns / 1e3);

  sinks::write_file<sinks::perfetto_sink>("readme_trace.pftrace",
                                          trace);  // atomic: temp file + rename
  std::printf("wrote readme_trace.pftrace\n");
}
