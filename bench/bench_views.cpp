// Throughput of the analysis views over an in-memory synthetic trace
// (8 cores x TIU/GDMA/SDMA, grouped by track and time ordered, as decoders yield).
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include <tpuprof/views.hpp>

namespace {

using namespace tpuprof;

const std::vector<engine_event>& trace(std::size_t n) {
  static std::vector<engine_event> v;
  if (v.size() == n) return v;
  v.clear();
  v.reserve(n);
  std::uint64_t x = 88172645463325252ull;  // xorshift: reproducible
  auto rnd = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  const engine engines[] = {engine::tiu, engine::gdma, engine::sdma};
  const std::size_t tracks = 8 * 3, per = n / tracks;
  for (std::size_t t = 0; t < tracks; ++t) {
    std::uint64_t c = rnd() % 1000;
    for (std::size_t i = 0; i < per + (t < n % tracks ? 1 : 0); ++i) {
      engine_event e;
      e.engine = engines[t % 3];
      e.unit = static_cast<std::uint8_t>(t / 3);
      c += rnd() % 400;  // idle before the command
      e.begin_cycle = c;
      c += 50 + rnd() % 2000;
      e.end_cycle = c;
      e.begin_ns = static_cast<double>(e.begin_cycle);
      e.end_ns = static_cast<double>(e.end_cycle);
      e.op = static_cast<name_id>(1 + rnd() % 40);
      e.cmd_id = static_cast<std::uint32_t>(i);
      if (e.engine != engine::tiu) {
        e.bytes = rnd() % 100000;
        e.set_flag(engine_event::flag_has_bytes);
        e.set_dir(static_cast<direction>(1 + rnd() % 4));
      }
      v.push_back(e);
    }
  }
  return v;
}

void bm_summary(benchmark::State& st) {
  const auto& v = trace(static_cast<std::size_t>(st.range(0)));
  trace_info info;
  info.cores = 8;
  for (auto _ : st) {
    auto r = v | algo::summary({&info});
    benchmark::DoNotOptimize(r.overall.parallelism);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(v.size()));
}

void bm_idle_gaps(benchmark::State& st) {
  const auto& v = trace(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) {
    double total = 0;
    std::size_t n = 0;
    for (const idle_gap& g : v | views::idle_gaps(100)) {
      total += g.dur_ns();
      ++n;
    }
    benchmark::DoNotOptimize(total);
    benchmark::DoNotOptimize(n);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(v.size()));
}

void bm_group_by_op(benchmark::State& st) {
  const auto& v = trace(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) {
    auto g = v | algo::group_stats_by(group_key::op);
    benchmark::DoNotOptimize(g.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(v.size()));
}

void bm_utilization(benchmark::State& st) {
  const auto& v = trace(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) {
    auto r = v | algo::utilization();
    benchmark::DoNotOptimize(r.cores.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(v.size()));
}

void bm_top_n(benchmark::State& st) {
  const auto& v = trace(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) {
    auto r = v | algo::top_n(20, rank_by::bytes);
    benchmark::DoNotOptimize(r.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(v.size()));
}

void bm_filter_bandwidth(benchmark::State& st) {
  const auto& v = trace(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) {
    double sum = 0;
    for (const dma_bandwidth& b : v | views::on_core(3) | views::bandwidth) sum += b.gbps;
    benchmark::DoNotOptimize(sum);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(v.size()));
}

constexpr std::int64_t k_events = 1 << 20;  // 1 048 576

}  // namespace

BENCHMARK(bm_summary)->Arg(k_events)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_idle_gaps)->Arg(k_events)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_group_by_op)->Arg(k_events)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_utilization)->Arg(k_events)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_top_n)->Arg(k_events)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_filter_bandwidth)->Arg(k_events)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
