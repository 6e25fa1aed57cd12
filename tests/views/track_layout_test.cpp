// track_layout: the one time origin, display order, clocks, lanes and busy
// time every sink uses; hand-computed cases and the real BM1684X capture.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/idle_gaps.hpp>
#include <tpuprof/views/track_layout.hpp>

#include "views/view_test_util.hpp"

using namespace tpuprof;
using test::ev;

TEST_CASE("track_layout: the origin is the timeline's zero unless an event starts before it") {
  trace_info i;
  i.begin_ns = 10960;
  i.end_ns = 224479;
  CHECK(time_origin_ns(i) == 0);
  CHECK(track_layout(i).rel_ns(52449.4) == 52449);
  i.begin_ns = -12.5;  // an event before zero: the origin moves back to it
  CHECK(time_origin_ns(i) == -13);
  CHECK(track_layout(i).rel_ns(0) == 13);
  CHECK(track_layout(i).span_begin() == -13);
  i.begin_ns = i.end_ns = 0;  // empty trace
  CHECK(time_origin_ns(i) == 0);
}

TEST_CASE("track_layout: display order puts derived rows first and CDMA ports last") {
  trace_info i;
  auto add = [&](unsigned unit, engine e) {
    track t;
    t.unit = static_cast<std::uint8_t>(unit);
    t.eng = e;
    i.tracks.push_back(t);
  };
  add(0, engine::tiu);
  add(0, engine::gdma);
  add(0, engine::cdma);
  add(0, engine::mcu);
  add(0, engine::layer);
  add(1, engine::tiu);
  add(0, engine::subnet);
  const track_layout l(i);
  const std::vector<track_key> want = {
      {0, 0, engine::layer}, {0, 0, engine::subnet}, {0, 0, engine::tiu}, {0, 0, engine::gdma},
      {0, 0, engine::mcu},   {0, 1, engine::tiu},    {0, 0, engine::cdma}};
  CHECK(l.tracks == want);
  CHECK(engine_rank(engine::cdma) < engine_rank(engine::mcu));  // Perfetto's order kept
}

TEST_CASE("track_layout: a queue's clock falls back to its core's TIU clock, then 1000 MHz") {
  trace_info i;
  track tiu;
  tiu.eng = engine::tiu;
  tiu.freq_mhz = 1000;
  track gdma;
  gdma.eng = engine::gdma;
  gdma.freq_mhz = 750;
  track tiu1;
  tiu1.unit = 1;
  tiu1.eng = engine::tiu;
  tiu1.freq_mhz = 900;
  i.tracks = {tiu, gdma, tiu1};
  CHECK(track_clock_mhz(i, {0, 0, engine::gdma}) == 750);
  CHECK(track_clock_mhz(i, {0, 1, engine::layer}) == 900);
  CHECK(track_clock_mhz(i, {0, 2, engine::gdma}) == default_clock_mhz);
  CHECK(engine_clock_mhz(&i, false) == 750);
  CHECK(engine_clock_mhz(&i, true) == 1000);
  CHECK(engine_clock_mhz(&i, true, 500) == 500);
  CHECK(engine_clock_mhz(nullptr, false) == default_clock_mhz);
}

TEST_CASE("lane_packer: overlaps go to the first free lane, ends close in end order") {
  lane_packer p;
  bool fresh = false;
  CHECK(p.place(0, 10, fresh) == 0);
  CHECK(fresh);
  CHECK(p.place(5, 20, fresh) == 1);  // overlaps the first
  CHECK(fresh);
  CHECK(p.place(8, 9, fresh) == 2);
  std::vector<std::pair<std::int64_t, std::uint32_t>> closed;
  p.close_until(10, [&](std::int64_t e, std::uint32_t l) { closed.push_back({e, l}); });
  CHECK(closed == std::vector<std::pair<std::int64_t, std::uint32_t>>{{9, 2}, {10, 0}});
  CHECK(p.place(10, 12, fresh) == 0);  // touching is not overlapping
  CHECK_FALSE(fresh);
  CHECK(p.lanes() == 3);
}

TEST_CASE("lane_packer: nesting rows keep a child in its parent's lane") {
  lane_packer p(true);
  bool fresh = false;
  CHECK(p.place(0, 100, fresh) == 0);
  CHECK(p.place(10, 50, fresh) == 0);   // inside: nests
  CHECK(p.place(40, 120, fresh) == 1);  // crosses the parent's end: new lane
  CHECK(p.place(60, 70, fresh) == 0);   // the child closed at 50; still inside the parent
}

TEST_CASE("busy_accumulator: union of begin-ordered intervals") {
  busy_accumulator a;
  a.add(0, 10);
  a.add(5, 15);  // overlap counts once
  a.add(20, 25);
  a.add(21, 22);  // inside
  a.add(30, 29);  // negative duration counts as empty
  CHECK(a.count == 5);
  CHECK(a.busy == 20);
  CHECK(a.first == 0);
  CHECK(a.last == 30);
}

TEST_CASE("idle_gaps defaults to default_min_gap_ns") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10), ev(engine::tiu, 0, 20, 30),
                              ev(engine::tiu, 0, 1030, 1040)};
  auto count = [](auto&& gaps) {
    std::size_t n = 0;
    for (const idle_gap& g : gaps) n += g.dur_ns() > 0;
    return n;
  };
  CHECK(default_min_gap_ns == 1000);
  CHECK(count(v | views::idle_gaps()) == 1);
  CHECK(count(v | views::idle_gaps(0)) == 2);
}
