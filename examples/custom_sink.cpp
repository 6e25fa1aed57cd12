// A downstream sink in a few lines: count DMA bytes per core, no base class.
#include <cstdio>
#include <map>

#include <tpuprof/sinks/sink.hpp>

struct dma_bytes_sink {
  std::map<int, unsigned long long> bytes;  // core -> bytes moved
  void write(const tpuprof::engine_event& e) {
    if (tpuprof::is_dma(e.engine) && e.has_bytes()) bytes[e.unit] += e.bytes;
  }
  void finish() {
    for (auto [core, n] : bytes) std::printf("core %d: %llu bytes\n", core, n);
  }
};
static_assert(tpuprof::event_sink<dma_bytes_sink>);
int main() {
  tpuprof::materialized_trace t;  // or any decoder's result
  for (unsigned i = 0; i < 4; ++i) {
    tpuprof::engine_event e;
    e.engine = tpuprof::engine::gdma;
    e.unit = static_cast<std::uint8_t>(i % 2);
    e.bytes = 1024u << i;
    e.set_flag(tpuprof::engine_event::flag_has_bytes);
    t.hw.push_back(e);
  }
  dma_bytes_sink sink;
  t | tpuprof::sinks::to(sink);  // prints "core 0: 5120 bytes" and "core 1: 10240 bytes"
}
