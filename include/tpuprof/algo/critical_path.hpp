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
  if (const auto s = g.usable_sync(n); s != no_node) f(s, edge_kind::sync);
}

/// The measured times of the graph's events (its packed copy of them).
struct measured_times {
  std::span<const node_times> t;
  double begin(std::uint32_t i) const noexcept { return t[i].begin; }
  double end(std::uint32_t i) const noexcept { return t[i].end; }
};
/// The times of a replayed schedule.
struct schedule_times {
  const schedule* s;
  double begin(std::uint32_t i) const noexcept { return s->begin[i]; }
  double end(std::uint32_t i) const noexcept { return s->end[i]; }
};

/// Per node, the predecessor with the latest end + lag (ties: the later kind,
/// so a dependency wins over engine order); `lag` = 0 for the measured schedule.
/// Also sets r.begin_ns, r.end_ns and `last`, the node that ends last.
template <class Times, class Lag>
void bind(const dependency_graph& g, const Times& s, Lag&& lag, critical_path_result& r,
          std::uint32_t& last) {
  r.binding.assign(g.size(), no_node);
  r.binding_kind.assign(g.size(), edge_kind::start);
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    double best = -std::numeric_limits<double>::infinity();
    std::uint32_t bp = no_node;
    edge_kind bk = edge_kind::start;
    for_each_pred(g, n, [&](std::uint32_t p, edge_kind k) {
      const double t = s.end(p) + lag(p, n, k);
      if (t > best || (t == best && k > bk)) {
        best = t;
        bp = p;
        bk = k;
      }
    });
    r.binding[n] = bp;
    r.binding_kind[n] = bk;
    r.begin_ns = n == 0 ? s.begin(n) : std::min(r.begin_ns, s.begin(n));
    if (n == 0 || s.end(n) >= r.end_ns) {  // the last-ending node, for walk
      r.end_ns = s.end(n);
      last = n;
    }
  }
}

/// Walks back from `last` (the last-ending node) and fills path and totals. Bindings
/// go forward in the graph's order; the walk still stops on a node it has
/// seen (a cycle) rather than loop.
template <class Times>
void walk(const dependency_graph& g, const Times& s, std::uint32_t last, critical_path_result& r) {
  if (g.size() == 0) return;
  std::vector<bool> seen(g.size());
  for (std::uint32_t n = last; n != no_node && !seen[n]; n = r.binding[n]) {
    seen[n] = true;
    const std::uint32_t p = r.binding[n];
    const double lat = s.begin(n) - (p == no_node ? r.begin_ns : s.end(p));
    r.path.push_back({n, r.binding_kind[n], lat, s.begin(n), s.end(n)});
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
  const critical_path_result* r;
  double operator()(std::uint32_t p, std::uint32_t n, edge_kind) const {
    const auto& t = g->time;
    const std::uint32_t b = r->binding[n];
    const double lat = t[n].begin - t[p].end;
    if (p == b) return lat;
    const double bind_lat = b == no_node ? 0 : t[n].begin - t[b].end;
    return std::min(lat, std::max(bind_lat, 0.0));
  }
};

/// How much later each node could end without moving the span: a backward
/// pass over `order` with the replay model's lags, on the measured schedule.
/// Each node's slack is final when it is reached (its successors come later in
/// `order`); it is kept as slack, not as a latest end, to save a pass.
inline std::vector<double> slack(const dependency_graph& g, const critical_path_result& r) {
  const auto& t = g.time;
  std::vector<double> sl(g.size(), std::numeric_limits<double>::infinity());
  for (auto it = g.order.rbegin(); it != g.order.rend(); ++it) {
    const std::uint32_t n = *it;
    const double begin = t[n].begin, end = t[n].end;
    sl[n] = std::min(sl[n], r.end_ns - end);
    const double late_begin = sl[n] + begin;  // latest begin: latest end - duration
    const std::uint32_t b = r.binding[n];
    if (b == no_node) continue;
    const double cap = std::max(begin - t[b].end, 0.0);
    for_each_pred(g, n, [&](std::uint32_t p, edge_kind) {
      const double pend = t[p].end, lat = begin - pend;
      const double lag = p == b ? lat : std::min(lat, cap);
      sl[p] = std::min(sl[p], late_begin - lag - pend);
    });
  }
  return sl;
}

}  // namespace detail

/// The critical path of the measured schedule, with slack per command.
inline critical_path_result critical_path(const dependency_graph& g) {
  critical_path_result r;
  const detail::measured_times s{g.time};
  std::uint32_t last = 0;
  detail::bind(
      g, s, [](std::uint32_t, std::uint32_t, edge_kind) { return 0.0; }, r, last);
  detail::walk(g, s, last, r);
  r.slack_ns = detail::slack(g, r);
  return r;
}

}  // namespace tpuprof::algo
