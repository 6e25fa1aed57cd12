// The BM1684X converter dispatch tables: which command classes have a converter.
#include <doctest/doctest.h>

#include <tpuprof/chips/bm1684x/isa.hpp>

namespace I = tpuprof::regs::bm1684x_isa::detail;

TEST_CASE("bm1684x isa: one TIU converter per class the vendor converts") {
  for (unsigned t : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 9u, 10u, 13u, 14u, 15u})
    CHECK(static_cast<bool>(I::tiu_converters[t]));
  for (unsigned t : {7u, 8u, 11u, 12u})
    CHECK_FALSE(static_cast<bool>(I::tiu_converters[t]));  // LAR, unused
  const I::regs_of r{tpuprof::regs::reg_view(&tpuprof::regs::bm1684x::lar, {})};
  CHECK_FALSE(I::convert_tiu(r, 7, 0).supported);
  CHECK(I::convert_tiu(r, 15, 0).supported);  // SYS: no operands, nothing unsupported
  CHECK(I::convert_tiu(r, 15, 0).nops == 0);
}

TEST_CASE("bm1684x isa: GDMA converters per cmd_type; SYS has no operands") {
  CHECK(I::dma_converters.size() == 9);
  const I::regs_of r{tpuprof::regs::reg_view(&tpuprof::regs::bm1684x::s_dma_sys, {})};
  const auto cv = I::convert_dma(r, 6, 0);
  CHECK(cv.supported);
  CHECK(cv.nops == 0);
  CHECK(cv.nres == 0);
}
