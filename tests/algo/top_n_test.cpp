#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/top_n.hpp>

#include "views/view_test_util.hpp"

using namespace tpuprof;
using test::ev;

TEST_CASE("top_n by duration, bytes and bandwidth") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10),         // dur 10
                              ev(engine::gdma, 0, 0, 40, 400),   // dur 40, 10 GB/s
                              ev(engine::gdma, 0, 50, 60, 300),  // dur 10, 30 GB/s
                              ev(engine::tiu, 1, 0, 30),         // dur 30
                              ev(engine::cdma, 0, 5, 5, 1000)};  // zero length, bw unknown
  for (std::size_t i = 0; i < v.size(); ++i) v[i].cmd_id = static_cast<std::uint32_t>(i);
  auto d = v | algo::top_n(2);
  REQUIRE(d.size() == 2);
  CHECK(d[0].cmd_id == 1);
  CHECK(d[1].cmd_id == 3);
  auto ties = algo::top_n(v, 4);
  REQUIRE(ties.size() == 4);
  CHECK(ties[2].cmd_id == 0);  // equal durations keep input order
  CHECK(ties[3].cmd_id == 2);
  auto b = algo::top_n(v, 10, rank_by::bytes);
  REQUIRE(b.size() == 3);  // only events with known bytes
  CHECK(b[0].cmd_id == 4);
  CHECK(b[2].cmd_id == 2);
  auto bw = v | algo::top_n(5, rank_by::bandwidth);
  REQUIRE(bw.size() == 2);  // the zero-length command's bandwidth is unknown
  CHECK(bw[0].cmd_id == 2);
}

TEST_CASE("top_n edge cases") {
  std::vector<engine_event> none;
  CHECK(algo::top_n(none, 3).empty());
  std::vector<engine_event> one{ev(engine::tiu, 0, 0, 1)};
  CHECK(algo::top_n(one, 0).empty());
  CHECK(algo::top_n(one, 3).size() == 1);
}
