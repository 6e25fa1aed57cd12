// tpuprof gaps: idle gaps per engine, longest first.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/trace.hpp>
#include <tpuprof/views/idle_gaps.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct gaps_options {
  std::string min = "1us";
  std::size_t limit = 20;
};

int run_gaps(const common_options& o, double min_ns, std::size_t limit) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  struct acc {
    std::uint64_t count = 0;
    double total = 0, longest = 0;
  };
  std::map<std::tuple<int, int, int>, acc> per;
  std::vector<idle_gap> all;
  for (const auto& g : t.events() | views::idle_gaps(min_ns)) {
    auto& a = per[{g.track.device, g.track.unit, static_cast<int>(g.track.eng)}];
    ++a.count;
    a.total += g.dur_ns();
    a.longest = std::max(a.longest, g.dur_ns());
    all.push_back(g);
  }
  fmt::print("idle gaps >= {} ns per track\n{:>3} {:>4} {:<5} {:>8} {:>14} {:>14} {:>8}\n", min_ns,
             "dev", "unit", "eng", "gaps", "idle_us", "longest_us", "idle%");
  const double span = t.info().end_ns - t.info().begin_ns;
  for (const auto& [k, a] : per)
    fmt::print("{:>3} {:>4} {:<5} {:>8} {:>14.3f} {:>14.3f} {:>8}\n", std::get<0>(k),
               std::get<1>(k), name(static_cast<engine>(std::get<2>(k))), a.count, a.total / 1e3,
               a.longest / 1e3, span > 0 ? num(100 * a.total / span, 2) : "");
  std::sort(all.begin(), all.end(),
            [](const idle_gap& a, const idle_gap& b) { return a.dur_ns() > b.dur_ns(); });
  if (all.size() > limit) all.resize(limit);
  fmt::print("\nlongest {} gaps\n{:>3} {:>4} {:<5} {:>14} {:>12}  {:<28} {:<28}\n", all.size(),
             "dev", "unit", "eng", "begin_us", "dur_ns", "after", "before");
  for (const auto& g : all)
    fmt::print("{:>3} {:>4} {:<5} {:>14.3f} {:>12.0f}  {:<28} {:<28}\n", g.track.device,
               g.track.unit, name(g.track.eng), g.begin_ns / 1e3, g.dur_ns(),
               fmt::format("{}#{}", op_text(t.info(), g.prev), g.prev.cmd_id),
               fmt::format("{}#{}", op_text(t.info(), g.next), g.next.cmd_id));
  return finish(o, t);
}

}  // namespace

subcommand register_gaps(CLI::App& app, common_options& o) {
  auto a = std::make_shared<gaps_options>();
  auto* sc = app.add_subcommand("gaps", "idle gaps per engine, longest first");
  add_common(sc, o);
  sc->add_option("--min", a->min, "smallest gap to report (e.g. 500ns, 1us; default 1us)");
  sc->add_option("-n", a->limit, "how many of the longest gaps to list (default 20)");
  return {sc, [&o, a] {
            auto ns = parse_duration_ns(a->min);
            if (!ns) {
              std::fprintf(stderr, "tpuprof: --min: not a duration: %s (e.g. 500ns, 1us)\n",
                           a->min.c_str());
              return int{usage};
            }
            return run_gaps(o, *ns, a->limit);
          }};
}

}  // namespace cli
