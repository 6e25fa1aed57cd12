/// The one track layout every sink and table uses: the time origin, the
/// display order of tracks, the clock of a track, lanes for overlapping
/// events, busy time, and the default idle-gap threshold. Computed here once
/// so that all outputs show the same times in the same order (docs/views.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// Idle gaps shorter than this are not reported by default (views::idle_gaps,
/// the HTML report, `tpuprof gaps`): below 1 us, gaps are the normal issue
/// latency between back-to-back commands, not stalls.
inline constexpr double default_min_gap_ns = 1000;

/// Clock assumed for a queue whose clock nobody knows.
inline constexpr double default_clock_mhz = 1000;

/// Position of an engine's row inside its core (or CDMA port): derived rows
/// first (kernel function, layer, subnet), then TIU, GDMA, SDMA, CDMA, MCU.
constexpr int engine_rank(engine e) noexcept {
  switch (e) {
    case engine::kernel_function:
      return 0;
    case engine::layer:
      return 1;
    case engine::subnet:
      return 2;
    case engine::tiu:
      return 3;
    case engine::gdma:
      return 4;
    case engine::sdma:
      return 5;
    case engine::cdma:
      return 6;
    case engine::mcu:
      return 7;
  }
  return 8;
}

/// Display order of tracks: device, then cores before CDMA ports, then unit,
/// then engine_rank. (track_less in trace_info.hpp is the decoders' grouping
/// order; it differs only inside a core, where it uses the engine value.)
constexpr bool display_less(track_key a, track_key b) noexcept {
  if (a.device != b.device) return a.device < b.device;
  const bool ac = a.eng == engine::cdma, bc = b.eng == engine::cdma;
  if (ac != bc) return bc;
  if (a.unit != b.unit) return a.unit < b.unit;
  return engine_rank(a.eng) < engine_rank(b.eng);
}

/// Clock of one queue: its track's freq_mhz, else the TIU clock of the same
/// core, else default_clock_mhz.
inline double track_clock_mhz(const trace_info& info, track_key k) noexcept {
  if (const track* t = info.find_track(k.device, k.unit, k.eng); t && t->freq_mhz > 0)
    return t->freq_mhz;
  if (const track* tiu = info.find_track(k.device, k.unit, engine::tiu); tiu && tiu->freq_mhz > 0)
    return tiu->freq_mhz;
  return default_clock_mhz;
}

/// Clock of an engine class for whole-trace numbers (summary cycles -> ns):
/// `set` when > 0, else the first TIU (for `tiu`) or GDMA/SDMA track's clock
/// in `info`, else default_clock_mhz. `info` may be null.
inline double engine_clock_mhz(const trace_info* info, bool tiu, double set = 0) noexcept {
  if (set > 0) return set;
  if (info)
    for (const track& t : info->tracks) {
      const bool match =
          tiu ? t.eng == engine::tiu : (t.eng == engine::gdma || t.eng == engine::sdma);
      if (match && t.freq_mhz > 0) return t.freq_mhz;
    }
  return default_clock_mhz;
}

/// The time origin of every output, in ns of the decoders' common timeline:
/// that timeline's zero (the start of the profiled run: on BM1684X the MCU
/// and subnet rows start there), moved back to the first hardware event when
/// one starts before it, so no output time is negative.
inline double time_origin_ns(const trace_info& info) noexcept {
  if (!(info.end_ns > info.begin_ns)) return 0;
  return std::min(0.0, std::floor(info.begin_ns));
}

/// What every sink reads before it writes: the origin, the span of the
/// hardware events and the tracks in display order. One per decoded trace.
struct track_layout {
  double origin_ns = 0;             ///< time_origin_ns(info)
  double begin_ns = 0, end_ns = 0;  ///< span of the hardware events (info)
  std::vector<track_key> tracks;    ///< info's tracks in display_less order
  const trace_info* info = nullptr;

  explicit track_layout(const trace_info& i)
      : origin_ns(time_origin_ns(i)), begin_ns(i.begin_ns), end_ns(i.end_ns), info(&i) {
    for (const track& t : i.tracks) tracks.push_back({t.device, t.unit, t.eng});
    std::stable_sort(tracks.begin(), tracks.end(), display_less);
  }

