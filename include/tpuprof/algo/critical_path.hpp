/// algo::critical_path: from the last-ending command back to the first, the
/// predecessor whose end bound each start (engine order, dependency or sync) and
/// the latency between them; totals by engine, op, layer and kernel function;
/// slack per command. Durations plus latencies of the path equal the span.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <vector>

#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>

namespace tpuprof::algo {

/// One command of a critical path, reached from the previous step `via`, after
/// `latency_ns` (begin of this command - end of the previous; for the first
/// step, begin - begin of the span).
struct path_step {
  std::uint32_t node = no_node;
  edge_kind via = edge_kind::start;
  double latency_ns = 0;
  double begin_ns = 0, end_ns = 0;  ///< of the schedule the path was taken on
};

/// A schedule of the graph's nodes: measured (the events) or replayed.
struct schedule {
  std::vector<double> begin, end;
};

/// The critical path and what it is made of.
struct critical_path_result {
  double begin_ns = 0, end_ns = 0;  ///< span of the schedule
  std::vector<path_step> path;      ///< first to last
  std::array<double, engine_count> by_engine_ns{};
  double latency_ns = 0;  ///< sum of the steps' latencies
  std::map<name_id, double> by_op_ns, by_function_ns;
  std::map<std::int32_t, double> by_layer_ns;
  /// Per node: the predecessor that bound its start and how (start = none).
  std::vector<std::uint32_t> binding;
  std::vector<edge_kind> binding_kind;
  /// Per node: how much later it could have ended without moving the span.
  std::vector<double> slack_ns;

  double span_ns() const noexcept { return end_ns - begin_ns; }
  /// Durations plus latencies of the path (equals span_ns() up to rounding).
  double path_sum_ns() const noexcept {
    double s = latency_ns;
    for (double d : by_engine_ns) s += d;
    return s;
  }
};

namespace detail {

/// Calls f(pred, kind) for each usable predecessor of n.
template <class F>
void for_each_pred(const dependency_graph& g, std::uint32_t n, F&& f) {
  if (g.prev[n] != no_node) f(g.prev[n], edge_kind::engine_order);
  if (const auto d = g.usable_dep(n); d != no_node) f(d, edge_kind::dependency);
  if (g.sync[n] != no_node) f(g.sync[n], edge_kind::sync);
}

/// The measured schedule of the graph's events.
inline schedule measured(const dependency_graph& g) {
  schedule s;
  s.begin.resize(g.size());
  s.end.resize(g.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    s.begin[i] = g.events[i].begin_ns;
    s.end[i] = g.events[i].end_ns;
  }
  return s;
}

/// Per node, the predecessor with the latest end + lag (ties: the later kind,
/// so a dependency wins over engine order); `lag` = 0 for the measured schedule.
template <class Lag>
void bind(const dependency_graph& g, const schedule& s, Lag&& lag, critical_path_result& r) {
  r.binding.assign(g.size(), no_node);
  r.binding_kind.assign(g.size(), edge_kind::start);
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    double best = -std::numeric_limits<double>::infinity();
    for_each_pred(g, n, [&](std::uint32_t p, edge_kind k) {
      const double t = s.end[p] + lag(p, n, k);
      if (t > best || (t == best && k > r.binding_kind[n])) {
        best = t;
        r.binding[n] = p;
        r.binding_kind[n] = k;
      }
    });
  }
}

/// Walks back from the last-ending node and fills path and totals.
inline void walk(const dependency_graph& g, const schedule& s, critical_path_result& r) {
  if (g.size() == 0) return;
  r.begin_ns = *std::min_element(s.begin.begin(), s.begin.end());
  std::uint32_t last = 0;
  for (std::uint32_t i = 1; i < g.size(); ++i)
    if (s.end[i] >= s.end[last]) last = i;
  r.end_ns = s.end[last];
  for (std::uint32_t n = last; n != no_node && r.path.size() < g.size(); n = r.binding[n]) {
    const std::uint32_t p = r.binding[n];
    const double lat = s.begin[n] - (p == no_node ? r.begin_ns : s.end[p]);
    r.path.push_back({n, r.binding_kind[n], lat, s.begin[n], s.end[n]});
  }
  std::reverse(r.path.begin(), r.path.end());
  for (const path_step& st : r.path) {
    const engine_event& e = g.events[st.node];
    const double d = st.end_ns - st.begin_ns;
    r.by_engine_ns[static_cast<std::size_t>(e.engine)] += d;
    r.latency_ns += st.latency_ns;
    r.by_op_ns[e.op] += d;
    r.by_function_ns[e.function] += d;
    r.by_layer_ns[e.layer_id] += d;
  }
}

/// Lags of the replay model, from the measured schedule: the binding edge keeps
/// its measured latency (the issue latency); other edges keep theirs, capped at
/// the binding one (so they bind only when their end moves past it).
struct lag_model {
  const dependency_graph* g;
  const schedule* s;
  const critical_path_result* r;
  double operator()(std::uint32_t p, std::uint32_t n, edge_kind) const {
    const double bind_lat = r->binding[n] == no_node ? 0 : s->begin[n] - s->end[r->binding[n]];
    const double lat = s->begin[n] - s->end[p];
    return p == r->binding[n] ? lat : std::min(lat, std::max(bind_lat, 0.0));
  }
};

/// Latest end of each node that keeps the span (backward pass over the lags).
template <class Lag>
std::vector<double> slack(const dependency_graph& g, const schedule& s, double end_ns, Lag&& lag) {
  std::vector<double> late(g.size(), end_ns);
  for (auto it = g.order.rbegin(); it != g.order.rend(); ++it) {
    const std::uint32_t n = *it;
    const double late_begin = late[n] - (s.end[n] - s.begin[n]);
    for_each_pred(g, n, [&](std::uint32_t p, edge_kind k) {
      late[p] = std::min(late[p], late_begin - lag(p, n, k));
    });
  }
  for (std::size_t i = 0; i < g.size(); ++i) late[i] -= s.end[i];
  return late;
}

}  // namespace detail

/// The critical path of the measured schedule, with slack per command.
inline critical_path_result critical_path(const dependency_graph& g) {
  critical_path_result r;
  const schedule s = detail::measured(g);
  detail::bind(
      g, s, [](std::uint32_t, std::uint32_t, edge_kind) { return 0.0; }, r);
  detail::walk(g, s, r);
  r.slack_ns = detail::slack(g, s, r.end_ns, detail::lag_model{&g, &s, &r});
  return r;
}

}  // namespace tpuprof::algo
