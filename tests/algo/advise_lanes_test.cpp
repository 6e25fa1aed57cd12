// advise lane-underuse: the lane fill from the operands' lane dimension (mem_operand::lane_dim),
// by hand, through the advisor, and against the generator's injected channels (the duration
// a lane-underuse fault adds is exactly align_up(d, 64) / d of the decoded lane dimension d).
#include <cstdint>
#include <map>
#include <span>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/advisor.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/synth/cdm_synth.hpp>

#include "algo/graph_test_util.hpp"

using namespace tpuprof;

namespace {

regs::mem_operand local(bool write, std::uint32_t lane_dim, std::uint8_t index = 0) {
  regs::mem_operand m;
  m.kind = regs::mem_kind::local;
  m.write = write;
  m.index = index;
  m.size = 64;
  m.lane_dim = lane_dim;
  return m;
}

}  // namespace

TEST_CASE("advise lane_fill: the result's lane dimension, and the input's where the chip pads it") {
  using algo::advise::lane_fill;
  const std::vector<regs::mem_operand> conv{local(false, 109), local(false, 64, 1),
                                            local(true, 40)};
  CHECK(*lane_fill(conv, 64, false) == doctest::Approx(40.0 / 64));
  CHECK(*lane_fill(conv, 64, true) == doctest::Approx(40.0 / 64 * 109 / 128));
  const std::vector<regs::mem_operand> full{local(false, 3), local(true, 128)};
  CHECK(*lane_fill(full, 64, false) == 1.0);
  CHECK(*lane_fill(full, 64, true) == doctest::Approx(3.0 / 64));
  const std::vector<regs::mem_operand> no_result{local(false, 24)};
  CHECK_FALSE(lane_fill(no_result, 64, true));
  CHECK_FALSE(lane_fill({}, 64, true));
  CHECK_FALSE(lane_fill(conv, 0, true));
}

TEST_CASE("advise lane-underuse: the lanes' share of a uArch rate that has other losses too") {
  // conv of 40 output channels on 64 lanes, rate 0.2 (execution units idle too): fixed, it
  // takes 40/64 of its 800 ns, not 0.2 of it.
  name_table names;
  std::vector<engine_event> e{graph_test::ev(engine::tiu, 1, 0, 800),
                              graph_test::ev(engine::tiu, 2, 801, 901)};
  e[0].op = names.intern("conv.normal");
  e[0].uarch_rate = 0.2f;
  e[1].op = names.intern("arith.add");
  e[1].uarch_rate = 1.0f;
  const std::vector<command_dep> deps{graph_test::dep(1, 0, engine::tiu),
                                      graph_test::dep(2, 0, engine::tiu)};
  const auto g = algo::build_dependency_graph(e, deps);
  const std::vector<regs::mem_operand> ops{local(false, 96), local(true, 40)};
  for (const bool input_lanes : {false, true}) {
    auto c = algo::make_context(g, names);
    c.ceilings.lanes = 64;
    c.ceilings.conv_input_lanes = input_lanes;
    c.operands = [&](std::uint32_t n) {
      return n == 0 ? std::span<const regs::mem_operand>(ops)
                    : std::span<const regs::mem_operand>{};
    };
    const auto a = algo::advise_findings(c);
    REQUIRE_FALSE(a.findings.empty());
    CHECK(a.findings[0].rule == "lane-underuse");
    const double fill = 40.0 / 64 * (input_lanes ? 96.0 / 128 : 1.0);
    CHECK(a.findings[0].recoverable_ns == doctest::Approx(800 * (1 - fill)));
  }
}

TEST_CASE("advise lane-underuse: the injected stretch is align_up(d, 64) / d of the decoded d") {
  // SG2260 (AKS mode 2): conv output channels / matmul rows. Each cube command of the faulted
  // dump lasts align_up(d, 64) / d times its clean duration, d from the decoded operands.
  auto check = [](const trace& clean, const trace& bad, bool input_lanes) {
    std::map<std::tuple<int, int, std::uint32_t>, double> dur;
    for (const engine_event& e : clean.events())
      dur[{e.unit, static_cast<int>(e.engine), e.cmd_id}] = e.dur_ns();
    int n = 0;
    for (const engine_event& e : bad.events()) {
      if (e.engine != engine::tiu) continue;
      const auto op = bad.info().names[e.op];
      if (op.find("conv") == op.npos && op.find("mm") == op.npos) continue;
      const bool conv = op.find("conv") != op.npos;
      const auto f = algo::advise::lane_fill(bad.operands(e), 64, conv && input_lanes);
      REQUIRE(f);
      const double before = dur.at({e.unit, static_cast<int>(e.engine), e.cmd_id});
      CHECK(e.dur_ns() * *f == doctest::Approx(before).epsilon(0.002));
      ++n;
    }
    CHECK(n > 20);
  };
  open_options oo;
  oo.keep_operands = true;
  for (const std::uint64_t seed : {1u, 2u}) {
    synth::cdm_synth_options o;
    o.records = 300;
    o.cores = 1;
    o.mode = 2;
    o.seed = seed;
    o.deps.enabled = true;
    const auto clean = synth::synthesize_cdm<chips::aks>(o);
    o.inject = synth::fault::lane_underuse;
    const auto bad = synth::synthesize_cdm<chips::aks>(o);
    check(open(synth::as_dump_files(clean), oo), open(synth::as_dump_files(bad), oo),
          chips::aks::ceilings.conv_input_lanes);
  }
}
