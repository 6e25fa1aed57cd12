#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/diff.hpp>

using tpuprof::engine_event;

namespace {
engine_event ev(tpuprof::name_id op, double b, double e, std::uint64_t bytes = 0) {
  engine_event x;
  x.op = op;
  x.begin_ns = b;
  x.end_ns = e;
  if (bytes) {
    x.bytes = bytes;
    x.set_flag(engine_event::flag_has_bytes);
  }
  return x;
}
}  // namespace

TEST_CASE("diff_runs pairs groups by name across name tables and sorts by time change") {
  tpuprof::trace_info a, b;
  const auto conv_a = a.names.intern("conv"), add_a = a.names.intern("add");
  const auto add_b = b.names.intern("add"), conv_b = b.names.intern("conv"),
             mm_b = b.names.intern("mm");
  std::vector<engine_event> ra{ev(conv_a, 0, 100), ev(conv_a, 100, 150), ev(add_a, 150, 160, 64)};
  std::vector<engine_event> rb{ev(conv_b, 0, 60), ev(add_b, 60, 75, 128), ev(mm_b, 75, 95)};
  auto rows = tpuprof::diff_runs(ra, a, rb, b, tpuprof::group_key::op);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].key == "conv");  // 150 -> 60: -90
  CHECK(rows[0].count_a == 2);
  CHECK(rows[0].count_b == 1);
  CHECK(rows[0].delta_ns() == -90);
  CHECK(rows[0].ratio() == doctest::Approx(0.4));
  CHECK(rows[1].key == "mm");  // new in b: +20
  CHECK(rows[1].count_a == 0);
  CHECK(std::isnan(rows[1].ratio()));
  CHECK(rows[2].key == "add");  // 10 -> 15
  CHECK(rows[2].bytes_a == 64);
  CHECK(rows[2].bytes_b == 128);
}

TEST_CASE("diff_runs of empty runs is empty; identical runs have zero deltas") {
  tpuprof::trace_info a;
  std::vector<engine_event> none;
  CHECK(tpuprof::diff_runs(none, a, none, a, tpuprof::group_key::engine).empty());
  std::vector<engine_event> r{ev(0, 0, 10), ev(0, 20, 25)};
  auto rows = tpuprof::diff_runs(r, a, r, a, tpuprof::group_key::engine);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].key == "TIU");
  CHECK(rows[0].delta_ns() == 0);
  CHECK(rows[0].ratio() == 1);
}
