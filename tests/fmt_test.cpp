#include <iterator>
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/fmt.hpp>

using tpuprof::engine;

TEST_CASE("fmt: engine and direction print their display names and take string specs") {
  CHECK(fmt::format("{}", engine::tiu) == "TIU");
  CHECK(fmt::format("{}", engine::kernel_function) == "FUNCTION");
  CHECK(fmt::format("[{:>5}]", engine::gdma) == "[ GDMA]");
  CHECK(fmt::format("[{:<6}]", engine::cdma) == "[CDMA  ]");
  CHECK(fmt::format("{}", static_cast<engine>(9)) == "?");
  CHECK(fmt::format("{}", tpuprof::direction::s2l) == "S2L");
  CHECK(fmt::format("[{}]", tpuprof::direction::none) == "[]");
}

TEST_CASE("fmt: engine_event is one compact line: engine/unit, cmd id, begin and end ns, op") {
  tpuprof::engine_event e;
  e.engine = engine::tiu;
  e.unit = 0;
  e.cmd_id = 12;
  e.begin_ns = 1000;
  e.end_ns = 1250.5;
  e.op = 3;
  CHECK(fmt::format("{}", e) == "TIU/0 #12 [1000.000, 1250.500) ns op=3");
  e.engine = engine::cdma;
  e.unit = 7;
  e.cmd_id = 4294967295u;
  e.begin_ns = 0.0004;  // rounds to 3 decimals (picoseconds)
  e.end_ns = 41.4895;
  e.op = 0;
  CHECK(fmt::format("{}", e) == "CDMA/7 #4294967295 [0.000, 41.489) ns op=0");
}

TEST_CASE("fmt: tracks and track keys print device, core or port, engine") {
  tpuprof::track t;
  t.device = 1;
  t.unit = 3;
  t.eng = engine::sdma;
  CHECK(fmt::format("{}", t) == "dev1.core3.SDMA");
  t.eng = engine::cdma;
  CHECK(fmt::format("{}", t) == "dev1.port3.CDMA");
  CHECK(fmt::format("{}", tpuprof::track_key{0, 2, engine::layer}) == "dev0.core2.LAYER");
  std::string out;
  fmt::format_to(std::back_inserter(out), "{} {}", tpuprof::track_key{},
                 tpuprof::track_key{0, 1, engine::gdma});
  CHECK(out == "dev0.core0.TIU dev0.core1.GDMA");
}

TEST_CASE("fmt: a format spec on an event or track is a format error") {
  tpuprof::engine_event e;
  CHECK_THROWS_AS((void)fmt::format(fmt::runtime("{:>10}"), e), fmt::format_error);
  CHECK_THROWS_AS((void)fmt::format(fmt::runtime("{:x}"), tpuprof::track_key{}), fmt::format_error);
}
