/// diff: compares two runs (e.g. before/after a compiler change) group by
/// group: counts, time and bytes per op, function, layer, engine or core.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <tpuprof/algo/group_stats.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof {

/// One group of a comparison. "a" is the baseline, "b" the new run.
struct diff_row {
  std::string key;  ///< group label (names resolved, so it is comparable across dumps)
  std::uint64_t count_a = 0, count_b = 0;
  double sum_a_ns = 0, sum_b_ns = 0;
  std::uint64_t bytes_a = 0, bytes_b = 0;

  double delta_ns() const noexcept { return sum_b_ns - sum_a_ns; }
  /// b / a of the summed time; NaN when the group is absent from a.
  double ratio() const noexcept {
    return sum_a_ns > 0 ? sum_b_ns / sum_a_ns : std::numeric_limits<double>::quiet_NaN();
  }
};

/// Text of a group's key: a name (or "unknown"), a layer id (or "none"), an
/// engine, or "devD.coreN" / "devD.cdmaP".
inline std::string group_label(const group_stats& g, const trace_info& info) {
  switch (g.by) {
    case group_key::op:
    case group_key::op_type:
    case group_key::function: {
      auto s = info.names[static_cast<name_id>(g.id)];
      return s.empty() ? std::string("unknown") : std::string(s);
    }
    case group_key::layer:
      return g.id < 0 ? std::string("none") : std::to_string(g.id);
    case group_key::engine:
      return std::string(name(static_cast<engine>(g.id)));
    case group_key::core:
      return "dev" + std::to_string(g.device) + (g.eng == engine::cdma ? ".cdma" : ".core") +
             std::to_string(g.id);
  }
  return {};
}

/// Groups both runs by `by` and pairs the groups by label; rows sorted by the
/// absolute time difference, largest first (ties by label).
template <event_range A, event_range B>
std::vector<diff_row> diff_runs(A&& a, const trace_info& info_a, B&& b, const trace_info& info_b,
                                group_key by) {
  std::map<std::string, diff_row> rows;
  for (const group_stats& g : algo::group_stats_by(std::forward<A>(a), by)) {
    auto& r = rows[group_label(g, info_a)];
    r.count_a += g.count;
    r.sum_a_ns += g.sum_ns;
    r.bytes_a += g.bytes;
  }
  for (const group_stats& g : algo::group_stats_by(std::forward<B>(b), by)) {
    auto& r = rows[group_label(g, info_b)];
    r.count_b += g.count;
    r.sum_b_ns += g.sum_ns;
    r.bytes_b += g.bytes;
  }
  std::vector<diff_row> out;
  out.reserve(rows.size());
  for (auto& [k, r] : rows) {
    r.key = k;
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const diff_row& x, const diff_row& y) {
    return std::fabs(x.delta_ns()) > std::fabs(y.delta_ns());
  });
  return out;
}

}  // namespace tpuprof
