// The bmprofile decoder's stages on hand-computed inputs (the sample tests cover them end to end).
#include <cstdint>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>

namespace bp = tpuprof::bmprofile;
using tpuprof::chips::bm1684x;

TEST_CASE("bmprofile time: the vendor's conversions, saturating") {
  CHECK(bp::to_i64(-1.7) == -1);
  CHECK(bp::to_i64(std::numeric_limits<double>::quiet_NaN()) == 0);
  CHECK(bp::to_i64(1e19) == 9'000'000'000'000'000'000);
  CHECK(bp::sat_add(std::numeric_limits<std::int64_t>::max(), 1) ==
        std::numeric_limits<std::int64_t>::max());
  CHECK(bp::mcu_us(1100, 1000, 40) == doctest::Approx(4.0));  // 100 ticks x 40 ns
}

TEST_CASE("bmprofile time: rebase_state unwraps ids and start counters") {
  bp::rebase_state st;
  st.arrive<20>(0xFFFFFF00u, 0xFFFFFF10u, 0xFFFF0, 20);
  st.k = 1;
  st.arrive<20>(0x10, 0x20, 5, 20);  // start went backwards; the id fell by > 2^19
  CHECK(st.fixed == 4294967296.0);
  CHECK(st.id_delta == (std::uint64_t{1} << 20));
  CHECK(st.rebase(0x10, 0xFFFFFF00u) == 0x10 + 0x100);
}

TEST_CASE("bmprofile time: clocks and the host timeline") {
  tpuprof::decode_diagnostics diag;
  bp::global_profile g;
  g.tpu_freq_mhz = 0;
  auto c = bp::resolve_clocks<bm1684x>(g, 500.0, std::nullopt, "d", diag);
  CHECK(c.tiu_mhz == 500);
  CHECK(c.dma_mhz == 1000);
  CHECK(diag[tpuprof::diag::default_frequency] == 1);

  std::vector<bp::iter_blocks> iters(2);
  iters[0].has_summary = iters[1].has_summary = true;
  iters[0].summary.begin_us = 100;
  iters[0].summary.end_us = 200;
  iters[1].summary.begin_us = 500;
  iters[1].summary.end_us = 600;
  const auto base = bp::host_timeline(iters, diag);
  CHECK(base[0] == 0);
  CHECK(base[1] == 100);  // the 300 µs host gap is removed
}

TEST_CASE("bmprofile mcu: record names from the chip's NODE_SET layout") {
  tpuprof::decode_diagnostics diag;
  bp::dyn_record r;
  r.type = 1;
  r.id = std::uint64_t{1} << bm1684x::node_set.engine_lo;
  CHECK(bp::mcu_op_name<bm1684x>(r, "f", diag) == "set_GDMA");
  r.id = 0;
  CHECK(bp::mcu_op_name<bm1684x>(r, "f", diag) == "set_BD");
  r.type = 7;
  CHECK(bp::mcu_op_name<bm1684x>(r, "f", diag) == "type_7");
  CHECK(diag[tpuprof::diag::unknown_enum] == 1);
}

TEST_CASE("bmprofile records: direction from the GDMA byte counters") {
  std::uint32_t rec[48] = {};
  rec[0x14 / 4] = 64;  // DDR read
  rec[0x24 / 4] = 64;  // local write
  CHECK(bp::pmu_dma_direction(reinterpret_cast<const std::byte*>(rec)) == tpuprof::direction::s2l);
  rec[0x14 / 4] = 0;  // no read at all: a constant fill
  CHECK(bp::pmu_dma_direction(reinterpret_cast<const std::byte*>(rec)) == tpuprof::direction::c2l);
}
