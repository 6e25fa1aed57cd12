/// algo::advise fix replay: the what-if replay (whatif.hpp) with per-command
/// fixes: a duration factor and a cut of the wait before the command. The time
/// a finding can recover is the span the replay loses when its fix is applied.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/whatif.hpp>

namespace tpuprof::algo::advise {

/// What fixing a finding changes: per command, its duration factor and how
/// many ns earlier it could start (its incoming lags shortened; the engine-order
/// lag never below 0, so a queue never overlaps itself).
struct fix {
  std::vector<std::pair<std::uint32_t, double>> factor;  ///< node, duration factor
  std::vector<std::pair<std::uint32_t, double>> cut;     ///< node, ns earlier
  /// node, the command its dependency (cmd_id_dep) names instead (no_node: none).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> repoint;
  bool empty() const noexcept { return factor.empty() && cut.empty() && repoint.empty(); }
};

/// The replay model of one graph: measured lags, then fixes on top. The lags of
/// every edge are read once (lag_model), so a replay is one pass over flat arrays.
class fix_replay {
 public:
  explicit fix_replay(const dependency_graph& g) : g_(&g), cp_(critical_path(g)) {
    const detail::lag_model lag{&g, &cp_};
    const std::size_t n = g.size();
    factor_.assign(n, 1.0);
    cut_.assign(n, 0.0);
    dep_.assign(n, keep_dep);
    lags_.assign(n, edge_lags{});
    for (std::uint32_t i = 0; i < n; ++i)
      detail::for_each_pred(g, i, [&](std::uint32_t p, edge_kind k) {
        const double l = lag(p, i, k);
        (k == edge_kind::engine_order ? lags_[i].prev
         : k == edge_kind::dependency ? lags_[i].dep
                                      : lags_[i].sync) = l;
      });
    base_ = run();
  }
  /// Span of the unchanged replay (equals the measured span up to rounding).
  double base_span() const noexcept { return base_; }
  double measured_span() const noexcept { return cp_.span_ns(); }
  const critical_path_result& path() const noexcept { return cp_; }

  /// Span with the fixes applied so far plus `f` (kept when `keep`).
  double span_with(const fix& f, bool keep) {
    apply(f);
    const double s = run();
    if (!keep) {  // newest first, so a node fixed twice gets its first value back
      for (auto it = undo_f_.rbegin(); it != undo_f_.rend(); ++it) factor_[it->first] = it->second;
      for (auto it = undo_c_.rbegin(); it != undo_c_.rend(); ++it) cut_[it->first] = it->second;
      for (auto it = undo_d_.rbegin(); it != undo_d_.rend(); ++it) dep_[it->first] = it->second;
    }
    return s;
  }
  /// Keeps `f` without a replay (its span is known: span_with(f, false) just before).
  void keep(const fix& f) { apply(f); }

 private:
  /// Applies `f`, noting the old values (undo_*_).
  void apply(const fix& f) {
    undo_f_.clear();
    undo_c_.clear();
    undo_d_.clear();
    for (auto [n, x] : f.factor) {
      undo_f_.emplace_back(n, factor_[n]);
      factor_[n] *= x;
    }
    for (auto [n, c] : f.cut) {
      undo_c_.emplace_back(n, cut_[n]);
      cut_[n] = std::max(cut_[n], c);
    }
    for (auto [n, d] : f.repoint) {
      undo_d_.emplace_back(n, dep_[n]);
      dep_[n] = d;
    }
  }

  /// The measured lag of each incoming edge of a node (lag_model), read once.
  struct edge_lags {
    double prev = 0, dep = 0, sync = 0;
  };

  /// The replay: each node starts at its latest predecessor's end plus the edge's
  /// lag, minus its cut (for_each_pred's edges, with the fixes applied).
  double run() {
    const dependency_graph& g = *g_;
    if (g.size() == 0) return 0;
    end_.resize(g.size());
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::uint32_t n : g.order) {
      const edge_lags& l = lags_[n];
      const double cut = cut_[n];
      double start = -std::numeric_limits<double>::infinity();
      bool any = false;
      if (const std::uint32_t p = g.prev[n]; p != no_node) {  // a queue never overlaps itself
        start = end_[p] + std::max(l.prev - cut, 0.0);
        any = true;
      }
      if (std::uint32_t p = g.usable_dep(n); p != no_node) {
        if (dep_[n] != keep_dep) p = dep_[n];  // the new awaited command, the old edge's lag
        if (p != no_node) {
          start = std::max(start, end_[p] + l.dep - cut);
          any = true;
        }
      }
      if (const std::uint32_t p = g.usable_sync(n); p != no_node) {
        start = std::max(start, end_[p] + l.sync - cut);
        any = true;
      }
      const engine_event& e = g.events[n];
      const double b = any ? start : e.begin_ns - cut;
      end_[n] = b + e.dur_ns() * factor_[n];
      lo = std::min(lo, b);
      hi = std::max(hi, end_[n]);
    }
    return hi - lo;
  }

  const dependency_graph* g_;
  critical_path_result cp_;
  std::vector<edge_lags> lags_;
  std::vector<double> factor_, cut_, end_;
  static constexpr std::uint32_t keep_dep = no_node - 1;
  std::vector<std::uint32_t> dep_;  ///< per node: keep_dep, or the repointed dependency
  std::vector<std::pair<std::uint32_t, double>> undo_f_, undo_c_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> undo_d_;
  double base_ = 0;
};

}  // namespace tpuprof::algo::advise