  /// Integer ns on the common timeline (NaN as 0): the sinks' rounding.
  static std::int64_t round_ns(double ns) noexcept {
    return ns == ns ? static_cast<std::int64_t>(std::llround(ns)) : 0;
  }
  /// Integer origin (floor of origin_ns).
  std::int64_t origin() const noexcept { return static_cast<std::int64_t>(origin_ns); }
  /// `ns` relative to the origin, as rounded integer ns.
  std::int64_t rel_ns(double ns) const noexcept { return round_ns(ns) - origin(); }
  /// Start of the hardware span rounded down (first counter window), when
  /// the span is not empty; else 0.
  std::int64_t span_begin() const noexcept {
    return end_ns > begin_ns ? static_cast<std::int64_t>(std::floor(begin_ns)) : 0;
  }
  double clock_mhz(track_key k) const noexcept {
    return info ? track_clock_mhz(*info, k) : default_clock_mhz;
  }
};

/// Lanes for overlapping events of one track: each event goes to the first
/// lane that is free at its begin; with `nesting` (derived rows: layers,
/// functions) an event that ends inside the open one nests in its lane.
/// Events come in begin order (the decoder contract); out-of-order events
/// still get a lane that is free at their begin, never a wrong nesting.
class lane_packer {
 public:
  explicit lane_packer(bool nesting = false) : nesting_(nesting) {}

  /// Closes every open event that ends at or before `t`, in end order,
  /// calling `closed(end, lane)` for each.
  template <class F>
  void close_until(std::int64_t t, F&& closed) {
    while (!heap_.empty() && heap_.front().end <= t) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>{});
      const pending p = heap_.back();
      heap_.pop_back();
      lanes_[p.lane].pop_back();
      closed(p.end, p.lane);
    }
  }
  void close_until(std::int64_t t) {
    close_until(t, [](std::int64_t, std::uint32_t) {});
  }
  /// Closes everything still open (at the end of the trace).
  template <class F>
  void close_all(F&& closed) {
    close_until(std::numeric_limits<std::int64_t>::max(), closed);
  }

  /// The lane of an event [b, e) after close_until(b); opens it. Sets
  /// `fresh` when the lane is new (its row must be declared).
  std::uint32_t open(std::int64_t e, bool& fresh) {
    std::uint32_t lane = 0;
    for (; lane < lanes_.size(); ++lane) {
      const auto& ends = lanes_[lane];
      if (ends.empty() || (nesting_ && ends.back() >= e)) break;
    }
    fresh = lane == lanes_.size();
    if (fresh) lanes_.emplace_back();
    lanes_[lane].push_back(e);
    heap_.push_back({e, lane});
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>{});
    return lane;
  }
  /// close_until(b), then open(e).
  std::uint32_t place(std::int64_t b, std::int64_t e, bool& fresh) {
    close_until(b);
    return open(e, fresh);
  }
  std::size_t lanes() const noexcept { return lanes_.size(); }
  /// Declares lane 0 before any event (sinks that always show one row).
  void reserve_first() {
    if (lanes_.empty()) lanes_.emplace_back();
  }

 private:
  struct pending {
    std::int64_t end;
    std::uint32_t lane;
    friend bool operator>(const pending& a, const pending& b) noexcept { return a.end > b.end; }
  };
  bool nesting_;
  std::vector<std::vector<std::int64_t>> lanes_;  // open ends per lane (a stack when nesting)
  std::vector<pending> heap_;                     // min-heap of open ends
};

/// Busy time of one track, streaming: the length of the union of its events'
/// intervals when they come in begin order (the decoder contract), plus the
/// first begin, last end and count.
struct busy_accumulator {
  std::uint64_t count = 0;
  double first = std::numeric_limits<double>::infinity();
  double last = -std::numeric_limits<double>::infinity();
  double busy = 0;
  double covered = -std::numeric_limits<double>::infinity();

  void add(double b, double e) noexcept {
    e = std::max(b, e);
    ++count;
    first = std::min(first, b);
    last = std::max(last, e);
    const double from = std::max(b, covered);
    if (e > from) busy += e - from;
    covered = std::max(covered, e);
  }
};

}  // namespace tpuprof
