// A downstream program: decodes an in-memory dump and prints a fact about it.
#include <cstdio>

#include <tpuprof/tpuprof.hpp>

int main() {
  tpuprof::engine_event e;
  e.begin_ns = 10;
  e.end_ns = 30;
  e.bytes = 40;
  e.set_flag(tpuprof::engine_event::flag_has_bytes);
  if (e.bandwidth_gbps() != 2.0) return 1;
  std::printf("consumer ok %s %s\n", tpuprof::version_string,
              std::string(tpuprof::name(e.engine)).c_str());
  return 0;
}
