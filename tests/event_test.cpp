#include <cmath>

#include <doctest/doctest.h>

#include <tpuprof/event.hpp>

using tpuprof::engine_event;

TEST_CASE("engine_event packs direction and flags in one byte") {
  engine_event e;
  CHECK(e.dir() == tpuprof::direction::none);
  e.set_dir(tpuprof::direction::l2s);
  e.set_flag(engine_event::flag_matched);
  CHECK(e.dir() == tpuprof::direction::l2s);
  CHECK(e.matched());
  CHECK_FALSE(e.has_bytes());
  e.set_dir(tpuprof::direction::s2s);
  CHECK(e.matched());
  CHECK(e.dir() == tpuprof::direction::s2s);
  e.set_flag(engine_event::flag_matched, false);
  CHECK_FALSE(e.matched());
}

TEST_CASE("bandwidth is bytes per ns and unknown without bytes or duration") {
  engine_event e;
  e.begin_ns = 100;
  e.end_ns = 164;
  e.bytes = 128;
  CHECK(std::isnan(e.bandwidth_gbps()));
  e.set_flag(engine_event::flag_has_bytes);
  CHECK(e.bandwidth_gbps() == doctest::Approx(2.0));
  e.end_ns = 100;
  CHECK(std::isnan(e.bandwidth_gbps()));
}

TEST_CASE("uarch rate defaults to unknown, not zero") {
  engine_event e;
  CHECK(std::isnan(e.uarch_rate));
  CHECK(e.layer_id == -1);
}

TEST_CASE("engine names parse back case-insensitively") {
  for (std::size_t i = 0; i < tpuprof::engine_count; ++i) {
    auto e = static_cast<tpuprof::engine>(i);
    REQUIRE(tpuprof::parse_engine(tpuprof::name(e)).has_value());
    CHECK(*tpuprof::parse_engine(tpuprof::name(e)) == e);
  }
  CHECK(tpuprof::parse_engine("gdma") == tpuprof::engine::gdma);
  CHECK_FALSE(tpuprof::parse_engine("gdmax").has_value());
  CHECK(tpuprof::is_dma(tpuprof::engine::cdma));
  CHECK_FALSE(tpuprof::is_dma(tpuprof::engine::tiu));
  CHECK_FALSE(tpuprof::is_hardware(tpuprof::engine::layer));
}
