/// algo::gap_stats: idle gaps per track (count, total, longest) and the
/// longest gaps of the whole trace, from views::idle_gaps in one pass.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>
#include <tpuprof/views/idle_gaps.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof {

/// Idle time of one track.
struct track_gaps {
  track_key track;
  std::uint64_t count = 0;
  double total_ns = 0;
  double longest_ns = 0;
};

struct gap_report {
  double min_gap_ns = default_min_gap_ns;
  std::vector<track_gaps> tracks;  ///< tracks with gaps, in display order (display_less)
  std::vector<idle_gap> longest;   ///< the longest gaps, longest first
};

namespace algo {

/// Gaps of `events` (decoder order: see views::idle_gaps) of at least
/// `min_gap_ns`, summed per track, and the `keep` longest of them. Memory:
/// one entry per track plus `keep` gaps.
template <event_range R>
gap_report gap_stats(R&& events, double min_gap_ns = default_min_gap_ns, std::size_t keep = 50) {
  struct item {
    double dur;
    idle_gap g;
  };
  /// "a ranks before b": longer first; ties (common: equal command timings)
  /// by earlier begin, then display order, so the kept set is deterministic.
  auto ranks_before = [](const item& a, const item& b) {
    if (a.dur != b.dur) return a.dur > b.dur;
    if (a.g.begin_ns != b.g.begin_ns) return a.g.begin_ns < b.g.begin_ns;
    return display_less(a.g.track, b.g.track);
  };
  auto shorter = ranks_before;  // as a heap order: the worst-ranked kept gap on top
  std::vector<item> heap;
  struct by_display {
    bool operator()(track_key a, track_key b) const noexcept { return display_less(a, b); }
  };
  std::map<track_key, track_gaps, by_display> per;
  for (const idle_gap& g : views::idle_gaps(events, min_gap_ns)) {
    track_gaps& t = per[g.track];
    t.track = g.track;
    ++t.count;
    t.total_ns += g.dur_ns();
    t.longest_ns = std::max(t.longest_ns, g.dur_ns());
    if (keep == 0) continue;
    if (heap.size() < keep) {
      heap.push_back({g.dur_ns(), g});
      std::push_heap(heap.begin(), heap.end(), shorter);
    } else if (ranks_before(item{g.dur_ns(), g}, heap.front())) {
      std::pop_heap(heap.begin(), heap.end(), shorter);
      heap.back() = {g.dur_ns(), g};
      std::push_heap(heap.begin(), heap.end(), shorter);
    }
  }
  std::sort_heap(heap.begin(), heap.end(), shorter);
  gap_report r;
  r.min_gap_ns = min_gap_ns;
  for (const auto& [k, t] : per) r.tracks.push_back(t);
  for (const item& it : heap) r.longest.push_back(it.g);
  return r;
}

}  // namespace algo
}  // namespace tpuprof
