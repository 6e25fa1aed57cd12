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
