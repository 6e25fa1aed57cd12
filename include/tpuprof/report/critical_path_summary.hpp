/// critical_path_summary: what the HTML report shows of a dependency analysis
/// (algo::critical_path, algo::idle_causes): the path's commands by track and
/// position (to outline them on the timeline), its totals and the idle time
/// of every engine queue by cause. Set html_options::critical_path to it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::report {

struct critical_path_summary {
  /// One command of the path: its track and position among the track's events.
  struct step {
    track_key track;
    std::uint64_t index = 0;
    algo::edge_kind via = algo::edge_kind::start;
  };
  struct queue {
    track_key track;
    double total_ns = 0;
    std::array<double, algo::idle_cause_count> by_cause_ns{};
  };
  double span_ns = 0;
  bool dependency_data = false;
  algo::dependency_counts counts;
  std::array<double, engine_count> by_engine_ns{};
  double latency_ns = 0;
  std::vector<step> path;
  std::vector<queue> idle;
};

/// The summary of `cp` and `idle` (on `g`) for a report of `shown`: the
/// graph's events or another decode's of the same dump (algo::same_commands;
/// else std::invalid_argument).
inline critical_path_summary summarize_critical_path(const algo::dependency_graph& g,
                                                     const algo::critical_path_result& cp,
                                                     const std::vector<algo::queue_idle>& idle,
                                                     std::span<const engine_event> shown) {
  if (!algo::same_commands(g.events, shown))
    throw std::invalid_argument(
        "summarize_critical_path: the events shown are not the analysed commands");
  critical_path_summary s;
  s.span_ns = cp.span_ns();
  s.dependency_data = g.has_data();
  s.counts = g.counts;
  s.by_engine_ns = cp.by_engine_ns;
  s.latency_ns = cp.latency_ns;
  std::vector<std::uint32_t> first(shown.size());  // first event of each event's track
  for (std::uint32_t i = 0; i < shown.size(); ++i)
    first[i] = i > 0 && track_of(shown[i]) == track_of(shown[i - 1]) ? first[i - 1] : i;
  for (const algo::path_step& st : cp.path)
    s.path.push_back({track_of(shown[st.node]), st.node - first[st.node], st.via});
  for (const algo::queue_idle& q : idle) s.idle.push_back({q.track, q.total_ns, q.by_cause_ns});
  return s;
}

}  // namespace tpuprof::report
