/// algo::utilization: per-track busy time (union of the track's intervals),
/// idle time and ratio; per core compute (TIU) vs transfer (GDMA + SDMA) busy
/// time, their overlap and ratio. Over the whole run or a window.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <range/v3/functional/bind_back.hpp>
#include <range/v3/view/view.hpp>

#include <tpuprof/algo/detail/intervals.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>
#include <tpuprof/views/time_window.hpp>

namespace tpuprof {

/// Busy and idle time of one queue over the report's window (ns).
struct track_utilization {
  track_key track;
  std::uint64_t events = 0;  ///< events overlapping the window
  double busy_ns = 0;        ///< length of the union of the events' intervals, clipped
  double span_ns = 0;        ///< window length
  double idle_ns() const noexcept { return span_ns - busy_ns; }
  /// busy / span; NaN for an empty window.
  double ratio() const noexcept {
    return span_ns > 0 ? busy_ns / span_ns : std::numeric_limits<double>::quiet_NaN();
  }
};

/// Compute/transfer balance of one core: TIU is compute; the union of its GDMA
/// and SDMA queues is transfer (CDMA is per port, not per core, and left out).
struct core_utilization {
  std::uint8_t device = 0;
  std::uint8_t core = 0;
  double span_ns = 0;
  double compute_ns = 0;   ///< TIU busy time
  double transfer_ns = 0;  ///< time any of GDMA/SDMA is busy
  double overlap_ns = 0;   ///< time compute and transfer are both busy (parallelism)
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  double compute_ratio() const noexcept { return span_ns > 0 ? compute_ns / span_ns : nan; }
  double transfer_ratio() const noexcept { return span_ns > 0 ? transfer_ns / span_ns : nan; }
  /// Share of the window in which compute and transfer run in parallel.
  double overlap_ratio() const noexcept { return span_ns > 0 ? overlap_ns / span_ns : nan; }
  /// compute / transfer busy time; NaN without transfer.
  double compute_transfer_ratio() const noexcept {
    return transfer_ns > 0 ? compute_ns / transfer_ns : nan;
  }
  /// Share of transfer time hidden behind compute; NaN without transfer.
  double hidden_transfer_ratio() const noexcept {
    return transfer_ns > 0 ? overlap_ns / transfer_ns : nan;
  }
  /// Time neither computes nor transfers.
  double idle_ns() const noexcept { return span_ns - (compute_ns + transfer_ns - overlap_ns); }
};

struct utilization_report {
  time_range window;
  std::vector<track_utilization> tracks;  ///< sorted by track_key
  std::vector<core_utilization> cores;    ///< every (device, core) with TIU/GDMA/SDMA events
};

struct utilization_options {
  /// Window to report on; events are clipped to it. Default: the run, from the
  /// earliest begin to the latest end of the input events.
  std::optional<time_range> window;
};

namespace algo {
namespace detail {

struct utilization_base_fn {
  template <event_range R>
  utilization_report operator()(R&& events, utilization_options opt = {}) const {
    track_index index;
    std::vector<std::vector<interval>> per_track;
    std::vector<std::uint64_t> counts;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    const bool windowed = opt.window.has_value();
    const time_range w = windowed ? *opt.window : time_range{};
    const overlaps_window inside{w};
    for (const engine_event& e : events) {
      double b = e.begin_ns, en = e.end_ns;
      if (windowed) {
        if (!inside(e)) continue;
        b = std::max(b, w.begin_ns);
        en = std::min(en, w.end_ns);
      } else {
        lo = std::min(lo, b);
        hi = std::max(hi, en);
      }
      const std::size_t i = index(track_of(e));
      if (i == per_track.size()) {
        per_track.emplace_back();
        counts.push_back(0);
      }
      ++counts[i];
      if (en > b) per_track[i].push_back({b, en});
    }
    utilization_report rep;
    rep.window = windowed ? w : (index.size() ? time_range{lo, hi} : time_range{});
    const double span = rep.window.dur_ns();

    std::vector<std::size_t> order(index.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return index[a] < index[b]; });
    for (std::size_t i : order) {
      track_utilization t;
      t.track = index[i];
      t.events = counts[i];
      t.busy_ns = merge_union(per_track[i]);
      t.span_ns = span;
      rep.tracks.push_back(t);
    }
    // Cores: tracks are sorted, so the engines of one core are adjacent.
    static const std::vector<interval> none;
    for (std::size_t k = 0; k < order.size();) {
      const track_key key = index[order[k]];
      if (key.eng == engine::cdma || !is_hardware(key.eng)) {
        ++k;
        continue;
      }
      const std::vector<interval>* tiu = &none;
      std::vector<interval> transfer;
      std::size_t j = k;
      for (; j < order.size(); ++j) {
        const track_key kj = index[order[j]];
        if (kj.device != key.device || kj.unit != key.unit) break;
        if (kj.eng == engine::tiu) tiu = &per_track[order[j]];
        if (kj.eng == engine::gdma || kj.eng == engine::sdma)
          transfer = union_of(transfer, per_track[order[j]]);
      }
      core_utilization c;
      c.device = key.device;
      c.core = key.unit;
      c.span_ns = span;
      for (const auto& x : *tiu) c.compute_ns += x.e - x.b;
      for (const auto& x : transfer) c.transfer_ns += x.e - x.b;
      c.overlap_ns = intersection_length(*tiu, transfer);
      rep.cores.push_back(c);
      k = j;
    }
    return rep;
  }
};
struct utilization_fn : utilization_base_fn {
  using utilization_base_fn::operator();
  auto operator()(utilization_options opt = {}) const {
    return ranges::make_view_closure(ranges::bind_back(utilization_base_fn{}, std::move(opt)));
  }
};

}  // namespace detail

/// `events | algo::utilization()` or `algo::utilization(events, {window})`:
/// eager; returns a utilization_report. Any input order. Memory: 16 bytes per
/// event while it runs.
inline constexpr detail::utilization_fn utilization{};

}  // namespace algo
}  // namespace tpuprof
