// tpuprof summary: per-core utilization and bandwidth (bigTpuProfile summary.txt)
// as a table, CSV or JSON.
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/trace.hpp>
#include <tpuprof/views/summary.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

void write_summary_csv(std::string& s, const summary_report& rep) {
  s += "device,core,parallelism_pct,total_time_us,tiu_working_ratio_pct,total_tiu_cycle,uarch_rate_"
       "pct,"
       "total_gdma_cycle,gdma_ddr_avg_bw_gbps,gdma_l2_avg_bw_gbps,total_sdma_cycle,sdma_ddr_avg_bw_"
       "gbps\n";
  for (const auto& c : rep.cores)
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", c.device, c.core,
                     num(c.parallelism() * 100, 2), num(c.total_ns / 1e3, 3),
                     num(c.tiu_working_ratio() * 100, 2), c.tiu_cycles, num(c.uarch_rate * 100, 2),
                     c.gdma_working_cycles(), num(c.gdma_ddr_gbps(), 2), num(c.gdma_l2_gbps(), 2),
                     c.sdma_working_cycles(), num(c.sdma_ddr_gbps(), 2));
}

void write_summary_json(std::string& s, const summary_report& rep) {
  s += fmt::format("{{\"total_time_us\":{},\"tiu_mhz\":{},\"dma_mhz\":{},\"cores\":[",
                   num(rep.total_ns / 1e3), rep.tiu_mhz, rep.dma_mhz);
  auto jn = [](double v, int p) {
    auto t = num(v, p);
    return t.empty() ? std::string("null") : t;
  };
  for (std::size_t i = 0; i < rep.cores.size(); ++i) {
    const auto& c = rep.cores[i];
    s += fmt::format(
        "{}{{\"device\":{},\"core\":{},\"parallelism_pct\":{},\"tiu_working_ratio_pct\":{},\"total_"
        "tiu_cycle\":{},"
        "\"uarch_rate_pct\":{},\"total_gdma_cycle\":{},\"gdma_ddr_avg_bw_gbps\":{},\"gdma_l2_avg_"
        "bw_gbps\":{},"
        "\"total_sdma_cycle\":{},\"sdma_ddr_avg_bw_gbps\":{}}}",
        i ? "," : "", c.device, c.core, jn(c.parallelism() * 100, 2),
        jn(c.tiu_working_ratio() * 100, 2), c.tiu_cycles, jn(c.uarch_rate * 100, 2),
        c.gdma_working_cycles(), jn(c.gdma_ddr_gbps(), 2), jn(c.gdma_l2_gbps(), 2),
        c.sdma_working_cycles(), jn(c.sdma_ddr_gbps(), 2));
  }
  const auto& ov = rep.overall;
  s += fmt::format(
      "],\"overall\":{{\"parallelism_pct\":{},\"tiu_working_ratio_pct\":{},\"gdma_ddr_avg_bw_"
      "gbps\":{},"
      "\"sdma_ddr_avg_bw_gbps\":{}}}}}\n",
      jn(ov.parallelism * 100, 2), jn(ov.tiu_working_ratio * 100, 2), jn(ov.gdma_ddr_gbps, 2),
      jn(ov.sdma_ddr_gbps, 2));
}

int run_summary(const common_options& o, const std::string& format) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  summary_options so;
  so.info = &t.info();
  so.tiu_mhz = o.tiu_freq_mhz;
  so.dma_mhz = o.dma_freq_mhz;
  const auto rep = t.events() | views::summary(so);
  std::string s;
  if (format == "csv")
    write_summary_csv(s, rep);
  else if (format == "json")
    write_summary_json(s, rep);
  else
    s = format_summary_txt(rep);
  fmt::print("{}", s);
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
