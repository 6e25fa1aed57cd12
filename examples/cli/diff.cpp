// tpuprof diff: compare two runs (A = baseline, B = new) group by group.
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/trace.hpp>
#include <tpuprof/views/diff.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct diff_options {
  std::string other;
  std::string by = "op";
  std::size_t n = 30;
};

int run_diff(const common_options& o, const diff_options& d) {
  const group_key key = parse_group_key(d.by);
  progress p(!o.quiet && o.color);
  auto a = load(o, p);
  common_options ob = o;
  ob.input = d.other;
  auto b = load(ob, p);
  const auto& ia = a.info();
  const auto& ib = b.info();
  auto rows = diff_runs(a.events(), ia, b.events(), ib, key);
  const double span_a = ia.end_ns - ia.begin_ns, span_b = ib.end_ns - ib.begin_ns;
  fmt::print("A {}: {} events, {:.3f} us\n", ia.source, a.events().size(), span_a / 1e3);
  fmt::print("B {}: {} events, {:.3f} us ({:+.2f}%)\n\n", ib.source, b.events().size(),
             span_b / 1e3, span_a > 0 ? 100 * (span_b - span_a) / span_a : 0.0);
  fmt::print("{:<28} {:>9} {:>9} {:>14} {:>14} {:>14} {:>9}\n", d.by, "count_A", "count_B",
             "sum_A_us", "sum_B_us", "delta_us", "B/A");
  for (std::size_t i = 0; i < rows.size() && i < d.n; ++i) {
    const auto& r = rows[i];
    fmt::print("{:<28} {:>9} {:>9} {:>14.3f} {:>14.3f} {:>+14.3f} {:>9}\n", r.key, r.count_a,
               r.count_b, r.sum_a_ns / 1e3, r.sum_b_ns / 1e3, r.delta_ns() / 1e3,
               num(r.ratio(), 3));
  }
  const int ra = finish(o, a);
  return ra != ok ? ra : finish(o, b);
}

}  // namespace

subcommand register_diff(CLI::App& app, common_options& o) {
  auto d = std::make_shared<diff_options>();
  auto* sc = app.add_subcommand(
      "diff", "compare two runs (A = baseline, B = new) per op, function, layer, ...");
  add_common(sc, o);
  sc->add_option("other", d->other, "the second dump (B)")->required();
  sc->add_option("--by", d->by, "op, op_type, function, layer, engine or core");
  sc->add_option("-n", d->n, "rows (largest time change first; default 30)");
  return {sc, [&o, d] { return run_diff(o, *d); }};
}

}  // namespace cli
