// `tpuprof advise` on the default-size AKS session (what `tpuprof synth --chip aks` writes:
// 8 cores x 131072 PMU records per engine, mode 1, seed 1), generated in memory once:
// the decode with operands and dependencies, the advisor (dependency graph, idle causes,
// rules, the what-if replays of their fixes) and the roofline, alone and together, as
// examples/cli/advise_data.cpp runs them. Mode 2 (dependency data: the wait rules and
// their replays run too) with 2 cores for comparison. docs/performance.md, "advise".
#include <cstddef>

#include <benchmark/benchmark.h>

#include <tpuprof/algo/advisor.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/roofline.hpp>
#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/synth/cdm_synth.hpp>

namespace {

using namespace tpuprof;

/// The session of `mode` (1: the default, 8 cores; 2: 2 cores with dependencies).
const synth::cdm_synth_result& session(unsigned mode) {
  static synth::cdm_synth_result r[3];
  static bool made[3] = {false, false, false};
  if (!made[mode]) {
    synth::cdm_synth_options o;
    o.records = 131072;
    o.mode = mode;
    o.seed = 1;
    if (mode == 2) {
      o.cores = 2;
      o.deps.enabled = true;
    }
    r[mode] = synth::synthesize_cdm<chips::aks>(o);
    made[mode] = true;
  }
  return r[mode];
}

trace decode(unsigned mode) {
  open_options o;
  o.keep_operands = true;
  o.dependencies = true;
  o.threads = 1;
  return open(synth::as_dump_files(session(mode)), o);
}

/// What cli::run_advisor does (no net_stat.sim): findings and roofline.
std::size_t advise(const trace& t) {
  const auto g = algo::build_dependency_graph(t);
  auto c = algo::make_context(g, t.info().names, chips::aks::ceilings);
  if (t.has_operands()) c.operands = [&t](std::uint32_t n) { return t.operands(t.events()[n]); };
  const auto a = algo::advise_findings(c);
  const auto layers = algo::roofline(g, c.idle, c.ceilings);
  return a.findings.size() + layers.size();
}

void bm_advise_decode(benchmark::State& st) {
  const auto mode = static_cast<unsigned>(st.range(0));
  session(mode);  // generated outside the timing
  std::size_t n = 0;
  for (auto _ : st) {
    const trace t = decode(mode);
    n = t.events().size();
    benchmark::DoNotOptimize(n);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * n));
}

void bm_advise_only(benchmark::State& st) {
  const trace t = decode(static_cast<unsigned>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(advise(t));
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * t.events().size()));
}

/// Decode + advise: the CLI's work (without printing).
void bm_advise_total(benchmark::State& st) {
  const auto mode = static_cast<unsigned>(st.range(0));
  session(mode);
  std::size_t n = 0;
  for (auto _ : st) {
    const trace t = decode(mode);
    n = t.events().size();
    benchmark::DoNotOptimize(advise(t));
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * n));
}

}  // namespace

BENCHMARK(bm_advise_decode)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_advise_only)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_advise_total)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
