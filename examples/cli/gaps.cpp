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

#include <tpuprof/algo/gap_stats.hpp>
#include <tpuprof/trace.hpp>
#include <tpuprof/views/track_layout.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct gaps_options {
  std::string min = fmt::format("{}ns", default_min_gap_ns);
  std::size_t limit = 20;
  std::string format = "table";
};

/// `tr` as JSON fields (device, unit, engine).
std::string track_json(const track_key& tr) {
  return fmt::format("\"device\":{},\"unit\":{},\"engine\":{}", tr.device, tr.unit,
                     json_str(name(tr.eng)));
}

void print_gaps_json(const trace& t, const gap_report& r, double min_ns) {
  const track_layout lay(t.info());
  const double span = t.info().end_ns - t.info().begin_ns;
  std::string s = fmt::format("{{\"min_ns\":{},\"tracks\":[", json_num(min_ns));
  for (std::size_t i = 0; i < r.tracks.size(); ++i) {
    const track_gaps& a = r.tracks[i];
    s += fmt::format("{}{{{},\"gaps\":{},\"idle_ns\":{},\"longest_ns\":{},\"idle_pct\":{}}}",
                     i ? "," : "", track_json(a.track), a.count, json_num(a.total_ns),
                     json_num(a.longest_ns), span > 0 ? json_num(100 * a.total_ns / span) : "null");
  }
  s += "],\"longest\":[";
  for (std::size_t i = 0; i < r.longest.size(); ++i) {
    const idle_gap& g = r.longest[i];
    s += fmt::format(
        "{}{{{},\"begin_ns\":{},\"dur_ns\":{},\"after\":{{\"op\":{},\"cmd_id\":{}}},"
        "\"before\":{{\"op\":{},\"cmd_id\":{}}}}}",
        i ? "," : "", track_json(g.track), json_num(g.begin_ns - lay.origin_ns),
        json_num(g.dur_ns()), json_str(op_text(t.info(), g.prev)), g.prev.cmd_id,
        json_str(op_text(t.info(), g.next)), g.next.cmd_id);
  }
  fmt::print("{}]}}\n", s);
}

void print_gaps_table(const trace& t, const gap_report& r, double min_ns) {
  const track_layout lay(t.info());
  const double span = t.info().end_ns - t.info().begin_ns;
  text_table tracks({{"dev", 3, false, 3},
                     {"unit", 4, false, 4},
                     {"eng", 5, true, 5},
                     {"gaps", 8, false, 3},
                     {"idle_us", 14, false, 4},
                     {"longest_us", 14, false, 2},
                     {"idle%", 8, false, 4}});
  for (const track_gaps& a : r.tracks)
    tracks.row({std::to_string(a.track.device), std::to_string(a.track.unit),
                std::string(name(a.track.eng)), std::to_string(a.count),
                fmt::format("{:.3f}", a.total_ns / 1e3), fmt::format("{:.3f}", a.longest_ns / 1e3),
                span > 0 ? num(100 * a.total_ns / span, 2) : ""});
  fmt::print("idle gaps >= {} ns per track\n", min_ns);
  print_table(tracks);
  text_table longest({{"dev", 3, false, 3},
                      {"unit", 4, false, 4},
                      {"eng", 5, true, 5},
                      {"begin_us", 14, false, 2},
                      {"dur_ns", 12, false, 4},
                      {"after", 28, true, 3, "  "},
                      {"before", 28, true, 3, " "}});
  for (const idle_gap& g : r.longest)
    longest.row({std::to_string(g.track.device), std::to_string(g.track.unit),
                 std::string(name(g.track.eng)),
                 fmt::format("{:.3f}", (g.begin_ns - lay.origin_ns) / 1e3),
                 fmt::format("{:.0f}", g.dur_ns()),
                 fmt::format("{}#{}", op_text(t.info(), g.prev), g.prev.cmd_id),
                 fmt::format("{}#{}", op_text(t.info(), g.next), g.next.cmd_id)});
  fmt::print("\nlongest {} gaps\n", r.longest.size());
  print_table(longest);
}

int run_gaps(const common_options& o, double min_ns, std::size_t limit, bool json) {
  progress p(o.show_progress, o.progress_color);
  auto t = load(o, p);
  const gap_report r = algo::gap_stats(t.events(), min_ns, limit);
  if (json)
    print_gaps_json(t, r, min_ns);
  else
    print_gaps_table(t, r, min_ns);
  return finish(o, t);
}

}  // namespace

subcommand register_gaps(CLI::App& app, common_options& o) {
  auto a = std::make_shared<gaps_options>();
  auto* sc = app.add_subcommand("gaps", "idle gaps per engine, longest first");
  add_common(sc, o);
  sc->add_option(
      "--min", a->min,
      fmt::format("smallest gap to report (e.g. 500ns, 1us; default {}ns)", default_min_gap_ns));
  sc->add_option("-n", a->limit, "how many of the longest gaps to list (default 20)")
      ->check(CLI::Range(0, 100000000));
  sc->add_option("--format", a->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  return {sc, [&o, a] {
            auto ns = parse_duration_ns(a->min);
            if (!ns || *ns < 0) {
              std::fprintf(stderr, "tpuprof: --min: not a duration >= 0: %s (e.g. 500ns, 1us)\n",
                           a->min.c_str());
              return int{usage};
            }
            return run_gaps(o, *ns, a->limit, a->format == "json");
          }};
}

}  // namespace cli
