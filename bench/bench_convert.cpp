// End to end, as `tpuprof convert` does it: decode a default-size AKS session
// (8 cores x 131072 records per engine, generated in memory), write the
// Perfetto trace to a file atomically and compute the summary.
#include <sys/resource.h>

#include <filesystem>

#include <benchmark/benchmark.h>

#include <tpuprof/algo/summary.hpp>
#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/sinks/write_file.hpp>
#include <tpuprof/synth/cdm_synth.hpp>

namespace {

const tpuprof::synth::cdm_synth_result& session() {
  static const auto r = [] {
    tpuprof::synth::cdm_synth_options o;
    o.records = 131072;
    o.sdma_records = 131072;
    o.mode = 1;
    o.seed = 42;
    return tpuprof::synth::synthesize_cdm<tpuprof::chips::aks>(o);
  }();
  return r;
}

void bm_convert_default_aks(benchmark::State& state) {
  const auto& gen = session();
  auto files = tpuprof::synth::as_dump_files(gen);
  const auto out = std::filesystem::temp_directory_path() / "tpuprof_bench_convert.pftrace";
  std::size_t events = 0;
  for (auto _ : state) {
    tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(files);
    tpuprof::sinks::write_file<tpuprof::sinks::perfetto_sink>(out, d);
    tpuprof::summary_options so;
    so.info = &d.info();
    auto rep = d.events() | tpuprof::algo::summary(so);
    benchmark::DoNotOptimize(rep.total_ns);
    events = d.events().size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * events));
  state.counters["events"] = static_cast<double>(events);
  state.counters["trace_MB"] = static_cast<double>(std::filesystem::file_size(out)) / 1e6;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  state.counters["peak_rss_MB"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
  std::filesystem::remove(out);
}
BENCHMARK(bm_convert_default_aks)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
