// `tpuprof advise` on the real BM1684X and BM1690 captures, run the way the CLI runs it
// (examples/cli/advise_data.cpp: shared-counter time, operands, dependencies, the chip's
// ceilings, net_stat.sim): the invariants of issue #16 and the findings that
// docs/analysis.md ("On the real captures") checks by hand.
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/advisor.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode/bmprofile/net_stat.hpp>
#include <tpuprof/io/mapped_file.hpp>
#include <tpuprof/open.hpp>

#ifdef TPUPROF_SAMPLES_DIR
namespace {

struct advised {
  tpuprof::trace t;
  tpuprof::algo::dependency_graph g;
  tpuprof::algo::advice a;
};

/// The CLI's advisor run over the capture in `dir` (relative to the samples).
advised advise_capture(const std::string& dir) {
  const std::string path = std::string(TPUPROF_SAMPLES_DIR) + "/" + dir;
  tpuprof::open_options o;
  o.dependencies = true;
  o.keep_operands = true;
  o.time = tpuprof::time_base::shared_counter;
  advised r{tpuprof::open(path, o), {}, {}};
  r.g = tpuprof::algo::build_dependency_graph(r.t);
  const auto ceil = tpuprof::with_chip(tpuprof::chips::all{}, r.t.info().chip, []<class C>() {
    if constexpr (requires { C::ceilings; })
      return tpuprof::chip_ceilings(C::ceilings);
    else
      return tpuprof::chip_ceilings{};
  });
  auto c = tpuprof::algo::make_context(r.g, r.t.info().names, ceil);
  const tpuprof::trace& t = r.t;
  c.operands = [&t](std::uint32_t n) { return t.operands(t.events()[n]); };
  const std::string sim = path + "/net_stat.sim";
  if (std::ifstream(sim).good()) {
    tpuprof::io::mapped_file m(sim);
    tpuprof::decode_diagnostics ignored;
    const auto ns =
        tpuprof::bmprofile::parse_net_stat(tpuprof::io::byte_reader(m.bytes(), sim), ignored);
    for (const auto* items : {&ns.tiu, &ns.gdma})
      for (const auto& it : *items)
        if (it.layer_id >= 0) c.estimate_ns[it.layer_id] += it.cost_ns;
  }
  r.a = tpuprof::algo::advise_findings(c);
  return r;
}

/// Each recoverable within its bucket, their sum within the span, one finding per rule,
/// most recoverable first, none below the 0.1 % threshold.
void check_invariants(const tpuprof::algo::advice& a) {
  double sum = 0;
  std::set<std::string_view> rules;
  for (std::size_t i = 0; i < a.findings.size(); ++i) {
    const auto& f = a.findings[i];
    CAPTURE(f.rule);
    CHECK(f.recoverable_ns >= 0.001 * a.span_ns);
    CHECK(f.recoverable_ns <= f.bucket_ns + 1e-6);
    CHECK(rules.insert(f.rule).second);
    if (i > 0) CHECK(a.findings[i - 1].recoverable_ns >= f.recoverable_ns);
    sum += f.recoverable_ns;
  }
  CHECK(sum <= a.span_ns + 1e-6);
}

}  // namespace

TEST_CASE("advise on the BM1684X capture: the hand-checked findings, invariants") {
  const auto r = advise_capture("bm1684x/bmprofile_data-1");
  const auto& a = r.a;
  check_invariants(a);
  CHECK(a.span_ns == doctest::Approx(213519));
  std::vector<std::string_view> rules;
  for (const auto& f : a.findings) rules.push_back(f.rule);
  CHECK(rules == std::vector<std::string_view>{"lane-underuse", "starved-tiu", "dispatch",
                                               "over-estimate", "low-uarch", "bank-conflict"});
  REQUIRE(a.findings.size() == 6);
  // lane-underuse: 26 convs, sum of duration x (1 - ic/align(ic) x oc/align(oc)) = 29 743 ns
  const auto& lanes = a.findings[0];
  CHECK(lanes.bucket_ns == doctest::Approx(29743).epsilon(1e-4));
  CHECK(lanes.recoverable_ns == doctest::Approx(24246).epsilon(0.01));
  REQUIRE(lanes.commands.size() >= 3);
  // conv 14 and 18 (8279 ns each), then conv 12 (5230 ns)
  CHECK(std::set<std::uint32_t>{r.g.events[lanes.commands[0]].cmd_id,
                                r.g.events[lanes.commands[1]].cmd_id} ==
        std::set<std::uint32_t>{14, 18});
  CHECK(r.g.events[lanes.commands[2]].cmd_id == 12);
  // starved-tiu: GDMA 155 and 145, 13-15x slower than their size's median
  const auto& starved = a.findings[1];
  REQUIRE(starved.commands.size() == 2);
  std::set<std::uint32_t> ids;
  for (auto n : starved.commands) {
    CHECK(r.g.events[n].engine == tpuprof::engine::gdma);
    ids.insert(r.g.events[n].cmd_id);
  }
  CHECK(ids == std::set<std::uint32_t>{145, 155});
  CHECK(starved.recoverable_ns == doctest::Approx(15235).epsilon(0.01));
  // dispatch: the network's first load, 7782 ns after the firmware's load ended
  const auto& late = a.findings[2];
  CHECK(late.bucket_ns == doctest::Approx(7782).epsilon(1e-3));
  REQUIRE(late.layers.size() == 1);
  CHECK(late.layers[0] == 20);
  // low-uarch is now 1.7 us (docs/analysis.md)
  CHECK(a.findings[4].recoverable_ns == doctest::Approx(1701).epsilon(0.02));
}

TEST_CASE("advise on the BM1690 capture: no finding (the span ends after the program)") {
  const auto r = advise_capture("bm1690/cdm_profile_data_dev0");
  check_invariants(r.a);
  CHECK(r.a.span_ns == doctest::Approx(486782));
  CHECK(r.a.findings.empty());
}
#endif
