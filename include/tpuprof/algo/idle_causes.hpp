/// algo::idle_causes: every idle interval of every engine queue gets exactly one
/// cause (dependency, sync, dispatch, edge, unknown); per queue the causes sum
/// to its idle time within the span.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::algo {

/// Why an engine queue was idle.
enum class idle_cause : std::uint8_t {
  dependency = 0,  ///< the next command waited for the command its cmd_id_dep names
  sync,            ///< the next command waited for a message (send_msg / wait_msg)
  dispatch,        ///< nothing it waited for was pending: the issuer was late
  edge,            ///< before the queue's first or after its last command
  unknown,         ///< no dependency data for the next command (or its id is unresolved or unused)
};
inline constexpr std::size_t idle_cause_count = 5;

constexpr std::string_view name(idle_cause c) noexcept {
  constexpr std::array<std::string_view, idle_cause_count> n{"dependency", "sync", "dispatch",
                                                             "edge", "unknown"};
  return n[static_cast<std::size_t>(c)];
}

/// One idle interval and its cause; `on` = the command waited for (dependency
/// or sync), else no_node.
struct idle_interval {
  double begin_ns = 0, end_ns = 0;
  idle_cause cause = idle_cause::unknown;
  std::uint32_t next = no_node;  ///< the command that ended the interval (no_node: span end)
  std::uint32_t on = no_node;
  double dur_ns() const noexcept { return end_ns - begin_ns; }
};

/// Idle time of one engine queue by cause.
struct queue_idle {
  track_key track;
  double total_ns = 0;  ///< span - busy (union of the queue's commands)
  std::array<double, idle_cause_count> by_cause_ns{};
  std::vector<idle_interval> intervals;  ///< in time order
};

namespace detail {

/// The cause of the gap [a, b) before node n.
inline idle_interval classify_gap(const dependency_graph& g, std::uint32_t n, double a, double b) {
  idle_interval iv{a, b, idle_cause::dispatch, n, no_node};
  const std::uint8_t st = g.state[n];
  if (!(st & dependency_graph::known)) {
    iv.cause = idle_cause::unknown;
    return iv;
  }
  double late = a;  // a wait that ended inside the gap explains it
  if (const auto d = g.usable_dep(n); d != no_node && g.time[d].end > late) {
    late = g.time[d].end;
    iv.cause = idle_cause::dependency;
    iv.on = d;
  }
  if (const auto s = g.usable_sync(n); s != no_node && g.time[s].end > late) {
    iv.cause = idle_cause::sync;
    iv.on = s;
  }
  if (iv.on == no_node && (st & (dependency_graph::unresolved | dependency_graph::violated |
                                 dependency_graph::dep_unused)))
    iv.cause = idle_cause::unknown;
  return iv;
}

}  // namespace detail

/// Idle intervals and causes of every queue of the graph, over the graph's span
/// [begin_ns, end_ns] (queues in events order). `edge`: before the queue's
/// first event, after its last, and before the records that follow its last
/// command with dependency data.
inline std::vector<queue_idle> idle_causes(const dependency_graph& g) {
  std::vector<queue_idle> out;
  const auto& t = g.time;
  const auto tracks = detail::track_ranges(g);
  out.reserve(tracks.size());
  for (const auto& [b, e] : tracks) {
    queue_idle q;
    q.track = track_of(g.events[b]);
    q.intervals.reserve(e - b + 1);  // at most one per command and the tail: pages stay untouched
    auto add = [&](const idle_interval& iv) {
      if (!(iv.end_ns > iv.begin_ns)) return;
      q.total_ns += iv.dur_ns();
      q.by_cause_ns[static_cast<std::size_t>(iv.cause)] += iv.dur_ns();
      q.intervals.push_back(iv);
    };
    // Records after the queue's last command with dependency data have no
    // command (the firmware's work after the program, e.g. records past
    // system.end): the program's queue has ended, so the time before them is
    // `edge`, not `unknown`. Queues without any data keep the plain rule.
    std::uint32_t last_known = e;
    for (std::uint32_t i = b; i < e; ++i)
      if (g.state[i] & dependency_graph::known) last_known = i;
    double covered = g.begin_ns;  // end of the union of the commands so far
    for (std::uint32_t i = b; i < e; ++i) {
      if (t[i].begin > covered) {
        if (i == b || (last_known != e && i > last_known))
          add({covered, t[i].begin, idle_cause::edge, i, no_node});
        else
          add(detail::classify_gap(g, i, covered, t[i].begin));
      }
      covered = std::max(covered, t[i].end);
    }
    add({covered, g.end_ns, idle_cause::edge, no_node, no_node});
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace tpuprof::algo
