/// algo::bandwidth_series (eager: bytes per time window -> GB/s series, per
/// track, core, engine kind or device).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <range/v3/functional/bind_back.hpp>
#include <range/v3/view/view.hpp>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/views/bandwidth.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// What a bandwidth series adds up.
enum class bandwidth_group : std::uint8_t {
  track,   ///< one series per (device, unit, engine): a GDMA, SDMA or CDMA queue
  core,    ///< per (device, core): GDMA + SDMA of the core (CDMA ports excluded)
  engine,  ///< per (device, engine kind): all cores or ports summed
  device,  ///< per device: every DMA queue summed
};

/// Bytes moved per time window, from `origin_ns` in steps of `window_ns`.
/// Fields outside the grouping are 0 (unit for engine/device, eng for core:
/// gdma stands for GDMA + SDMA).
struct bandwidth_series {
  track_key key;
  double origin_ns = 0;
  double window_ns = 0;
  std::vector<double> bytes;  ///< bytes per window (a command's bytes spread evenly over it)
  std::size_t size() const noexcept { return bytes.size(); }
  double begin_ns(std::size_t i) const noexcept {
    return origin_ns + static_cast<double>(i) * window_ns;
  }
  /// Mean bandwidth of window i, GB/s.
  double gbps(std::size_t i) const noexcept { return bytes[i] / window_ns; }
  double total_bytes() const noexcept {
    double t = 0;
    for (double b : bytes) t += b;
    return t;
  }
};

struct bandwidth_series_options {
  double window_ns = 1000;
  bandwidth_group group = bandwidth_group::track;
  /// Start of window 0; default: the earliest begin of a DMA event with bytes.
  std::optional<double> origin_ns;
};

namespace algo {
namespace detail {

inline track_key bandwidth_key(const engine_event& e, bandwidth_group g) noexcept {
  switch (g) {
    case bandwidth_group::core:
      return {e.device, e.unit, engine::gdma};
    case bandwidth_group::engine:
      return {e.device, 0, e.engine};
    case bandwidth_group::device:
      return {e.device, 0, engine::gdma};
    case bandwidth_group::track:
      break;
  }
  return track_of(e);
}

struct bandwidth_series_base_fn {
  template <event_range R>
  std::vector<bandwidth_series> operator()(R&& events, bandwidth_series_options opt) const {
    struct item {
      track_key key;
      double b, e, bytes;
    };
    std::vector<item> items;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const engine_event& e : events) {
      if (!moves_known_bytes{}(e)) continue;
      if (opt.group == bandwidth_group::core && e.engine == engine::cdma) continue;
      items.push_back(
          {bandwidth_key(e, opt.group), e.begin_ns, e.end_ns, static_cast<double>(e.bytes)});
      lo = std::min(lo, e.begin_ns);
      hi = std::max(hi, std::max(e.end_ns, e.begin_ns));
    }
    std::vector<bandwidth_series> out;
    if (items.empty() || !(opt.window_ns > 0)) return out;
    const double origin = opt.origin_ns.value_or(lo);
    const double w = opt.window_ns;
    const auto n = static_cast<std::size_t>(std::max(1.0, std::ceil((hi - origin) / w)));
    std::sort(items.begin(), items.end(),
              [](const item& a, const item& b) { return a.key < b.key; });
    for (std::size_t i = 0; i < items.size();) {
      bandwidth_series s;
      s.key = items[i].key;
      s.origin_ns = origin;
      s.window_ns = w;
      s.bytes.assign(n, 0.0);
      for (; i < items.size() && items[i].key == s.key; ++i) {
        const item& it = items[i];
        if (it.e < origin) continue;
        const double dur = it.e - it.b;
        auto idx = [&](double t) {
          const double k = std::floor((t - origin) / w);
          return static_cast<std::size_t>(std::clamp(k, 0.0, static_cast<double>(n - 1)));
        };
        if (!(dur > 0)) {
          if (it.b >= origin) s.bytes[idx(it.b)] += it.bytes;
          continue;
        }
        const double rate = it.bytes / dur;
        for (std::size_t k = idx(std::max(it.b, origin)); k < n; ++k) {
          const double wb = s.begin_ns(k), we = wb + w;
          if (wb >= it.e) break;
          const double ov = std::min(we, it.e) - std::max(wb, it.b);
          if (ov > 0) s.bytes[k] += rate * ov;
        }
      }
      out.push_back(std::move(s));
    }
    return out;
  }
};
struct bandwidth_series_fn : bandwidth_series_base_fn {
  using bandwidth_series_base_fn::operator();
  template <event_range R>
  std::vector<bandwidth_series> operator()(R&& events, double window_ns,
                                           bandwidth_group g = bandwidth_group::track) const {
    return bandwidth_series_base_fn::operator()(std::forward<R>(events),
                                                bandwidth_series_options{window_ns, g, {}});
  }
  auto operator()(bandwidth_series_options opt) const {
    return ranges::make_view_closure(ranges::bind_back(bandwidth_series_base_fn{}, opt));
  }
  auto operator()(double window_ns, bandwidth_group g = bandwidth_group::track) const {
    return (*this)(bandwidth_series_options{window_ns, g, {}});
  }
};

}  // namespace detail

/// `events | algo::bandwidth_series(window_ns, bandwidth_group::core)`: eager;
/// one bandwidth_series per group key (sorted by key), all on the same windows.
/// A command's bytes are spread evenly over its duration (a zero-length
/// command counts whole in the window of its begin). Events before the origin
/// are dropped. Memory: 32 bytes per DMA event while it runs.
inline constexpr detail::bandwidth_series_fn bandwidth_series{};

}  // namespace algo
}  // namespace tpuprof
