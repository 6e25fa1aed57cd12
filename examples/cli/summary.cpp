// tpuprof summary: per-core utilization and bandwidth (bigTpuProfile summary.txt)
// as a table, CSV or JSON: the library's one summary model and its formatters.
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

int run_summary(const common_options& o, const std::string& format) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  summary_options so;
  so.info = &t.info();
  so.tiu_mhz = o.tiu_freq_mhz;
  so.dma_mhz = o.dma_freq_mhz;
  const auto rep = algo::summary(t.events(), so);
  fmt::print("{}", format == "csv"    ? format_summary_csv(rep)
                   : format == "json" ? format_summary_json(rep)
                                      : format_summary_txt(rep));
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
