/// algo::top_n(n, rank_by::duration|bytes|bandwidth): the n largest events.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <range/v3/functional/bind_back.hpp>
#include <range/v3/view/view.hpp>

#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// What top_n ranks by.
enum class rank_by : std::uint8_t {
  duration,   ///< end_ns - begin_ns
  bytes,      ///< bytes moved; events without known bytes are skipped
  bandwidth,  ///< bandwidth_gbps(); events where it is unknown (NaN) are skipped
};

/// The value an event is ranked by; NaN when the event does not take part.
inline double rank_value(const engine_event& e, rank_by by) noexcept {
  switch (by) {
    case rank_by::bytes:
      return e.has_bytes() ? static_cast<double>(e.bytes) : std::nan("");
    case rank_by::bandwidth:
      return e.bandwidth_gbps();
    case rank_by::duration:
      break;
  }
  return e.dur_ns();
}

namespace algo {
namespace detail {

struct top_n_base_fn {
  template <event_range R>
  std::vector<engine_event> operator()(R&& events, std::size_t n,
                                       rank_by by = rank_by::duration) const {
    struct entry {
      double key;
      std::uint64_t seq;
      engine_event e;
    };
    // Heap whose top is the weakest kept entry: smaller key, or later input.
    auto weaker = [](const entry& a, const entry& b) {
      return a.key != b.key ? a.key > b.key : a.seq < b.seq;
    };
    std::vector<entry> heap;
    std::vector<engine_event> out;
    if (n == 0) return out;
    heap.reserve(std::min<std::size_t>(n, 1 << 16));
    std::uint64_t seq = 0;
    for (const engine_event& e : events) {
      const double k = rank_value(e, by);
      const std::uint64_t s = seq++;
      if (std::isnan(k)) continue;
      if (heap.size() < n) {
        heap.push_back({k, s, e});
        std::push_heap(heap.begin(), heap.end(), weaker);
      } else if (k > heap.front().key) {
        std::pop_heap(heap.begin(), heap.end(), weaker);
        heap.back() = {k, s, e};
        std::push_heap(heap.begin(), heap.end(), weaker);
      }
    }
    std::sort_heap(heap.begin(), heap.end(), weaker);
    out.reserve(heap.size());
    for (auto& x : heap) out.push_back(x.e);
    return out;
  }
};
struct top_n_fn : top_n_base_fn {
  using top_n_base_fn::operator();
  auto operator()(std::size_t n, rank_by by = rank_by::duration) const {
    return ranges::make_view_closure(ranges::bind_back(top_n_base_fn{}, n, by));
  }
};

}  // namespace detail

/// `events | algo::top_n(20, rank_by::bytes)`: eager; a vector of at most n
/// event copies, largest first; ties keep input order. O(N log n) time, O(n)
/// memory, one pass over any input.
inline constexpr detail::top_n_fn top_n{};

}  // namespace algo
}  // namespace tpuprof
