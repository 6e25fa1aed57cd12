#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/group_stats.hpp>

#include "views/view_test_util.hpp"

using namespace tpuprof;
using test::ev;

TEST_CASE("group_stats_by op gives count, sums and percentiles") {
  std::vector<engine_event> v;
  for (int i = 1; i <= 100; ++i) {  // op 1: durations 1..100
    auto e = ev(engine::tiu, 0, 0, i);
    e.op = 1;
    if (i <= 10) e.uarch_rate = 0.5f;
    v.push_back(e);
  }
  auto x = ev(engine::gdma, 0, 0, 1000, 64);
  x.op = 2;
  v.push_back(x);
  auto g = v | algo::group_stats_by(group_key::op);
  REQUIRE(g.size() == 2);
  CHECK(g[0].id == 1);  // 5050 ns total before 1000
  CHECK(g[0].count == 100);
  CHECK(g[0].sum_ns == 5050);
  CHECK(g[0].mean_ns == doctest::Approx(50.5));
  CHECK(g[0].min_ns == 1);
  CHECK(g[0].max_ns == 100);
  CHECK(g[0].p50_ns == 50);
  CHECK(g[0].p99_ns == 99);
  CHECK(g[0].uarch_known == 10);
  CHECK(g[0].uarch_rate == doctest::Approx(0.5));
  CHECK(g[1].id == 2);
  CHECK(g[1].count == 1);
  CHECK(g[1].p50_ns == 1000);
  CHECK(g[1].p99_ns == 1000);
  CHECK(g[1].bytes == 64);
  CHECK(std::isnan(g[1].uarch_rate));  // unknown, never 0
}

TEST_CASE("group_stats_by engine, core, layer, function and op_type") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10), ev(engine::tiu, 1, 0, 20),
                              ev(engine::gdma, 1, 0, 5, 10), ev(engine::cdma, 1, 0, 100, 5),
                              ev(engine::tiu, 1, 0, 1, 0, 1)};
  v[0].layer_id = 7;
  v[1].layer_id = 7;
  v[0].function = 3;
  v[0].op_type = 4;
  auto by_engine = algo::group_stats_by(v, group_key::engine);
  REQUIRE(by_engine.size() == 3);
  CHECK(by_engine[0].id == static_cast<int>(engine::cdma));
  CHECK(by_engine[1].count == 3);
  auto by_core = algo::group_stats_by(v, group_key::core);
  REQUIRE(by_core.size() == 4);
  CHECK(by_core[0].eng == engine::cdma);  // CDMA port 1 is not core 1
  CHECK(by_core[0].id == 1);
  CHECK(by_core[1].id == 1);
  CHECK(by_core[1].count == 2);
  CHECK(by_core[1].bytes == 10);
  CHECK(by_core[3].device == 1);
  auto by_layer = algo::group_stats_by(v, group_key::layer);
  REQUIRE(by_layer.size() == 2);
  CHECK(by_layer[0].id == -1);  // no layer: 106 ns
  CHECK(by_layer[1].id == 7);
  CHECK(by_layer[1].sum_ns == 30);
  CHECK(algo::group_stats_by(v, group_key::function).size() == 2);
  CHECK(algo::group_stats_by(v, group_key::op_type).size() == 2);
}

TEST_CASE("group_stats_by of empty input and of one event") {
  std::vector<engine_event> none;
  CHECK(algo::group_stats_by(none, group_key::op).empty());
  std::vector<engine_event> one{ev(engine::tiu, 0, 3, 7)};
  auto g = algo::group_stats_by(one, group_key::op);
  REQUIRE(g.size() == 1);
  CHECK(g[0].min_ns == 4);
  CHECK(g[0].p99_ns == 4);
}
