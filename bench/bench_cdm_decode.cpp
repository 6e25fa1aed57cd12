// Decode + match + normalize throughput of the cdm decoder on a default-size AKS
// session: 8 cores x 131072 PMU records per engine (TIU, GDMA, SDMA), modes
// 0, 1 and 2 (mode 2 also with cdm_options::uarch off), generated in memory once. Rates: use CPU
// time (items_per_second is from real time because of UseRealTime()).
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <benchmark/benchmark.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/synth/cdm_synth.hpp>

namespace {

const tpuprof::synth::cdm_synth_result& session(unsigned mode) {
  static tpuprof::synth::cdm_synth_result r[3];
  static bool made[3] = {false, false, false};
  if (!made[mode]) {
    tpuprof::synth::cdm_synth_options o;
    o.records = 131072;
    o.sdma_records = 131072;
    o.mode = mode;
    o.seed = 42;
    r[mode] = tpuprof::synth::synthesize_cdm<tpuprof::chips::aks>(o);
    made[mode] = true;
  }
  return r[mode];
}

/// A "Vm...:" line of /proc/self/status in KiB (0 when unavailable).
std::size_t status_kib(const char* key) {
  std::size_t v = 0;
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    const std::size_t n = std::strlen(key);
    while (std::fgets(line, sizeof line, f))
      if (std::strncmp(line, key, n) == 0) v = std::strtoull(line + n, nullptr, 10);
    std::fclose(f);
  }
  return v;
}

void bm_cdm_decode(benchmark::State& state) {
  const auto& gen = session(static_cast<unsigned>(state.range(0)));
  tpuprof::cdm::cdm_options opt;
  opt.uarch = state.range(1) != 0;
  auto files = tpuprof::synth::as_dump_files(gen);
  std::size_t input = 0;
  for (const auto& [n, b] : gen.files) input += b.size();
  // Peak memory of one decode (untimed, before the timed ones; run one mode
  // per process for a clean heap): VmHWM after resetting it (Linux: "5" to
  // /proc/self/clear_refs) minus VmRSS before. Includes the working records
  // and command lists that are freed before the constructor returns.
  double peak_per_event = 0;
  if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
    std::fputs("5", f);
    std::fclose(f);
    const std::size_t before = status_kib("VmRSS:");
    std::size_t peak = 0;
    {
      tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(files, opt);
      peak = status_kib("VmHWM:");
      benchmark::DoNotOptimize(d.events().data());
    }
    if (peak > before) peak_per_event = static_cast<double>(peak - before) * 1024.0;
  }
  std::size_t events = 0, spans = 0, bytes = 0;
  for (auto _ : state) {
    tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(files, opt);
    events = d.events().size();
    spans = d.spans().size();
    bytes = d.events().capacity() * sizeof(tpuprof::engine_event) +
            d.spans().capacity() * sizeof(tpuprof::engine_event);
    benchmark::DoNotOptimize(d.events().data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input));
  state.counters["events"] = static_cast<double>(events);
  // Retained bytes per hardware event, and per output event (hardware events
  // plus kernel-function spans, all 64-byte engine_events).
  state.counters["bytes/event"] = static_cast<double>(bytes) / static_cast<double>(events);
  state.counters["bytes/output_event"] =
      static_cast<double>(bytes) / static_cast<double>(events + spans);
  if (peak_per_event > 0) state.counters["peak_bytes/event"] = peak_per_event / double(events);
}

}  // namespace

// mode 0/1/2 with uArch rates (the default); mode 2 also without them (only
// mode 2 has register images to compute them from).
BENCHMARK(bm_cdm_decode)
    ->ArgNames({"mode", "uarch"})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({2, 1})
    ->Args({2, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_MAIN();
