#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/utilization.hpp>

#include "views/view_test_util.hpp"

using namespace tpuprof;
using test::ev;

TEST_CASE("utilization merges overlaps and touching intervals within a track") {
  // TIU core 0: [0,10) [5,20) [20,30) [50,60) -> union [0,30) + [50,60) = 40 of span 100.
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10),        ev(engine::tiu, 0, 5, 20),
                              ev(engine::tiu, 0, 20, 30),       ev(engine::tiu, 0, 50, 60),
                              ev(engine::gdma, 0, 25, 55, 300), ev(engine::sdma, 0, 90, 100, 10)};
  auto rep = v | algo::utilization();
  CHECK(rep.window.begin_ns == 0);
  CHECK(rep.window.end_ns == 100);
  REQUIRE(rep.tracks.size() == 3);
  CHECK(rep.tracks[0].track.eng == engine::tiu);
  CHECK(rep.tracks[0].events == 4);
  CHECK(rep.tracks[0].busy_ns == 40);
  CHECK(rep.tracks[0].idle_ns() == 60);
  CHECK(rep.tracks[0].ratio() == doctest::Approx(0.4));
  CHECK(rep.tracks[1].busy_ns == 30);
  CHECK(rep.tracks[2].busy_ns == 10);
  REQUIRE(rep.cores.size() == 1);
  const auto& c = rep.cores[0];
  CHECK(c.compute_ns == 40);
  CHECK(c.transfer_ns == 40);  // [25,55) + [90,100)
  CHECK(c.overlap_ns == 10);   // [25,30) + [50,55)
  CHECK(c.overlap_ratio() == doctest::Approx(0.1));
  CHECK(c.compute_transfer_ratio() == doctest::Approx(1.0));
  CHECK(c.hidden_transfer_ratio() == doctest::Approx(0.25));
  CHECK(c.idle_ns() == 30);
}

TEST_CASE("utilization over a window clips events") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10), ev(engine::tiu, 0, 5, 20),
                              ev(engine::tiu, 0, 50, 60), ev(engine::gdma, 0, 15, 40, 1)};
  auto rep = algo::utilization(v, {time_range{8, 18}});
  REQUIRE(rep.tracks.size() == 2);
  CHECK(rep.tracks[0].events == 2);
  CHECK(rep.tracks[0].busy_ns == 10);
  CHECK(rep.tracks[0].ratio() == doctest::Approx(1.0));
  CHECK(rep.tracks[1].busy_ns == 3);
  CHECK(rep.cores[0].overlap_ns == 3);
}

TEST_CASE("utilization of empty input and of one event") {
  std::vector<engine_event> none;
  auto rep = algo::utilization(none);
  CHECK(rep.tracks.empty());
  CHECK(rep.cores.empty());
  CHECK(rep.window.dur_ns() == 0);
  std::vector<engine_event> one{ev(engine::gdma, 2, 10, 30, 5)};
  auto r1 = algo::utilization(one);
  REQUIRE(r1.tracks.size() == 1);
  CHECK(r1.tracks[0].ratio() == doctest::Approx(1.0));
  REQUIRE(r1.cores.size() == 1);
  CHECK(r1.cores[0].core == 2);
  CHECK(r1.cores[0].compute_ns == 0);
  CHECK(r1.cores[0].transfer_ns == 20);
  CHECK(std::isnan(r1.cores[0].hidden_transfer_ratio()) == false);
  std::vector<engine_event> zero{ev(engine::tiu, 0, 5, 5)};
  auto r0 = algo::utilization(zero);
  CHECK(std::isnan(r0.tracks[0].ratio()));
}

TEST_CASE("utilization separates cores, devices and CDMA ports, in any input order") {
  std::vector<engine_event> v{ev(engine::tiu, 1, 0, 50),     ev(engine::cdma, 0, 0, 100, 8),
                              ev(engine::tiu, 0, 60, 100),   ev(engine::gdma, 1, 40, 60, 8),
                              ev(engine::tiu, 0, 0, 10),     ev(engine::tiu, 0, 0, 10, 0, 1),
                              ev(engine::sdma, 1, 45, 70, 8)};
  auto rep = algo::utilization(v);
  REQUIRE(rep.tracks.size() == 6);
  CHECK(rep.tracks[0].track == track_key{0, 0, engine::tiu});
  CHECK(rep.tracks[0].busy_ns == 50);
  CHECK(rep.tracks[1].track == track_key{0, 0, engine::cdma});
  REQUIRE(rep.cores.size() == 3);
  CHECK(rep.cores[0].core == 0);
  CHECK(rep.cores[0].transfer_ns == 0);
  CHECK(std::isnan(rep.cores[0].compute_transfer_ratio()));
  CHECK(rep.cores[1].core == 1);
  CHECK(rep.cores[1].transfer_ns == 30);  // [40,60) u [45,70)
  CHECK(rep.cores[1].overlap_ns == 10);   // [40,50)
  CHECK(rep.cores[2].device == 1);
}
