/// findings_summary: what the HTML report shows of the advisor
/// (algo::advise_findings): each finding as `tpuprof advise --format json`
/// writes it (rule, severity, recoverable time, evidence, message), and its
/// commands by track and position among the shown events, to highlight them
/// on the timeline. Set html_options::findings to it.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <tpuprof/algo/advisor.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::report {

struct findings_summary {
  /// One command of a finding's evidence.
  struct command {
    engine eng = engine::tiu;
    unsigned core = 0;
    std::uint32_t cmd_id = 0;
    std::int32_t layer_id = -1;
    double begin_ns = 0, end_ns = 0;  ///< analysed times, after the time origin (as advise)
    track_key track;                  ///< where the timeline shows it
    std::uint64_t index = 0;          ///< its position among the track's shown events
  };
  struct item {
    std::string id, rule, severity;
    double recoverable_ns = 0, bucket_ns = 0;
    std::vector<std::int32_t> layers;
    std::vector<command> commands;
    std::string message;
  };
  double span_ns = 0;
  /// The commands record what they wait for (false: SG2260 modes 0/1; the
  /// wait rules and bound classes cannot run, the page says so).
  bool dependency_data = false;
  std::vector<item> findings;  ///< most recoverable first
};

/// The summary of `a` (advised on `g`) for a report of `shown`: the graph's
/// events or another decode's of the same dump (algo::same_commands; else
/// std::invalid_argument). `origin_ns` is subtracted from the analysed times
/// (track_layout's origin, as `tpuprof advise` does).
inline findings_summary summarize_findings(const algo::dependency_graph& g, const algo::advice& a,
                                           std::span<const engine_event> shown, double origin_ns) {
  if (!algo::same_commands(g.events, shown))
    throw std::invalid_argument("summarize_findings: the events shown are not the analysed ones");
  findings_summary s;
  s.span_ns = a.span_ns;
  s.dependency_data = g.has_data();
  std::vector<std::uint32_t> first(shown.size());  // first event of each event's track
  for (std::uint32_t i = 0; i < shown.size(); ++i)
    first[i] = i > 0 && track_of(shown[i]) == track_of(shown[i - 1]) ? first[i - 1] : i;
  for (const algo::finding& f : a.findings) {
    findings_summary::item it{f.id,
                              std::string(f.rule),
                              std::string(name(f.severity)),
                              f.recoverable_ns,
                              f.bucket_ns,
                              f.layers,
                              {},
                              f.message};
    for (std::uint32_t n : f.commands) {
      const engine_event& e = g.events[n];
      it.commands.push_back({e.engine, unsigned{e.unit}, e.cmd_id, e.layer_id,
                             e.begin_ns - origin_ns, e.end_ns - origin_ns, track_of(shown[n]),
                             n - first[n]});
    }
    s.findings.push_back(std::move(it));
  }
  return s;
}

}  // namespace tpuprof::report
