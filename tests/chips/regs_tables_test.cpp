#include <string_view>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/regs.hpp>
#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/regs.hpp>
#include <tpuprof/chips/bm1684x/regs.hpp>

namespace {
template <class Tables>
void check_tiling(const Tables& all) {
  for (const auto* t : all) {
    CAPTURE(t->sheet);
    unsigned next = 0;
    for (const auto& f : t->fields) {
      CHECK(f.lo == next);
      CHECK(f.width >= 1);
      CHECK(f.width <= 64);
      next = f.lo + f.width;
    }
    CHECK(next == t->bits);
  }
}

const tpuprof::regs::reg_table* by_sheet(std::string_view s) {
  for (const auto* t : tpuprof::regs::aks::all_tables)
    if (t->sheet == s) return t;
  return nullptr;
}
}  // namespace

TEST_CASE("generated register tables tile their commands without gaps") {
  check_tiling(tpuprof::regs::bm1684x::all_tables);
  check_tiling(tpuprof::regs::aks::all_tables);
  check_tiling(tpuprof::regs::aksv::all_tables);
}

// The CDM decoder frames AKS commands with lengths from bigTpuProfile's
// tables; the generated AKS tables come from tpu-mlir's BM1690 register file.
TEST_CASE("AKS register tables agree with the CDM decoder's command lengths") {
  using tpuprof::chips::aks;
  struct probe {
    unsigned tsk, eu;
  };
  const probe tiu[] = {{0, 0}, {0, 1}, {1, 0},  {2, 1},  {2, 4},   {3, 2}, {4, 0},
                       {5, 0}, {6, 0}, {6, 17}, {9, 12}, {13, 22}, {14, 0}};
  for (const auto& p : tiu)
    for (bool s : {false, true}) {
      auto cls = aks::tiu_class_of(p.tsk, p.eu, s);
      REQUIRE(cls);
      CAPTURE(cls->name);
      const auto* t = by_sheet(cls->name);
      REQUIRE(t);
      CHECK(t->bits == cls->bits);
    }
  // sLIN: tpu-mlir's BM1690 sheet (Reg0.12) has 288 bits, the CDM framing 384
  // (bigTpuProfile, SG2260 Reg1.0): a known difference between the two sources.
  CHECK(by_sheet("sLIN")->bits == 288);
  CHECK(aks::tiu_class_of(10, 1, true)->bits == 384);
  CHECK(by_sheet("DMA_tensor（0x000）")->bits == aks::dma_bits(0));
  CHECK(by_sheet("sDMA_sys")->bits == aks::dma_bits(6));
  CHECK(by_sheet("CDMA_send")->bits == aks::cdma_bits(0));
  CHECK(by_sheet("CDMA_read")->bits == aks::cdma_bits(1));
  CHECK(by_sheet("sCDMA_sys")->bits == aks::cdma_bits(7));
}
