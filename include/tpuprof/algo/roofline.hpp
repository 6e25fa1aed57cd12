/// algo::roofline: per layer, work (alg ops, where the caller has them from
/// the register decode), traffic by DMA path (DDR, L2, local), arithmetic
/// intensity, achieved against attainable ops/s under the chip's ceilings, and
/// a bound class from where the layer's time went. `unknown` where the dump
/// lacks the data (no dependency data: SG2260 modes 0/1), never guessed.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <string_view>
#include <vector>

#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/chip_ceilings.hpp>
#include <tpuprof/engine.hpp>

namespace tpuprof::algo {

enum class bound_class : std::uint8_t { compute = 0, bandwidth, latency, dependency, unknown };

constexpr std::string_view name(bound_class b) noexcept {
  constexpr std::array<std::string_view, 5> n{"compute", "bandwidth", "latency", "dependency",
                                              "unknown"};
  return n[static_cast<std::size_t>(b)];
}

inline constexpr double roofline_nan = std::numeric_limits<double>::quiet_NaN();

/// One layer on the roofline.
struct layer_roofline {
  std::int32_t layer_id = -1;
  double begin_ns = 0, end_ns = 0;  ///< first begin, last end of its commands
  double tiu_ns = 0, dma_ns = 0;    ///< sums of command durations
  double wait_ns = 0;               ///< TIU idle before its commands: dependency / sync
  double dispatch_ns = 0;           ///< idle before its commands: dispatch
  std::uint64_t bytes = 0, ddr_bytes = 0, l2_bytes = 0, local_bytes = 0;
  double alg_ops = roofline_nan;    ///< NaN: the trace has no op counts
  double intensity = roofline_nan;  ///< alg ops / byte
  double achieved_ops_per_s = roofline_nan, attainable_ops_per_s = roofline_nan;
  bound_class bound = bound_class::unknown;
  double window_ns() const noexcept { return end_ns - begin_ns; }
};

namespace detail {
inline bool touches_l2(direction d) noexcept {
  return d == direction::l2m || d == direction::s2m || d == direction::m2s || d == direction::m2l ||
         d == direction::m2m || d == direction::c2m;
}
}  // namespace detail

/// Roofline of every layer of `g` (layer_id >= 0), in layer order. `alg_ops`:
/// per node (parallel to g.events), NaN = unknown; empty = none known. `peak_ops`:
/// per node, the peak ops/s of its op class and data type (the chip's traits), NaN =
/// unknown; empty = `ceil.peak_int8_ops` for every node. A layer's peak is its ops over
/// their time at peak (sum of ops_i / peak_i), so a layer of mixed classes gets the
/// harmonic mean; unknown (attainable NaN) when one of its counted nodes has no peak.
inline std::vector<layer_roofline> roofline(const dependency_graph& g,
                                            const std::vector<queue_idle>& idle,
                                            const chip_ceilings& ceil,
                                            std::span<const double> alg_ops = {},
                                            std::span<const double> peak_ops = {}) {
  std::map<std::int32_t, layer_roofline> by;
  std::map<std::int32_t, double> at_peak_s;  // layer -> sum of ops / peak (NaN: a peak unknown)
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    const engine_event& e = g.events[n];
    if (e.layer_id < 0 || !is_hardware(e.engine)) continue;
    auto [it, fresh] = by.try_emplace(e.layer_id);
    layer_roofline& l = it->second;
    if (fresh) {
      l.layer_id = e.layer_id;
      l.begin_ns = e.begin_ns;
      l.end_ns = e.end_ns;
    }
    l.begin_ns = std::min(l.begin_ns, e.begin_ns);
    l.end_ns = std::max(l.end_ns, e.end_ns);
    if (e.engine == engine::tiu) {
      l.tiu_ns += e.dur_ns();
      if (n < alg_ops.size() && std::isfinite(alg_ops[n])) {
        l.alg_ops = (std::isfinite(l.alg_ops) ? l.alg_ops : 0) + alg_ops[n];
        const double p = peak_ops.empty()      ? ceil.peak_int8_ops
                         : n < peak_ops.size() ? peak_ops[n]
                                               : roofline_nan;
        at_peak_s[e.layer_id] += p > 0 ? alg_ops[n] / p : roofline_nan;
      }
    } else {
      l.dma_ns += e.dur_ns();
      if (e.has_bytes()) {
        l.bytes += e.bytes;
        const direction d = e.dir();
        (detail::touches_l2(d) ? l.l2_bytes
         : d == direction::l2l ? l.local_bytes
                               : l.ddr_bytes) += e.bytes;
      }
    }
  }
  for (const queue_idle& q : idle)
    for (const idle_interval& iv : q.intervals) {
      if (iv.next == no_node) continue;
      auto it = by.find(g.events[iv.next].layer_id);
      if (it == by.end()) continue;
      if (iv.cause == idle_cause::dispatch) it->second.dispatch_ns += iv.dur_ns();
      if (q.track.eng == engine::tiu &&
          (iv.cause == idle_cause::dependency || iv.cause == idle_cause::sync))
        it->second.wait_ns += iv.dur_ns();
    }
  std::vector<layer_roofline> out;
  for (auto& [id, l] : by) {
    const double w = l.window_ns();
    if (std::isfinite(l.alg_ops)) {
      if (w > 0) l.achieved_ops_per_s = l.alg_ops / (w * 1e-9);
      if (l.bytes > 0) l.intensity = l.alg_ops / static_cast<double>(l.bytes);
      const double bw = l.l2_bytes > l.ddr_bytes ? ceil.l2_bytes_per_s : ceil.ddr_bytes_per_s;
      const double t = at_peak_s[id];
      const double peak = t > 0 ? l.alg_ops / t : roofline_nan;  // NaN when a peak is unknown
      if (peak > 0 && bw > 0 && std::isfinite(l.intensity))
        l.attainable_ops_per_s = std::min(peak, l.intensity * bw);
    }
    if (!g.has_data() || !(w > 0))
      l.bound = bound_class::unknown;
    else if (l.tiu_ns >= 0.6 * w)
      l.bound = bound_class::compute;
    else if (l.dma_ns >= 0.6 * w)
      l.bound = bound_class::bandwidth;
    else if (l.wait_ns >= l.dispatch_ns)
      l.bound = bound_class::dependency;
    else
      l.bound = bound_class::latency;
    out.push_back(l);
  }
  return out;
}

}  // namespace tpuprof::algo
