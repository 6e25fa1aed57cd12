// tpuprof summary: per-core utilization and bandwidth (bigTpuProfile summary.txt)
// as a table, CSV or JSON: the library's one summary model and its formatters.
// Rows only for the cores that ran; a terminal narrower than the vendor's
// 190-column layout gets a compact table (convert's summary.txt keeps the layout).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/algo/summary.hpp>
#include <tpuprof/sinks/summary_format.hpp>
#include <tpuprof/trace.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

/// `rep` without the cores that ran no command (the overall row is unchanged:
/// it was computed over every core, and idle ones add nothing to it).
summary_report cores_that_ran(summary_report rep) {
  auto idle = [](const core_summary& c) {
    return c.tiu_events == 0 && c.gdma_events == 0 && c.sdma_events == 0;
  };
  if (!std::all_of(rep.cores.begin(), rep.cores.end(), idle))
    rep.cores.erase(std::remove_if(rep.cores.begin(), rep.cores.end(), idle), rep.cores.end());
  return rep;
}

/// The summary in short headers, columns dropped to fit `width`.
std::string compact_summary(const summary_report& r, std::size_t width) {
  text_table tb({{"core", 7, false, 9},
                 {"par%", 8, false, 5},
                 {"time_us", 12, false, 4},
                 {"tiu%", 8, false, 8},
                 {"tiu_cyc", 12, false, 3},
                 {"uArch%", 8, false, 6},
                 {"gdma_cyc", 12, false, 2},
                 {"ddr_GB/s", 9, false, 7},
                 {"l2_GB/s", 9, false, 3},
                 {"sdma_cyc", 12, false, 1},
                 {"sdma_GB/s", 9, false, 1}});
  auto pct = [](double v) { return std::isnan(v) ? std::string("unknown") : num(v * 100, 2); };
  const std::string total = num(r.total_ns / 1e3, 3);
  for (const core_summary& c : r.cores)
    tb.row({c.device ? fmt::format("{}:{}", c.device, c.core) : std::to_string(c.core),
            pct(c.parallelism()), total, pct(c.tiu_working_ratio()), std::to_string(c.tiu_cycles),
            pct(c.uarch_rate), std::to_string(c.gdma_working_cycles()), num(c.gdma_ddr_gbps(), 2),
            num(c.gdma_l2_gbps(), 2), std::to_string(c.sdma_working_cycles()),
            num(c.sdma_ddr_gbps(), 2)});
  const overall_summary& o = r.overall;
  auto us = [](std::uint64_t cyc, double mhz) {
    return num(static_cast<double>(cyc) / mhz, 3) + "us";
  };
  tb.row({"Overall", pct(o.parallelism), total, pct(o.tiu_working_ratio),
          us(o.max_tiu_cycles, r.tiu_mhz), pct(o.uarch_rate),
          us(o.max_gdma_working_cycles, r.dma_mhz), num(o.gdma_ddr_gbps, 2), num(o.gdma_l2_gbps, 2),
          us(o.max_sdma_working_cycles, r.dma_mhz), num(o.sdma_ddr_gbps, 2)});
  return tb.render(width);
}

int run_summary(const common_options& o, const std::string& format) {
  progress p(o.show_progress, o.progress_color);
  auto t = load(o, p);
  summary_options so;
  so.info = &t.info();
  so.tiu_mhz = o.tiu_freq_mhz;
  so.dma_mhz = o.dma_freq_mhz;
  const auto rep = cores_that_ran(algo::summary(t.events(), so));
  if (format == "csv")
    fmt::print("{}", format_summary_csv(rep));
  else if (format == "json")
    fmt::print("{}", format_summary_json(rep));
  else {
    std::string txt = format_summary_txt(rep);
    const std::size_t width = terminal_width();
    fmt::print("{}", width > 0 && txt.find('\n') > width ? compact_summary(rep, width) : txt);
  }
  return finish(o, t);
}

}  // namespace

subcommand register_summary(CLI::App& app, common_options& o) {
  auto format = std::make_shared<std::string>("table");
  auto* sc = app.add_subcommand("summary",
                                "per-core utilization and bandwidth (bigTpuProfile summary.txt)");
  add_common(sc, o);
  sc->add_option("--format", *format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  return {sc, [&o, format] { return run_summary(o, *format); }};
}

}  // namespace cli
