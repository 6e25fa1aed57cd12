#include <string>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/decode/cdm/chip.hpp>

using tpuprof::chips::aks;
using tpuprof::chips::aksv;

static_assert(tpuprof::chip_traits<aks> && tpuprof::chip_traits<aksv>);
static_assert(tpuprof::cdm::cdm_chip<aks> && tpuprof::cdm::cdm_chip<aksv>);
static_assert(aks::core_count == 8 && aksv::core_count == 4);
static_assert(aks::cdma_port_count == 11 && aksv::cdma_port_count == 10);
static_assert(aks::dyn_engines.sdma == 3 && aksv::dyn_engines.sdma == 2);
static_assert(aksv::dyn_engines.hau < 0);
static_assert(aks::family == tpuprof::dump_family::cdm &&
              aksv::family == tpuprof::dump_family::cdm);

// What differs between the two chips is in their traits (format-sg2260.md §2.8,
// tpu-mlir target_1690 / target_1690e regdef lengths).
TEST_CASE("AKS and AKSV traits: command lengths and forms differ where the chips do") {
  // Long (1024-bit) TIU forms and LAR exist on AKS only.
  CHECK(aks::tiu_class_of(0, 0, false)->bits == 1024);
  CHECK_FALSE(aksv::tiu_class_of(0, 0, false));
  CHECK(aks::tiu_class_of(0, 0, true)->bits == 512);
  CHECK(aksv::tiu_class_of(0, 0, true)->bits == 512);
  CHECK(aks::tiu_class_of(7, 3, false)->name == "LAR");
  CHECK_FALSE(aksv::tiu_class_of(7, 3, false));
  CHECK(aks::tiu_class_of(8, 0, false)->bits == 1024);  // RAND
  CHECK(aksv::tiu_class_of(8, 0, false)->bits == 384);
  // DMA_cw transpose (type 4): 768 bits on AKS, no class on AKSV.
  CHECK(aks::dma_bits(4) == 768);
  CHECK(aksv::dma_bits(4) == 0);
  CHECK(aks::dma_bits(0) == 768);
  CHECK(aksv::dma_bits(0) == 768);
  // CDMA send/general/receive 256 vs 384 bits; tcp send/receive only on AKS.
  CHECK(aks::cdma_bits(0) == 256);
  CHECK(aksv::cdma_bits(0) == 384);
  CHECK(aks::cdma_bits(8) == 128);
  CHECK(aksv::cdma_bits(8) == 0);
  CHECK(aks::cdma_bits(7) == 128);
  CHECK(aksv::cdma_bits(7) == 128);
  // Register forms: AKSV names its cast form apart; fp8 EU tables only on AKS.
  CHECK(aks::tiu_table(3, 14, true) == &tpuprof::regs::aks::s_ar);
  CHECK(aksv::tiu_table(3, 14, true) == &tpuprof::regs::aksv::s_ar_cvt);
  CHECK(aks::dma_table(4) == &tpuprof::regs::aks::dma_cw_transpose);
  CHECK(aksv::dma_table(4) == nullptr);
  CHECK(aks::has_fp8);
  CHECK_FALSE(aksv::has_fp8);
  // Names are the family's: the same on both chips.
  CHECK(aks::tiu_op(3, 14) == "arith.cast");
  CHECK(aksv::tiu_op(14, 23) == "vc.mulDHR");
  CHECK(aksv::tiu_names(3, 14).name == "data_convert");
  CHECK(aks::cdma_op_names(7, 0).name == "end");
}

TEST_CASE("AKS and AKSV are told apart by the arch value of global.profile") {
  CHECK(tpuprof::cdm::matches_arch<aks>(5));
  CHECK(tpuprof::cdm::matches_arch<aks>(8800));
  CHECK(tpuprof::cdm::matches_arch<aksv>(6));
  CHECK(tpuprof::cdm::matches_arch<aksv>(140814));
  CHECK_FALSE(tpuprof::cdm::matches_arch<aks>(6));
  CHECK_FALSE(tpuprof::cdm::matches_arch<aksv>(3));
}

TEST_CASE("with_chip dispatches the cli names aks and aksv") {
  tpuprof::chip_list<aks, aksv> chips;
  CHECK(tpuprof::with_chip(chips, "aks", []<class C>() { return C::core_count; }) == 8);
  CHECK(tpuprof::with_chip(chips, "SG2260E", []<class C>() { return C::core_count; }) == 4);
  // (with_chip returns decltype(auto) of `*std::move(optional)`, a dangling
  // reference for class types: reported to the lead; only scalars here.)
  CHECK(tpuprof::with_chip(chips, "AKSV", []<class C>() { return C::cdma_port_count; }) == 10);
}
