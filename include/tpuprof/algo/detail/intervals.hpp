/// Interval helpers shared by the aggregating views: per-track collection,
/// union (merge of overlaps), intersection length.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::algo::detail {

struct interval {
  double b;
  double e;
};

/// Sorts by begin (if needed) and merges overlapping or touching intervals in
/// place; returns the total covered length.
inline double merge_union(std::vector<interval>& v) {
  if (v.empty()) return 0;
  auto by_begin = [](const interval& x, const interval& y) { return x.b < y.b; };
  if (!std::is_sorted(v.begin(), v.end(), by_begin)) std::sort(v.begin(), v.end(), by_begin);
  std::size_t out = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (v[i].b <= v[out].e) {
      v[out].e = std::max(v[out].e, v[i].e);
    } else {
      v[++out] = v[i];
    }
  }
  v.resize(out + 1);
  double total = 0;
  for (const auto& x : v) total += x.e - x.b;
  return total;
}

/// Union of two merged (sorted, disjoint) lists.
inline std::vector<interval> union_of(const std::vector<interval>& a,
                                      const std::vector<interval>& b) {
  std::vector<interval> out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out),
             [](const interval& x, const interval& y) { return x.b < y.b; });
  merge_union(out);
  return out;
}

/// Length of the intersection of two merged lists.
inline double intersection_length(const std::vector<interval>& a, const std::vector<interval>& b) {
  double total = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const double lo = std::max(a[i].b, b[j].b), hi = std::min(a[i].e, b[j].e);
    if (hi > lo) total += hi - lo;
    if (a[i].e < b[j].e) {
      ++i;
    } else {
      ++j;
    }
  }
  return total;
}

/// Small map from track to a dense index, in first-seen order; the last hit is
/// cached because decoder output is grouped by track.
class track_index {
 public:
  std::size_t operator()(track_key k) {
    const auto p = k.packed();
    if (last_ < keys_.size() && keys_[last_] == p) return last_;
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == p) return last_ = i;
    keys_.push_back(p);
    tracks_.push_back(k);
    return last_ = keys_.size() - 1;
  }
  std::size_t size() const noexcept { return keys_.size(); }
  const track_key& operator[](std::size_t i) const noexcept { return tracks_[i]; }

 private:
  std::vector<std::uint32_t> keys_;
  std::vector<track_key> tracks_;
  std::size_t last_ = std::numeric_limits<std::size_t>::max();
};

}  // namespace tpuprof::algo::detail
