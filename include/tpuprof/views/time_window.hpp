/// views::time_window (select events overlapping a window, unchanged) and
/// views::clip (the same events with their times clipped to the window).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include <range/v3/functional/bind_back.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/view.hpp>

#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// A half-open time window [begin_ns, end_ns) on the decoder's timeline.
struct time_range {
  double begin_ns = 0;
  double end_ns = 0;
  constexpr double dur_ns() const noexcept { return end_ns > begin_ns ? end_ns - begin_ns : 0; }
};

/// True when `e` overlaps [w.begin_ns, w.end_ns): begin < window end and end >
/// window begin. A zero-length event overlaps when its instant lies inside
/// [begin, end). Events that only touch the window's edge do not overlap.
struct overlaps_window {
  time_range w;
  constexpr bool operator()(const engine_event& e) const noexcept {
    if (e.end_ns <= e.begin_ns) return e.begin_ns >= w.begin_ns && e.begin_ns < w.end_ns;
    return e.begin_ns < w.end_ns && e.end_ns > w.begin_ns;
  }
};

/// Clips an (overlapping) event to a window. Times in ns are clipped exactly;
/// cycles and bytes are scaled by the kept fraction of the duration (rounded),
/// so bandwidth_gbps() keeps its value. Events inside the window are unchanged.
struct clip_to_window {
  time_range w;
  engine_event operator()(const engine_event& in) const noexcept {
    engine_event e = in;
    const double b = std::max(e.begin_ns, w.begin_ns);
    const double en = std::min(e.end_ns, w.end_ns);
    const double dur = in.end_ns - in.begin_ns;
    if (!(dur > 0) || (b == in.begin_ns && en == in.end_ns)) return e;
    const double head = (b - in.begin_ns) / dur, keep = (en - b) / dur;
    const auto cyc = static_cast<double>(in.cycles());
    e.begin_ns = b;
    e.end_ns = en;
    e.begin_cycle = in.begin_cycle + static_cast<std::uint64_t>(std::llround(cyc * head));
    e.end_cycle = e.begin_cycle + static_cast<std::uint64_t>(std::llround(cyc * keep));
    e.bytes = static_cast<std::uint64_t>(std::llround(static_cast<double>(in.bytes) * keep));
    return e;
  }
};

namespace views {
namespace detail {

struct time_window_base_fn {
  template <event_range R>
  auto operator()(R&& r, double begin_ns, double end_ns) const {
    return ranges::views::filter(std::forward<R>(r), overlaps_window{{begin_ns, end_ns}});
  }
};
struct time_window_fn : time_window_base_fn {
  using time_window_base_fn::operator();
  constexpr auto operator()(double begin_ns, double end_ns) const {
    return ranges::make_view_closure(ranges::bind_back(time_window_base_fn{}, begin_ns, end_ns));
  }
};

struct clip_base_fn {
  template <event_range R>
  auto operator()(R&& r, double begin_ns, double end_ns) const {
    const time_range w{begin_ns, end_ns};
    return ranges::views::transform(ranges::views::filter(std::forward<R>(r), overlaps_window{w}),
                                    clip_to_window{w});
  }
};
struct clip_fn : clip_base_fn {
  using clip_base_fn::operator();
  constexpr auto operator()(double begin_ns, double end_ns) const {
    return ranges::make_view_closure(ranges::bind_back(clip_base_fn{}, begin_ns, end_ns));
  }
};

}  // namespace detail

/// `events | views::time_window(b, e)`: the events that overlap [b, e), **not
/// clipped** (an event crossing an edge keeps its full times). Lazy; keeps the
/// input order.
inline constexpr detail::time_window_fn time_window{};
/// `events | views::clip(b, e)`: the events that overlap [b, e), clipped to it
/// (see clip_to_window). Yields engine_event by value.
inline constexpr detail::clip_fn clip{};

}  // namespace views
}  // namespace tpuprof
