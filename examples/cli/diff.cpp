// tpuprof diff: compare two runs (A = baseline, B = new) group by group; with
// --fail-above PCT a CI gate (exit 5 when B is slower by more than PCT %).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/algo/diff.hpp>
#include <tpuprof/trace.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct diff_options {
  std::string other;
  std::string by = "op";
  std::size_t n = 30;
  std::string format = "table";
  double fail_above = -1;  ///< percent; < 0 = no gate
};

/// What went over --fail-above: "total +12.3%", "conv2d +40.0%", ...
std::vector<std::string> over_threshold(const std::vector<diff_row>& rows, double span_a,
                                        double span_b, double pct) {
  std::vector<std::string> v;
  if (pct < 0) return v;
  if (span_a > 0 && 100 * (span_b - span_a) / span_a > pct)
    v.push_back(fmt::format("total {:+.2f}%", 100 * (span_b - span_a) / span_a));
  for (const auto& r : rows)  // groups of both runs (a group new in B has no percentage)
    if (r.sum_a_ns > 0 && r.count_b > 0 && 100 * (r.ratio() - 1) > pct)
      v.push_back(fmt::format("{} {:+.2f}%", r.key, 100 * (r.ratio() - 1)));
  return v;
}

void print_diff_json(const trace& a, const trace& b, const std::vector<diff_row>& rows,
                     const diff_options& d, const std::vector<std::string>& over) {
  auto run = [](const trace& t) {
    const auto& i = t.info();
    return fmt::format("{{\"source\":{},\"chip\":{},\"events\":{},\"span_ns\":{}}}",
                       json_str(i.source), json_str(i.chip), t.events().size(),
                       json_num(i.end_ns - i.begin_ns));
  };
  std::string s =
      fmt::format("{{\"by\":{},\"a\":{},\"b\":{},\"same_chip\":{},\"groups\":[", json_str(d.by),
                  run(a), run(b), a.info().chip == b.info().chip ? "true" : "false");
  for (std::size_t i = 0; i < rows.size() && i < d.n; ++i) {
    const auto& r = rows[i];
    s += fmt::format(
        "{}{{\"key\":{},\"count_a\":{},\"count_b\":{},\"sum_a_ns\":{},\"sum_b_ns\":{},"
        "\"delta_ns\":{},\"ratio\":{}}}",
        i ? "," : "", json_str(r.key), r.count_a, r.count_b, json_num(r.sum_a_ns),
        json_num(r.sum_b_ns), json_num(r.delta_ns()), json_num(r.ratio()));
  }
  s += "],\"over_threshold\":[";
  for (std::size_t i = 0; i < over.size(); ++i) s += (i ? "," : "") + json_str(over[i]);
  fmt::print("{}]}}\n", s);
}

void print_diff_table(const trace& a, const trace& b, const std::vector<diff_row>& rows,
                      const diff_options& d) {
  const auto& ia = a.info();
  const auto& ib = b.info();
  const double span_a = ia.end_ns - ia.begin_ns, span_b = ib.end_ns - ib.begin_ns;
  fmt::print("A {}: {} events, {:.3f} us\n", ia.source, a.events().size(), span_a / 1e3);
  fmt::print("B {}: {} events, {:.3f} us ({:+.2f}%)\n\n", ib.source, b.events().size(),
             span_b / 1e3, span_a > 0 ? 100 * (span_b - span_a) / span_a : 0.0);
  text_table tb({{d.by, 28, true, 9},
                 {"count_A", 9, false, 2},
                 {"count_B", 9, false, 2},
                 {"sum_A_us", 14, false, 4},
                 {"sum_B_us", 14, false, 4},
                 {"delta_us", 14, false, 6},
                 {"B/A", 9, false, 7}});
  for (std::size_t i = 0; i < rows.size() && i < d.n; ++i) {
    const auto& r = rows[i];
    tb.row({r.key, std::to_string(r.count_a), std::to_string(r.count_b),
            fmt::format("{:.3f}", r.sum_a_ns / 1e3), fmt::format("{:.3f}", r.sum_b_ns / 1e3),
            fmt::format("{:+.3f}", r.delta_ns() / 1e3), num(r.ratio(), 3)});
  }
  print_table(tb);
}

int run_diff(const common_options& o, const diff_options& d) {
  const group_key key = parse_group_key(d.by);
  progress p(o.show_progress, o.progress_color);
  auto a = load(o, p);
  common_options ob = o;
  ob.input = d.other;
  auto b = load(ob, p);
  const auto& ia = a.info();
  const auto& ib = b.info();
  if (ia.chip != ib.chip)  // a warning, not chatter: shown under -q too
    fmt::print(stderr,
               "tpuprof: warning: A is {} and B is {}: op names, clocks and command splits "
               "differ between chips, so the groups do not compare one to one\n",
               ia.chip, ib.chip);
  auto rows = diff_runs(a.events(), ia, b.events(), ib, key);
  const auto over =
      over_threshold(rows, ia.end_ns - ia.begin_ns, ib.end_ns - ib.begin_ns, d.fail_above);
  if (d.format == "json")
    print_diff_json(a, b, rows, d, over);
  else
    print_diff_table(a, b, rows, d);
  const int ra = finish(o, a);
  const int rb = ra != ok ? ra : finish(o, b);
  if (rb != ok) return rb;
  if (over.empty()) return ok;
  fmt::print(stderr, "tpuprof: B is slower than A by more than {}%:", d.fail_above);
  for (const auto& w : over) fmt::print(stderr, " {};", w);
  fmt::print(stderr, "\n");
  return slower;
}

}  // namespace

subcommand register_diff(CLI::App& app, common_options& o) {
  auto d = std::make_shared<diff_options>();
  auto* sc = app.add_subcommand(
      "diff", "compare two runs (A = baseline, B = new) per op, function, layer, ...");
  add_common(sc, o);
  sc->add_option("other", d->other, "the second dump (B)")->required();
  sc->add_option("--by", d->by, "op, op_type, function, layer, engine or core")
      ->check(CLI::IsMember({"op", "op_type", "function", "layer", "engine", "core"}));
  sc->add_option("-n", d->n, "rows (largest time change first; default 30)")
      ->check(CLI::Range(1, 100000000));
  sc->add_option("--format", d->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  sc->add_option("--fail-above", d->fail_above,
                 "exit 5 when the total or a group of both runs is slower in B by more than PCT %")
      ->check(CLI::Range(0.0, 1e9));
  return {sc, [&o, d] { return run_diff(o, *d); }};
}

}  // namespace cli
