#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/views/time_window.hpp>

#include "views/view_test_util.hpp"

using namespace tpuprof;
using test::collect;
using test::ev;

TEST_CASE("time_window selects overlapping events without clipping") {
  std::vector<engine_event> v{
      ev(engine::tiu, 0, 0, 10),   // touches the window start only: out
      ev(engine::tiu, 0, 5, 15),   // crosses the start: in, unchanged
      ev(engine::tiu, 0, 12, 18),  // inside
      ev(engine::tiu, 0, 18, 30),  // crosses the end
      ev(engine::tiu, 0, 20, 25),  // starts at the window end: out
      ev(engine::tiu, 0, 14, 14),  // zero length inside: in
      ev(engine::tiu, 0, 20, 20),  // zero length at the end: out
  };
  auto r = collect(v | views::time_window(10, 20));
  REQUIRE(r.size() == 4);
  CHECK(r[0].begin_ns == 5);
  CHECK(r[0].end_ns == 15);
  CHECK(r[1].begin_ns == 12);
  CHECK(r[2].end_ns == 30);
  CHECK(r[3].begin_ns == 14);
  std::vector<engine_event> empty;
  CHECK(collect(empty | views::time_window(0, 100)).empty());
}

TEST_CASE("clip cuts times and scales cycles and bytes") {
  std::vector<engine_event> v{ev(engine::gdma, 0, 0, 100, 1000), ev(engine::gdma, 0, 40, 60, 10)};
  auto r = collect(v | views::clip(50, 150));
  REQUIRE(r.size() == 2);
  CHECK(r[0].begin_ns == 50);
  CHECK(r[0].end_ns == 100);
  CHECK(r[0].begin_cycle == 50);
  CHECK(r[0].end_cycle == 100);
  CHECK(r[0].bytes == 500);
  CHECK(r[0].bandwidth_gbps() == doctest::Approx(10.0));
  CHECK(r[1].begin_ns == 50);
  CHECK(r[1].end_ns == 60);
  CHECK(r[1].bytes == 5);
  auto inside = collect(v | views::clip(0, 1000));
  CHECK(inside[0].bytes == 1000);
  CHECK(inside[1].begin_ns == 40);
}
