/// algo::group_stats_by(group_key::op|op_type|function|layer|engine|core): per
/// group, count and duration statistics (sum, mean, min, max, p50, p99), bytes
/// and the mean known uArch rate.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <range/v3/functional/bind_back.hpp>
#include <range/v3/view/view.hpp>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// What group_stats_by groups on.
enum class group_key : std::uint8_t {
  op,        ///< engine_event::op (name id)
  op_type,   ///< engine_event::op_type (name id)
  function,  ///< engine_event::function: the kernel function (name id)
  layer,     ///< engine_event::layer_id (-1 = none)
  engine,    ///< engine kind
  core,      ///< (device, unit); CDMA ports are their own groups (engine = cdma)
};

/// Statistics of one group. Durations in ns.
struct group_stats {
  group_key by = group_key::op;
  /// The group's value: a name id (op, op_type, function), a layer id, an
  /// engine (cast), or unit (core).
  std::int64_t id = 0;
  std::uint8_t device = 0;   ///< for group_key::core
  engine eng = engine::tiu;  ///< for group_key::core: cdma for a CDMA port, else tiu
  std::uint64_t count = 0;
  double sum_ns = 0, mean_ns = 0, min_ns = 0, max_ns = 0;
  double p50_ns = 0, p99_ns = 0;  ///< nearest-rank percentiles (a member of the group)
  std::uint64_t bytes = 0;        ///< sum of known bytes
  /// Mean uArch rate over the group's events that know it; NaN when none does.
  double uarch_rate = std::numeric_limits<double>::quiet_NaN();
  std::uint64_t uarch_known = 0;  ///< events the mean is over
};

/// Nearest-rank percentile p (0 < p <= 100) of `v`, reordering it; 0 if empty.
inline double nearest_rank(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const auto n = static_cast<double>(v.size());
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * n));
  rank = std::clamp<std::size_t>(rank, 1, v.size());
  auto it = v.begin() + static_cast<std::ptrdiff_t>(rank - 1);
  std::nth_element(v.begin(), it, v.end());
  return *it;
}

namespace algo {
namespace detail {

struct group_acc {
  group_stats s;
  double usum = 0;
  std::vector<double> durs;
};

struct group_stats_by_base_fn {
  template <event_range R>
  std::vector<group_stats> operator()(R&& events, group_key by) const {
    std::vector<group_acc> groups;
    std::vector<std::int32_t> dense;  // key -> group index + 1 (0 = none yet), small keys
    std::unordered_map<std::int64_t, std::size_t> sparse;  // layer ids
    if (by != group_key::layer) dense.assign(by == group_key::engine ? 256 : 65536, 0);
    auto key_of = [by](const engine_event& e) -> std::int64_t {
      switch (by) {
        case group_key::op:
          return e.op;
        case group_key::op_type:
          return e.op_type;
        case group_key::function:
          return e.function;
        case group_key::layer:
          return e.layer_id;
        case group_key::engine:
          return static_cast<std::int64_t>(e.engine);
        case group_key::core:
          break;
      }
      // 16 bits: device, unit; CDMA ports get their own groups via bit 16.
      return (e.engine == engine::cdma ? 1 << 16 : 0) | (e.device << 8) | e.unit;
    };
    auto new_group = [&](const engine_event& e, std::int64_t k) {
      group_acc g;
      g.s.by = by;
      if (by == group_key::core) {
        g.s.id = e.unit;
        g.s.device = e.device;
        g.s.eng = e.engine == engine::cdma ? engine::cdma : engine::tiu;
      } else {
        g.s.id = k;
      }
      g.s.min_ns = std::numeric_limits<double>::infinity();
      g.s.max_ns = -std::numeric_limits<double>::infinity();
      groups.push_back(std::move(g));
      return groups.size() - 1;
    };
    for (const engine_event& e : events) {
      const std::int64_t k = key_of(e);
      std::size_t gi;
      if (by == group_key::layer || k > 0xFFFF) {  // layer ids; CDMA ports by core
        auto [it, fresh] = sparse.try_emplace(k, 0);
        if (fresh) it->second = new_group(e, k);
        gi = it->second;
      } else {
        std::int32_t& d = dense[static_cast<std::size_t>(k)];
        if (d == 0) d = static_cast<std::int32_t>(new_group(e, k) + 1);
        gi = static_cast<std::size_t>(d - 1);
      }
      group_acc& g = groups[gi];
      const double dur = e.dur_ns();
      ++g.s.count;
      g.s.sum_ns += dur;
      g.s.min_ns = std::min(g.s.min_ns, dur);
      g.s.max_ns = std::max(g.s.max_ns, dur);
      if (e.has_bytes()) g.s.bytes += e.bytes;
      if (!std::isnan(e.uarch_rate)) {
        ++g.s.uarch_known;
        g.usum += e.uarch_rate;
      }
      g.durs.push_back(dur);
    }
    std::vector<group_stats> out;
    out.reserve(groups.size());
    for (group_acc& g : groups) {
      g.s.mean_ns = g.s.sum_ns / static_cast<double>(g.s.count);
      g.s.p50_ns = nearest_rank(g.durs, 50);
      g.s.p99_ns = nearest_rank(g.durs, 99);
      if (g.s.uarch_known) g.s.uarch_rate = g.usum / static_cast<double>(g.s.uarch_known);
      out.push_back(g.s);
      std::vector<double>().swap(g.durs);
    }
    std::sort(out.begin(), out.end(), [](const group_stats& a, const group_stats& b) {
      if (a.sum_ns != b.sum_ns) return a.sum_ns > b.sum_ns;
      if (a.device != b.device) return a.device < b.device;
      if (a.eng != b.eng) return a.eng < b.eng;
      return a.id < b.id;
    });
    return out;
  }
};
struct group_stats_by_fn : group_stats_by_base_fn {
  using group_stats_by_base_fn::operator();
  auto operator()(group_key by) const {
    return ranges::make_view_closure(ranges::bind_back(group_stats_by_base_fn{}, by));
  }
};

}  // namespace detail

/// `events | algo::group_stats_by(group_key::op)`: eager; one group_stats per
/// distinct key, most total time first. Memory: 8 bytes per event while it
/// runs (for the exact percentiles). Resolve name ids with trace_info::names.
inline constexpr detail::group_stats_by_fn group_stats_by{};

}  // namespace algo
}  // namespace tpuprof
