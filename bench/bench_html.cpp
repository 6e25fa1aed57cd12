// HTML report of a default-size AKS session (8 cores x 131072 PMU records per
// engine, about 3.1 M events plus kernel-function spans), decoded in memory
// once; the report is written into a std::string. Reports the page size and
// the peak memory the report adds on top of the decoded trace (VmHWM - VmRSS).
// bm_html_report_memory adds the memory charts of three made-up operands per
// event (two local, one DDR), about 9.4 M rectangles.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include <benchmark/benchmark.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/report/html.hpp>
#include <tpuprof/synth/cdm_synth.hpp>

namespace {

const tpuprof::cdm::cdm_decoder<tpuprof::chips::aks>& session() {
  static const tpuprof::synth::cdm_synth_result gen = [] {
    tpuprof::synth::cdm_synth_options o;
    o.records = 131072;
    o.sdma_records = 131072;
    o.seed = 42;
    return tpuprof::synth::synthesize_cdm<tpuprof::chips::aks>(o);
  }();
  static const auto files = tpuprof::synth::as_dump_files(gen);
  static const tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(files);
  return d;
}

/// A field of /proc/self/status in MB ("VmHWM:", "VmRSS:"); 0 when unavailable.
double status_mb(const char* key) {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  double kb = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, key, std::strlen(key)) == 0)
      kb = std::strtod(line + std::strlen(key), nullptr);
  std::fclose(f);
  return kb / 1024;
}
/// Resets VmHWM to the current RSS (Linux >= 4.0), so the peak measures what follows.
void reset_peak() {
  if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
    std::fputs("5", f);
    std::fclose(f);
  }
}

void bm_html_report(benchmark::State& state) {
  const auto& d = session();
  std::string out;
  reset_peak();
  const double rss_before = status_mb("VmRSS:");
  for (auto _ : state) {
    out.clear();
    tpuprof::report::write_html(d, out);
    benchmark::DoNotOptimize(out.data());
  }
  const auto events = static_cast<double>(d.events().size());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(d.events().size()));
  state.counters["events"] = events;
  state.counters["spans"] = static_cast<double>(d.spans().size());
  state.counters["html_MB"] = static_cast<double>(out.size()) / 1e6;
  state.counters["bytes/event"] = static_cast<double>(out.size()) / events;
  // Memory the report needed on top of the decoded trace (output string included).
  state.counters["extra_peak_MB"] = status_mb("VmHWM:") - rss_before;
}

}  // namespace

/// Three operands per event, from the cmd id (scattered addresses).
struct synthetic_operands {
  std::array<tpuprof::regs::mem_operand, 3> operands(const tpuprof::engine_event& e) const {
    std::array<tpuprof::regs::mem_operand, 3> m{};
    const std::uint64_t k = e.cmd_id;
    m[0].kind = m[1].kind = tpuprof::regs::mem_kind::local;
    m[0].address = (k * 4096) % (1 << 18);
    m[0].size = 2048;
    m[1].address = (k * 4096 + 8192) % (1 << 18);
    m[1].size = 4096;
    m[1].write = true;
    m[2].kind = tpuprof::regs::mem_kind::ddr;
    m[2].address = 0x100000000 + (k % 1000) * 65536;
    m[2].size = 65536;
    m[2].index = 1;
    return m;
  }
};

void bm_html_report_memory(benchmark::State& state) {
  const auto& d = session();
  const synthetic_operands ops;
  std::string out;
  tpuprof::report::html_options opt;
  opt.max_memory_rects = std::size_t{1} << 24;
  reset_peak();
  const double rss_before = status_mb("VmRSS:");
  for (auto _ : state) {
    out.clear();
    tpuprof::report::write_html(d, ops, out, opt);
    benchmark::DoNotOptimize(out.data());
  }
  const auto events = static_cast<double>(d.events().size());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(d.events().size()));
  state.counters["operands"] = 3 * events;
  state.counters["html_MB"] = static_cast<double>(out.size()) / 1e6;
  state.counters["extra_peak_MB"] = status_mb("VmHWM:") - rss_before;
}

BENCHMARK(bm_html_report)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(bm_html_report_memory)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK_MAIN();
