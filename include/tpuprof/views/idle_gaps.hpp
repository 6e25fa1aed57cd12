/// views::idle_gaps(min_gap_ns): the gaps where an engine queue waits, each
/// with the event before and the event after it. Lazy, one pass, O(1) memory.
#pragma once

#include <cassert>
#include <cstdint>
#include <ranges>
#include <utility>
#include <vector>

#include <range/v3/functional/bind_back.hpp>
#include <range/v3/range/access.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/view/all.hpp>
#include <range/v3/view/facade.hpp>
#include <range/v3/view/view.hpp>

#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof {

/// An idle interval of one queue: from the end of `prev` (the latest end so
/// far on the track) to the begin of `next`. Holds copies of both events, so
/// it stays valid after the input is gone.
struct idle_gap {
  track_key track;
  double begin_ns = 0;  ///< == prev.end_ns
  double end_ns = 0;    ///< == next.begin_ns
  engine_event prev;
  engine_event next;
  constexpr double dur_ns() const noexcept { return end_ns - begin_ns; }
};

/// The view behind views::idle_gaps. Precondition (the decoder contract): the
/// input is grouped by track and time ordered within a track (see
/// is_track_ordered; sorted_by_track establishes it). Checked by assert in
/// debug builds. A forward range when the input is one, else an input range.
template <class Rng>
class idle_gaps_view : public ranges::view_facade<idle_gaps_view<Rng>, ranges::unknown> {
  friend ranges::range_access;
  using iter_t = ranges::iterator_t<Rng>;
  using sent_t = ranges::sentinel_t<Rng>;

  Rng base_;
  double min_gap_ns_ = 0;

  class cursor {
    iter_t it_{};
    sent_t end_{};
    double min_gap_ns_ = 0;
    engine_event last_{};  // event with the latest end on the current track
    idle_gap cur_{};
    bool have_last_ = false;
    bool done_ = false;
#ifndef NDEBUG
    double last_begin_ = 0;
    std::vector<std::uint32_t> seen_;  // tracks already finished (debug check only)
#endif

    void advance() {
      while (it_ != end_) {
        const engine_event& e = *it_;
        const bool same = have_last_ && track_of(e) == track_of(last_);
#ifndef NDEBUG
        if (!same) {
          const auto k = track_of(e).packed();
          for ([[maybe_unused]] auto s : seen_)
            assert(s != k && "idle_gaps: input not grouped by track (use sorted_by_track)");
          if (have_last_) seen_.push_back(track_of(last_).packed());
        } else {
          assert(e.begin_ns >= last_begin_ &&
                 "idle_gaps: input not time ordered within a track (use sorted_by_track)");
        }
        last_begin_ = e.begin_ns;
#endif
        if (!same) {
          last_ = e;
          have_last_ = true;
          ++it_;
          continue;
        }
        const double gap = e.begin_ns - last_.end_ns;
        if (gap > 0 && gap >= min_gap_ns_) {
          cur_.track = track_of(e);
          cur_.begin_ns = last_.end_ns;
          cur_.end_ns = e.begin_ns;
          cur_.prev = last_;
          cur_.next = e;
          last_ = e;
          ++it_;
          return;
        }
        if (e.end_ns > last_.end_ns) last_ = e;
        ++it_;
      }
      done_ = true;
    }

   public:
    cursor() = default;
    cursor(iter_t it, sent_t end, double min_gap_ns)
        : it_(std::move(it)), end_(std::move(end)), min_gap_ns_(min_gap_ns) {
      advance();
    }
    idle_gap read() const { return cur_; }
    void next() { advance(); }
    bool equal(ranges::default_sentinel_t) const { return done_; }
    bool equal(const cursor& o) const
      requires ranges::forward_range<Rng>
    {
      return done_ == o.done_ && (done_ || it_ == o.it_);
    }
  };

  cursor begin_cursor() { return cursor{ranges::begin(base_), ranges::end(base_), min_gap_ns_}; }

 public:
  idle_gaps_view() = default;
  idle_gaps_view(Rng base, double min_gap_ns) : base_(std::move(base)), min_gap_ns_(min_gap_ns) {}
  Rng base() const { return base_; }
};

namespace views {
namespace detail {

struct idle_gaps_base_fn {
  template <event_range R>
  auto operator()(R&& r, double min_gap_ns) const {
    using V = ranges::views::all_t<R>;
    return idle_gaps_view<V>{ranges::views::all(std::forward<R>(r)), min_gap_ns};
  }
};
struct idle_gaps_fn : idle_gaps_base_fn {
  using idle_gaps_base_fn::operator();
  constexpr auto operator()(double min_gap_ns = default_min_gap_ns) const {
    return ranges::make_view_closure(ranges::bind_back(idle_gaps_base_fn{}, min_gap_ns));
  }
};

}  // namespace detail

/// `events | views::idle_gaps(min_gap_ns)`: for each track, every interval
/// longer than zero and at least `min_gap_ns` (default_min_gap_ns, 1 us,
/// when not given) between the latest end so far
/// and the next begin. Overlapping or touching events leave no gap. No gap
/// before a track's first or after its last event. Yields idle_gap by value.
/// Precondition: see idle_gaps_view.
inline constexpr detail::idle_gaps_fn idle_gaps{};

}  // namespace views
}  // namespace tpuprof
