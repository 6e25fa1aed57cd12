/// The decoder's ordering contract for event ranges (grouped by track, time
/// ordered within a track), a check for it, and a sort that establishes it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// Strict weak order of the contract: track (device, unit, engine), then
/// begin_ns, then end_ns.
struct track_time_less {
  bool operator()(const engine_event& a, const engine_event& b) const noexcept {
    const auto ka = track_of(a).packed(), kb = track_of(b).packed();
    if (ka != kb) return ka < kb;
    if (a.begin_ns != b.begin_ns) return a.begin_ns < b.begin_ns;
    return a.end_ns < b.end_ns;
  }
};

/// True when `events` meets the decoder contract: each track's events are
/// contiguous (a track never reappears after another one started) and their
/// begin_ns never decreases. Tracks may come in any order. O(n) time, memory
/// O(number of tracks).
template <event_range R>
bool is_track_ordered(R&& events) {
  std::vector<std::uint32_t> seen;
  bool have = false;
  std::uint32_t cur = 0;
  double last_begin = 0;
  for (const engine_event& e : events) {
    const auto k = track_of(e).packed();
    if (!have || k != cur) {
      if (std::find(seen.begin(), seen.end(), k) != seen.end()) return false;
      seen.push_back(k);
      cur = k;
      have = true;
    } else if (e.begin_ns < last_begin) {
      return false;
    }
    last_begin = e.begin_ns;
  }
  return true;
}

/// Copies `events` into a vector ordered by track_time_less, which meets the
/// contract. Use it before idle_gaps on input of unknown order.
template <event_range R>
std::vector<engine_event> sorted_by_track(R&& events) {
  std::vector<engine_event> out;
  if constexpr (std::ranges::sized_range<R>) out.reserve(std::ranges::size(events));
  for (const engine_event& e : events) out.push_back(e);
  if (!std::is_sorted(out.begin(), out.end(), track_time_less{}))
    std::stable_sort(out.begin(), out.end(), track_time_less{});
  return out;
}

}  // namespace tpuprof
