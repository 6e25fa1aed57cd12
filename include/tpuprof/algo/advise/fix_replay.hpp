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

/// The replay model of one graph: measured lags, then fixes on top.
class fix_replay {
 public:
  explicit fix_replay(const dependency_graph& g) : g_(&g), cp_(critical_path(g)), lag_{&g, &cp_} {
    factor_.assign(g.size(), 1.0);
    cut_.assign(g.size(), 0.0);
    dep_.assign(g.size(), keep_dep);
    base_ = run();
  }
  /// Span of the unchanged replay (equals the measured span up to rounding).
  double base_span() const noexcept { return base_; }
  double measured_span() const noexcept { return cp_.span_ns(); }
  const critical_path_result& path() const noexcept { return cp_; }

  /// Span with the fixes applied so far plus `f` (kept when `keep`).
  double span_with(const fix& f, bool keep) {
    auto saved_f = factor_;
    auto saved_c = cut_;
    auto saved_d = dep_;
    for (auto [n, x] : f.factor) factor_[n] *= x;
    for (auto [n, c] : f.cut) cut_[n] = std::max(cut_[n], c);
    for (auto [n, d] : f.repoint) dep_[n] = d;
    const double s = run();
    if (!keep) {
      factor_.swap(saved_f);
      cut_.swap(saved_c);
      dep_.swap(saved_d);
    }
    return s;
  }

 private:
  double run() const {
    const dependency_graph& g = *g_;
    if (g.size() == 0) return 0;
    std::vector<double> end(g.size());
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::uint32_t n : g.order) {
      double start = -std::numeric_limits<double>::infinity();
      bool any = false;
      detail::for_each_pred(g, n, [&](std::uint32_t p, edge_kind k) {
        double l = lag_(p, n, k) - cut_[n];
        if (k == edge_kind::dependency && dep_[n] != keep_dep) {
          if (dep_[n] == no_node) return;
          p = dep_[n];  // the new awaited command, with the old edge's latency
        }
        if (k == edge_kind::engine_order) l = std::max(l, 0.0);
        start = std::max(start, end[p] + l);
        any = true;
      });
      const double b = any ? start : g.events[n].begin_ns - cut_[n];
      end[n] = b + g.events[n].dur_ns() * factor_[n];
      lo = std::min(lo, b);
      hi = std::max(hi, end[n]);
    }
    return hi - lo;
  }

  const dependency_graph* g_;
  critical_path_result cp_;
  detail::lag_model lag_;
  std::vector<double> factor_, cut_;
  static constexpr std::uint32_t keep_dep = no_node - 1;
  std::vector<std::uint32_t> dep_;  ///< per node: keep_dep, or the repointed dependency
  double base_ = 0;
};

}  // namespace tpuprof::algo::advise
