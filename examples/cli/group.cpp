// tpuprof group: count/sum/mean/min/max/p50/p99 per op, function, layer, engine or core.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/trace.hpp>
#include <tpuprof/views/diff.hpp>
#include <tpuprof/views/group_by.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct group_options {
  std::string by = "op";
  std::string format = "table";
};

/// `l` as a CSV cell (quoted when it holds a comma, quote or newline).
std::string csv_cell(std::string l) {
  if (l.find_first_of(",\"\n") == std::string::npos) return l;
  std::string q = "\"";
  for (char c : l) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

int run_group(const common_options& o, const group_options& a) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  const group_key key = parse_group_key(a.by);
  auto groups = t.events() | views::group_by(key);
  std::sort(groups.begin(), groups.end(),
            [](const group_stats& x, const group_stats& y) { return x.sum_ns > y.sum_ns; });
  auto label = [&](const group_stats& g) { return group_label(g, t.info()); };
  if (a.format == "csv") {
    fmt::print("{},count,sum_ns,mean_ns,min_ns,max_ns,p50_ns,p99_ns,bytes,uarch_rate\n", a.by);
    for (const auto& g : groups)
      fmt::print("{},{},{},{},{},{},{},{},{},{}\n", csv_cell(label(g)), g.count, num(g.sum_ns),
                 num(g.mean_ns), num(g.min_ns), num(g.max_ns), num(g.p50_ns), num(g.p99_ns),
                 g.bytes, num(g.uarch_rate, 4));
  } else {
    fmt::print("{:<28} {:>8} {:>14} {:>11} {:>11} {:>11} {:>11} {:>11} {:>14} {:>8}\n", a.by,
               "count", "sum_us", "mean_ns", "min_ns", "max_ns", "p50_ns", "p99_ns", "bytes",
               "uArch%");
    for (const auto& g : groups)
      fmt::print(
          "{:<28} {:>8} {:>14.3f} {:>11.1f} {:>11.0f} {:>11.0f} {:>11.0f} {:>11.0f} {:>14} {:>8}\n",
          label(g), g.count, g.sum_ns / 1e3, g.mean_ns, g.min_ns, g.max_ns, g.p50_ns, g.p99_ns,
          g.bytes, std::isnan(g.uarch_rate) ? std::string("unknown") : num(g.uarch_rate * 100, 2));
  }
  return finish(o, t);
}

}  // namespace

subcommand register_group(CLI::App& app, common_options& o) {
  auto a = std::make_shared<group_options>();
  auto* sc = app.add_subcommand(
      "group", "count/sum/mean/min/max/p50/p99 per op, function, layer, engine or core");
  add_common(sc, o);
  sc->add_option("--by", a->by, "op, op_type, function, layer, engine or core");
  sc->add_option("--format", a->format, "table or csv")->check(CLI::IsMember({"table", "csv"}));
  return {sc, [&o, a] { return run_group(o, *a); }};
}

}  // namespace cli
