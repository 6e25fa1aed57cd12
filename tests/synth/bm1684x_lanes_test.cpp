// The BM1684X generator's lanes: a clean dump's convs (input and output channels) and matmuls
// (rows) fill the 64 NPU lanes, so `advise` finds no lane-underuse in it; `--inject
// lane-underuse` makes unaligned ones stretched by align_up(d, 64) / d of the decoded d.
#include <cstdint>
#include <map>
#include <utility>

#include <doctest/doctest.h>

#include <tpuprof/algo/advisor.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>

using namespace tpuprof;

namespace {

trace bm1684x(std::uint64_t seed, synth::fault f) {
  synth::bm1684x_options o;
  o.seed = seed;
  o.layers = 150;
  o.deps.enabled = true;
  o.inject = f;
  open_options oo;
  oo.keep_operands = true;
  return open(synth::as_dump_files(synth::bm1684x_dump(o).files), oo);
}

bool cube(std::string_view op) {
  return op.find("conv") != op.npos || op.find("mm") != op.npos;
}

}  // namespace

TEST_CASE("synthetic BM1684X: clean convs / matmuls fill the lanes, injected ones do not") {
  const unsigned lanes = chips::bm1684x::ceilings.lanes;
  REQUIRE(lanes == 64);
  for (const std::uint64_t seed : {1u, 2u}) {
    CAPTURE(seed);
    const trace clean = bm1684x(seed, synth::fault::none);
    std::map<std::uint32_t, double> before;  // TIU cmd_id -> clean duration
    int n = 0;
    for (const engine_event& e : clean.events()) {
      if (e.engine != engine::tiu || !cube(clean.info().names[e.op])) continue;
      const bool conv = clean.info().names[e.op].find("conv") != std::string_view::npos;
      const auto f = algo::advise::lane_fill(clean.operands(e), lanes, conv);
      REQUIRE(f);
      CHECK(*f == 1.0);
      before[e.cmd_id] = e.dur_ns();
      ++n;
    }
    CHECK(n > 20);
    // Faulted: the touched commands' fill is below 1 and their duration over it is the clean one.
    const trace bad = bm1684x(seed, synth::fault::lane_underuse);
    double fixed = 0, clean_sum = 0;
    int under = 0;
    for (const engine_event& e : bad.events()) {
      if (e.engine != engine::tiu || !cube(bad.info().names[e.op])) continue;
      const bool conv = bad.info().names[e.op].find("conv") != std::string_view::npos;
      const auto f = algo::advise::lane_fill(bad.operands(e), lanes, conv);
      REQUIRE(f);
      if (*f == 1.0) continue;
      CHECK(*f < 1.0);
      fixed += e.dur_ns() * *f;
      clean_sum += before.at(e.cmd_id);
      ++under;
    }
    CHECK(under > 0);
    CHECK(fixed == doctest::Approx(clean_sum).epsilon(0.002));
  }
}
