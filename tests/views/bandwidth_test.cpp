#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/bandwidth_series.hpp>
#include <tpuprof/views/bandwidth.hpp>

#include "views/view_test_util.hpp"

using namespace tpuprof;
using test::ev;

TEST_CASE("bandwidth gives GB/s per DMA event with known bytes") {
  auto g = ev(engine::gdma, 0, 0, 100, 1600);
  g.set_dir(direction::s2l);
  g.cmd_id = 7;
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10), g, ev(engine::sdma, 1, 10, 20),
                              ev(engine::cdma, 2, 10, 10, 64)};
  std::vector<dma_bandwidth> out;
  for (const dma_bandwidth& b : v | views::bandwidth) out.push_back(b);
  REQUIRE(out.size() == 2);  // TIU and the SDMA event without bytes are skipped
  CHECK(out[0].gbps == doctest::Approx(16.0));
  CHECK(out[0].dir == direction::s2l);
  CHECK(out[0].cmd_id == 7);
  CHECK(out[1].track == track_key{0, 2, engine::cdma});
  CHECK(std::isnan(out[1].gbps));  // zero length: unknown, not 0 or inf
  std::vector<engine_event> none;
  CHECK((none | views::bandwidth).empty());
}

TEST_CASE("bandwidth_series spreads bytes over windows") {
  // 1000 bytes over [50, 150): 500 in window [0,100) and 500 in [100,200).
  std::vector<engine_event> v{ev(engine::gdma, 0, 50, 150, 1000), ev(engine::gdma, 0, 210, 220, 40),
                              ev(engine::sdma, 0, 0, 100, 100), ev(engine::gdma, 1, 0, 10, 10)};
  auto s = algo::bandwidth_series(v, bandwidth_series_options{100, bandwidth_group::track, 0.0});
  REQUIRE(s.size() == 3);
  CHECK(s[0].key == track_key{0, 0, engine::gdma});
  REQUIRE(s[0].size() == 3);
  CHECK(s[0].bytes[0] == doctest::Approx(500));
  CHECK(s[0].bytes[1] == doctest::Approx(500));
  CHECK(s[0].bytes[2] == doctest::Approx(40));
  CHECK(s[0].gbps(0) == doctest::Approx(5.0));
  CHECK(s[0].begin_ns(2) == 200);
  CHECK(s[1].key == track_key{0, 0, engine::sdma});
  CHECK(s[1].bytes[0] == doctest::Approx(100));
  CHECK(s[1].bytes[1] == 0);

  auto by_core = v | algo::bandwidth_series(100, bandwidth_group::core);
  REQUIRE(by_core.size() == 2);
  CHECK(by_core[0].bytes[0] == doctest::Approx(600));
  CHECK(by_core[0].total_bytes() == doctest::Approx(1140));
  auto by_engine = v | algo::bandwidth_series(100, bandwidth_group::engine);
  REQUIRE(by_engine.size() == 2);
  CHECK(by_engine[0].key.eng == engine::gdma);
  CHECK(by_engine[0].bytes[0] == doctest::Approx(510));
  auto dev = v | algo::bandwidth_series(1000, bandwidth_group::device);
  REQUIRE(dev.size() == 1);
  REQUIRE(dev[0].size() == 1);
  CHECK(dev[0].bytes[0] == doctest::Approx(1150));
  CHECK(dev[0].gbps(0) == doctest::Approx(1.15));
}

TEST_CASE("bandwidth_series edge cases") {
  std::vector<engine_event> none;
  CHECK(algo::bandwidth_series(none, 100).empty());
  std::vector<engine_event> one{ev(engine::cdma, 0, 100, 100, 64)};
  auto s = algo::bandwidth_series(one, 10);
  REQUIRE(s.size() == 1);
  REQUIRE(s[0].size() == 1);
  CHECK(s[0].origin_ns == 100);
  CHECK(s[0].bytes[0] == 64);
  // A window edge exactly at an event's end: nothing leaks into the next window.
  std::vector<engine_event> edge{ev(engine::gdma, 0, 0, 100, 100)};
  auto e = algo::bandwidth_series(edge, 50);
  REQUIRE(e[0].size() == 2);
  CHECK(e[0].bytes[0] == doctest::Approx(50));
  CHECK(e[0].bytes[1] == doctest::Approx(50));
}
