// Decode throughput on a large synthetic BM1684X dump (project generator).
#include <benchmark/benchmark.h>

#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>

namespace {
using decoder = tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x>;

const tpuprof::synth::generated_dump& dump() {
  static const auto g = [] {
    tpuprof::synth::bm1684x_options o;
    o.layers = 160'000;  // ~400k TIU + ~370k GDMA records
    return tpuprof::synth::bm1684x_dump(o);
  }();
  return g;
}

/// Lazy decode of every TIU record (unwrap, rebase, align, pairing lookup).
void bm_tiu_records(benchmark::State& st) {
  decoder d(dump().as_files());
  auto v = d.events(tpuprof::engine::tiu);
  const auto n = v.size();
  for (auto _ : st) {
    std::uint64_t sum = 0;
    for (const auto& e : v) sum += e.end_cycle - e.begin_cycle;
    benchmark::DoNotOptimize(sum);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * n));
  st.SetBytesProcessed(
      static_cast<std::int64_t>(st.iterations() * n * tpuprof::chips::bm1684x::tiu_record_size));
}
BENCHMARK(bm_tiu_records)->Unit(benchmark::kMillisecond);

void bm_gdma_records(benchmark::State& st) {
  decoder d(dump().as_files());
  auto v = d.events(tpuprof::engine::gdma);
  const auto n = v.size();
  for (auto _ : st) {
    std::uint64_t sum = 0;
    for (const auto& e : v) sum += e.bytes;
    benchmark::DoNotOptimize(sum);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * n));
  st.SetBytesProcessed(
      static_cast<std::int64_t>(st.iterations() * n * tpuprof::chips::bm1684x::gdma_record_size));
}
BENCHMARK(bm_gdma_records)->Unit(benchmark::kMillisecond);

/// Opening the dump: global.profile parse, framing, pairing, alignment.
void bm_open(benchmark::State& st) {
  std::size_t n = 0;
  for (auto _ : st) {
    decoder d(dump().as_files());
    n = d.events().size();
    benchmark::DoNotOptimize(n);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * n));
  std::size_t bytes = 0;
  for (const auto& f : dump().files) bytes += f.second.size();
  st.counters["input_MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(bm_open)->Unit(benchmark::kMillisecond);
}  // namespace

BENCHMARK_MAIN();
