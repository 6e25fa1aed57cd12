#include <ranges>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/views/filter.hpp>

#include "views/view_test_util.hpp"

using namespace tpuprof;
using test::collect;
using test::ev;

namespace {
std::vector<engine_event> sample() {
  auto a = ev(engine::tiu, 0, 0, 10);
  a.op = 3;
  auto b = ev(engine::gdma, 0, 5, 15, 100);
  b.op = 4;
  auto c = ev(engine::tiu, 1, 0, 10);
  c.op = 3;
  c.function = 7;
  c.op_type = 9;
  auto d = ev(engine::cdma, 1, 0, 10, 64);
  auto e = ev(engine::sdma, 1, 2, 3, 8, 1);
  return {a, b, c, d, e};
}
}  // namespace

static_assert(event_range<std::vector<engine_event>>);
static_assert(!event_range<std::vector<int>>);
static_assert(std::ranges::forward_range<decltype(std::declval<std::vector<engine_event>&>() |
                                                  views::only(engine::tiu))>);

TEST_CASE("only keeps one engine kind") {
  auto v = sample();
  auto r = collect(v | views::only(engine::tiu));
  REQUIRE(r.size() == 2);
  CHECK(r[0].unit == 0);
  CHECK(r[1].unit == 1);
  CHECK(collect(views::only(v, engine::sdma)).size() == 1);
  CHECK(collect(v | views::only_dma).size() == 3);
}

TEST_CASE("on_core keeps per-core queues and drops CDMA ports") {
  auto v = sample();
  auto r = collect(v | views::on_core(1));
  REQUIRE(r.size() == 2);
  CHECK(r[0].engine == engine::tiu);
  CHECK(r[1].engine == engine::sdma);
  CHECK(collect(v | views::on_device(1)).size() == 1);
}

TEST_CASE("op_is and function_is match name ids") {
  auto v = sample();
  CHECK(collect(v | views::op_is(3)).size() == 2);
  CHECK(collect(v | views::op_is(99)).empty());
  CHECK(collect(v | views::function_is(7)).size() == 1);
  CHECK(collect(v | views::op_type_is(9)).size() == 1);
}

TEST_CASE("filters compose before data exists and accept std views") {
  auto v = sample();
  auto tiu_core0 = views::only(engine::tiu) | views::on_core(0);
  auto r = collect(v | tiu_core0);
  REQUIRE(r.size() == 1);
  CHECK(r[0].op == 3);
  // range-v3 0.12 pipes take std views as lvalues (an rvalue std view is not
  // a range-v3 viewable_range).
  auto first_two = v | std::views::take(2);
  auto s = collect(first_two | views::only(engine::gdma));
  CHECK(s.size() == 1);
  std::vector<engine_event> empty;
  CHECK(collect(empty | views::only(engine::tiu)).empty());
}
