#include <ranges>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/views/idle_gaps.hpp>
#include <tpuprof/views/track_order.hpp>

#include "views/view_test_util.hpp"

using namespace tpuprof;
using test::ev;

namespace {
template <class R>
std::vector<idle_gap> gaps_of(R&& r) {
  std::vector<idle_gap> out;
  for (const idle_gap& g : r) out.push_back(g);
  return out;
}
}  // namespace

static_assert(
    std::ranges::forward_range<idle_gaps_view<ranges::ref_view<std::vector<engine_event>>>>);

TEST_CASE("idle_gaps finds waits between events with their neighbours") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10), ev(engine::tiu, 0, 15, 20),
                              ev(engine::tiu, 0, 20, 30),  // touching: no gap
                              ev(engine::tiu, 0, 100, 110)};
  v[1].cmd_id = 2;
  v[3].cmd_id = 4;
  auto g = gaps_of(v | views::idle_gaps(0));
  REQUIRE(g.size() == 2);
  CHECK(g[0].begin_ns == 10);
  CHECK(g[0].end_ns == 15);
  CHECK(g[0].dur_ns() == 5);
  CHECK(g[0].next.cmd_id == 2);
  CHECK(g[1].begin_ns == 30);
  CHECK(g[1].end_ns == 100);
  CHECK(g[1].prev.end_ns == 30);
  CHECK(g[1].next.cmd_id == 4);
  CHECK(g[1].track == track_key{0, 0, engine::tiu});
}

TEST_CASE("idle_gaps applies the minimum") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10), ev(engine::tiu, 0, 15, 20),
                              ev(engine::tiu, 0, 100, 110)};
  auto g = gaps_of(v | views::idle_gaps(50));
  REQUIRE(g.size() == 1);
  CHECK(g[0].begin_ns == 20);
  CHECK(gaps_of(v | views::idle_gaps(5)).size() == 2);  // the minimum is inclusive
  CHECK(gaps_of(v | views::idle_gaps(81)).empty());
}

TEST_CASE("idle_gaps merges overlaps within a track: the gap starts at the latest end") {
  std::vector<engine_event> v{ev(engine::sdma, 0, 0, 50), ev(engine::sdma, 0, 10, 20),
                              ev(engine::sdma, 0, 30, 40), ev(engine::sdma, 0, 60, 70)};
  v[0].cmd_id = 1;
  auto g = gaps_of(v | views::idle_gaps(0));
  REQUIRE(g.size() == 1);
  CHECK(g[0].begin_ns == 50);
  CHECK(g[0].end_ns == 60);
  CHECK(g[0].prev.cmd_id == 1);
}

TEST_CASE("idle_gaps never spans two tracks") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10),   ev(engine::tiu, 0, 20, 30),
                              ev(engine::gdma, 0, 40, 50), ev(engine::gdma, 0, 55, 60),
                              ev(engine::tiu, 1, 70, 80),  ev(engine::tiu, 0, 0, 1, 0, 1)};
  auto g = gaps_of(v | views::idle_gaps(0));
  REQUIRE(g.size() == 2);
  CHECK(g[0].track.eng == engine::tiu);
  CHECK(g[0].dur_ns() == 10);
  CHECK(g[1].track.eng == engine::gdma);
  CHECK(g[1].dur_ns() == 5);
}

TEST_CASE("idle_gaps on empty input and one event") {
  std::vector<engine_event> none;
  CHECK(gaps_of(none | views::idle_gaps(0)).empty());
  std::vector<engine_event> one{ev(engine::tiu, 0, 5, 10)};
  CHECK(gaps_of(one | views::idle_gaps(0)).empty());
}

TEST_CASE("idle_gaps needs track order; sorted_by_track restores it") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 20, 30), ev(engine::gdma, 0, 0, 5),
                              ev(engine::tiu, 0, 0, 10), ev(engine::gdma, 0, 9, 12)};
  CHECK_FALSE(is_track_ordered(v));
  auto sorted = sorted_by_track(v);
  CHECK(is_track_ordered(sorted));
  auto g = gaps_of(sorted | views::idle_gaps(0));
  REQUIRE(g.size() == 2);
  CHECK(g[0].track.eng == engine::tiu);
  CHECK(g[0].begin_ns == 10);
  CHECK(g[0].end_ns == 20);
  CHECK(g[1].track.eng == engine::gdma);
  CHECK(g[1].begin_ns == 5);
  CHECK(g[1].end_ns == 9);
  std::vector<engine_event> time_swapped{ev(engine::tiu, 0, 20, 30), ev(engine::tiu, 0, 0, 10)};
  CHECK_FALSE(is_track_ordered(time_swapped));
  CHECK(is_track_ordered(std::vector<engine_event>{}));
}

TEST_CASE("idle_gaps composes with other adaptors and is multi-pass") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10), ev(engine::tiu, 0, 15, 20),
                              ev(engine::tiu, 0, 30, 40)};
  auto big = views::idle_gaps(6);
  auto r = v | big;
  auto a = gaps_of(r);
  auto b = gaps_of(r);
  REQUIRE(a.size() == 1);
  CHECK(b.size() == 1);
  CHECK(a[0].begin_ns == 20);
  auto first_two = v | std::views::take(2);
  CHECK(gaps_of(first_two | views::idle_gaps(0)).size() == 1);
  auto it = ranges::begin(r);
  auto it2 = it;
  CHECK(it == it2);
  ++it2;
  CHECK(it2 == ranges::end(r));
}
