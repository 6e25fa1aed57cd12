// Throughput of the dependency analysis (graph + critical path + idle causes)
// over an in-memory synthetic trace: 8 cores x TIU/GDMA/SDMA, every TIU command
// waiting for a GDMA command and every GDMA command for a TIU command.
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/idle_causes.hpp>

namespace {

using namespace tpuprof;

struct data {
  std::vector<engine_event> ev;
  std::vector<command_dep> deps;
};

const data& make(std::size_t n) {
  static data d;
  if (d.ev.size() == n) return d;
  d = {};
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
    for (std::size_t i = 0; i < per; ++i) {
      engine_event e;
      e.engine = engines[t % 3];
      e.unit = static_cast<std::uint8_t>(t / 3);
      c += rnd() % 400;
      e.begin_cycle = c;
      c += 50 + rnd() % 2000;
      e.end_cycle = c;
      e.begin_ns = static_cast<double>(e.begin_cycle);
      e.end_ns = static_cast<double>(e.end_cycle);
      e.cmd_id = static_cast<std::uint32_t>(i + 1);
      command_dep dep;
      dep.known = true;
      dep.self_id = static_cast<std::uint32_t>((i + 1) & 0xFFFFF);
      dep.id_bits = 20;
      dep.on = e.engine == engine::tiu ? engine::gdma : engine::tiu;
      dep.wait_id = i > 2 ? static_cast<std::uint32_t>((i - 2) & 0xFFFFF) : 0;
      d.ev.push_back(e);
      d.deps.push_back(dep);
    }
  }
  return d;
}

void bm_graph_path_idle(benchmark::State& st) {
  const auto& d = make(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) {
    const auto g = algo::build_dependency_graph(d.ev, d.deps);
    const auto cp = algo::critical_path(g);
    const auto idle = algo::idle_causes(g);
    benchmark::DoNotOptimize(cp.latency_ns);
    benchmark::DoNotOptimize(idle.size());
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * d.ev.size()));
}
BENCHMARK(bm_graph_path_idle)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// The three stages alone (where the time goes).
void bm_graph(benchmark::State& st) {
  const auto& d = make(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) {
    const auto g = algo::build_dependency_graph(d.ev, d.deps);
    benchmark::DoNotOptimize(g.order.data());
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * d.ev.size()));
}
BENCHMARK(bm_graph)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

void bm_path(benchmark::State& st) {
  const auto& d = make(static_cast<std::size_t>(st.range(0)));
  const auto g = algo::build_dependency_graph(d.ev, d.deps);
  for (auto _ : st) {
    const auto cp = algo::critical_path(g);
    benchmark::DoNotOptimize(cp.latency_ns);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * d.ev.size()));
}
BENCHMARK(bm_path)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

void bm_idle(benchmark::State& st) {
  const auto& d = make(static_cast<std::size_t>(st.range(0)));
  const auto g = algo::build_dependency_graph(d.ev, d.deps);
  for (auto _ : st) {
    const auto idle = algo::idle_causes(g);
    benchmark::DoNotOptimize(idle.data());
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * d.ev.size()));
}
BENCHMARK(bm_idle)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
