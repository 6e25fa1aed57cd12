// tpuprof advise: each rule on a small hand-built trace with a hand-computed
// recoverable time, and the invariants (recoverable <= bucket, sum <= span) on
// every sample.
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/advisor.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/roofline.hpp>
#include <tpuprof/open.hpp>

#include "algo/graph_test_util.hpp"

using namespace tpuprof;

namespace {

using graph_test::dep;
using graph_test::ev;

engine_event dma(std::uint32_t id, double b, double en, std::uint64_t bytes) {
  engine_event x = ev(engine::gdma, id, b, en);
  x.bytes = bytes;
  x.set_flag(engine_event::flag_has_bytes);
  x.set_dir(direction::s2l);
  return x;
}

/// The findings of `events` (+ `deps`), with the invariants checked.
algo::advice run(const std::vector<engine_event>& events, const std::vector<command_dep>& deps,
                 const name_table& names, algo::advise::context* extra = nullptr) {
  const auto g = algo::build_dependency_graph(events, deps);
  auto c = algo::make_context(g, names);
  if (extra) {
    c.ceilings = extra->ceilings;
    c.operands = extra->operands;
    c.estimate_ns = extra->estimate_ns;
  }
  auto a = algo::advise_findings(c);
  double sum = 0;
  for (const auto& f : a.findings) {
    CHECK(f.recoverable_ns >= 0);
    CHECK(f.recoverable_ns <= f.bucket_ns + 1e-6);
    sum += f.recoverable_ns;
  }
  CHECK(sum <= a.span_ns + 1e-6);
  return a;
}

const algo::finding* find(const algo::advice& a, std::string_view rule) {
  for (const auto& f : a.findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

std::vector<command_dep> no_waits(std::size_t n) {
  std::vector<command_dep> d;
  for (std::size_t i = 0; i < n; ++i)
    d.push_back(dep(static_cast<std::uint32_t>(i + 1), 0, engine::tiu));
  return d;
}

}  // namespace

TEST_CASE("advise dispatch: a late issue, cut to the queue's median gap") {
  // TIU [0,10] [12,20] [22,30] [32,40] [1040,1050]: gaps 2, 2, 2, 1000 (median 2).
  std::vector<engine_event> e{ev(engine::tiu, 1, 0, 10), ev(engine::tiu, 2, 12, 20),
                              ev(engine::tiu, 3, 22, 30), ev(engine::tiu, 4, 32, 40),
                              ev(engine::tiu, 5, 1040, 1050)};
  name_table names;
  const auto a = run(e, no_waits(e.size()), names);
  REQUIRE(a.findings.size() == 1);
  CHECK(a.findings[0].rule == "dispatch");
  CHECK(a.findings[0].recoverable_ns == doctest::Approx(998));
  CHECK(a.findings[0].bucket_ns == doctest::Approx(1000));
  CHECK(a.findings[0].severity == algo::severity::error);  // 998 of 1050
  CHECK(a.findings[0].id == "F1");
}

TEST_CASE(
    "advise starved-tiu: one transfer 12x slower than its size, fixed by the median slowdown") {
  // 24 loads of 4096 B, 100 ns each, 2 ns apart; the 11th takes 1200 ns.
  std::vector<engine_event> e;
  double t = 0;
  for (std::uint32_t i = 0; i < 24; ++i) {
    const double d = i == 10 ? 1200 : 100;
    e.push_back(dma(i + 1, t, t + d, 4096));
    t += d + 2;
  }
  name_table names;
  const auto a = run(e, no_waits(e.size()), names);
  const auto* f = find(a, "starved-tiu");
  REQUIRE(f);
  CHECK(f->recoverable_ns == doctest::Approx(1100));
  CHECK(f->commands.size() == 1);
  CHECK(find(a, "small-dma") == nullptr);
}

TEST_CASE("advise small-dma: a run of 256 B pieces merged at the plateau") {
  // 20 transfers of 64 KiB in 1000 ns (65.536 GB/s), then 8 pieces of 256 B of 300 ns.
  std::vector<engine_event> e;
  double t = 0;
  for (std::uint32_t i = 0; i < 28; ++i) {
    const bool piece = i >= 20;
    const double d = piece ? 300 : 1000;
    e.push_back(dma(i + 1, t, t + d, piece ? 256 : 65536));
    t += d + 1;
  }
  name_table names;
  const auto a = run(e, no_waits(e.size()), names);
  const auto* f = find(a, "small-dma");
  REQUIRE(f);
  // 2048 B at 65.536 GB/s = 31.25 ns instead of 8 x 300.
  CHECK(f->recoverable_ns == doctest::Approx(2400 - 31.25));
  CHECK(find(a, "starved-tiu") == nullptr);
}

TEST_CASE("advise bank-conflict: input and output in one bank, fixed at half the time") {
  std::vector<engine_event> e{ev(engine::tiu, 1, 0, 100), ev(engine::tiu, 2, 101, 201)};
  std::vector<std::vector<regs::mem_operand>> ops(2);
  ops[0] = {{0, 64, 64, regs::mem_kind::local, false, 0},
            {100, 64, 64, regs::mem_kind::local, true, 0}};  // bank 0 read and written
  ops[1] = {{0, 64, 64, regs::mem_kind::local, false, 0},
            {16384, 64, 64, regs::mem_kind::local, true, 0}};  // bank 0 -> bank 1
  algo::advise::context extra;
  extra.ceilings.lmem_bytes = 1u << 18;
  extra.ceilings.lmem_banks = 16;
  extra.operands = [&](std::uint32_t n) { return std::span<const regs::mem_operand>(ops[n]); };
  name_table names;
  const auto a = run(e, no_waits(e.size()), names, &extra);
  const auto* f = find(a, "bank-conflict");
  REQUIRE(f);
  CHECK(f->recoverable_ns == doctest::Approx(50));
  REQUIRE(f->commands.size() == 1);
  CHECK(f->commands[0] == 0);
}

TEST_CASE("advise lane-underuse: a conv of 24 channels on 64 lanes runs at rate 24/64") {
  name_table names;
  std::vector<engine_event> e{ev(engine::tiu, 1, 0, 800), ev(engine::tiu, 2, 801, 901)};
  e[0].op = names.intern("conv.normal");
  e[0].uarch_rate = 0.375f;
  e[1].op = names.intern("arith.add");
  e[1].uarch_rate = 1.0f;
  algo::advise::context extra;
  extra.ceilings.lanes = 64;
  const auto a = run(e, no_waits(e.size()), names, &extra);
  const auto* f = find(a, "lane-underuse");
  REQUIRE(f);
  CHECK(f->recoverable_ns == doctest::Approx(500));
  CHECK(algo::advise::lanes_explain(0.375, 64));
  CHECK(algo::advise::lanes_explain(100.0 / 128, 64));
  CHECK_FALSE(algo::advise::lanes_explain(0.64086914, 64));
  CHECK_FALSE(algo::advise::lanes_explain(1.0, 64));
}

TEST_CASE("advise core-imbalance: work moved to the mean of the cores") {
  std::vector<engine_event> e{ev(engine::tiu, 1, 0, 1300, 0), ev(engine::tiu, 1, 0, 700, 1)};
  name_table names;
  const auto a = run(e, no_waits(e.size()), names);
  const auto* f = find(a, "core-imbalance");
  REQUIRE(f);
  CHECK(f->recoverable_ns == doctest::Approx(300));
}

TEST_CASE("advise serial-dma: a load waits for the previous layer's compute") {
  // TIU w (layer 0) [0,100], x (layer 1) [102,200], y (layer 2) [302,400] waits for load n;
  // GDMA load n (layer 2) [202,300] waits for x. Double-buffered, n waits for w: n [102,200],
  // y [202,300]: 100 ns recovered.
  std::vector<engine_event> e{ev(engine::tiu, 1, 0, 100), ev(engine::tiu, 2, 102, 200),
                              ev(engine::tiu, 3, 302, 400), dma(1, 202, 300, 4096)};
  e[0].layer_id = 0;
  e[1].layer_id = 1;
  e[2].layer_id = 2;
  e[3].layer_id = 2;
  std::vector<command_dep> d{dep(1, 0, engine::gdma), dep(2, 0, engine::gdma),
                             dep(3, 1, engine::gdma), dep(1, 2, engine::tiu)};
  name_table names;
  const auto a = run(e, d, names);
  const auto* f = find(a, "serial-dma");
  REQUIRE(f);
  CHECK(f->recoverable_ns == doctest::Approx(100));
  CHECK(f->bucket_ns == doctest::Approx(200));
  CHECK(f->layers.front() == 2);
}

TEST_CASE("roofline: bytes by path and bound classes; unknown without dependency data") {
  std::vector<engine_event> e{ev(engine::tiu, 1, 0, 900), dma(1, 0, 100, 1000)};
  e[0].layer_id = e[1].layer_id = 7;
  const auto g = algo::build_dependency_graph(e, no_waits(2));
  const auto r = algo::roofline(g, algo::idle_causes(g), chip_ceilings{});
  REQUIRE(r.size() == 1);
  CHECK(r[0].bound == algo::bound_class::compute);
  CHECK(r[0].ddr_bytes == 1000);
  CHECK(std::isnan(r[0].alg_ops));
  const auto none = algo::build_dependency_graph(e);
  CHECK(algo::roofline(none, algo::idle_causes(none), {})[0].bound == algo::bound_class::unknown);
  const std::vector<double> ops{2e6, std::nan("")};
  chip_ceilings c;
  c.peak_int8_ops = 1e12;
  c.ddr_bytes_per_s = 1e9;
  const auto w = algo::roofline(g, algo::idle_causes(g), c, ops);
  CHECK(w[0].intensity == doctest::Approx(2000));
  CHECK(w[0].achieved_ops_per_s == doctest::Approx(2e6 / 900e-9));
  CHECK(w[0].attainable_ops_per_s == doctest::Approx(1e12));  // min(1e12, 2000 x 1e9)
}

#ifdef TPUPROF_SAMPLES_DIR
TEST_CASE("advise invariants on every sample: recoverable <= bucket, sum <= span, known rules") {
  const std::set<std::string_view> rules{"starved-tiu",   "serial-dma", "lane-underuse",
                                         "bank-conflict", "small-dma",  "core-imbalance",
                                         "dispatch",      "low-uarch",  "over-estimate"};
  for (const char* d :
       {"bm1684x/bmprofile_data-1", "bm1688/bmprofile_data-1", "bm1690/cdm_profile_data_dev0",
        "cv184x/bmprofile_data-1", "synthetic/aks_mode1_seed1",
        "synthetic/aks_mode1_cyclewrap_seed1", "synthetic/aksv_mode0_cdma2_seed1"}) {
    CAPTURE(d);
    open_options o;
    o.dependencies = true;
    o.keep_operands = true;
    o.time = time_base::shared_counter;
    const auto t = open(std::string(TPUPROF_SAMPLES_DIR) + "/" + d, o);
    const auto g = algo::build_dependency_graph(t);
    auto c = algo::make_context(g, t.info().names);
    c.operands = [&t](std::uint32_t n) { return t.operands(t.events()[n]); };
    const auto a = algo::advise_findings(c);
    double sum = 0;
    std::set<std::string_view> seen;
    for (const auto& f : a.findings) {
      CHECK(rules.count(f.rule) == 1);
      CHECK(seen.insert(f.rule).second);  // one finding per rule
      CHECK(f.recoverable_ns >= 0);
      CHECK(f.recoverable_ns <= f.bucket_ns + 1e-6);
      sum += f.recoverable_ns;
    }
    CHECK(sum <= a.span_ns + 1e-6);
    for (std::size_t i = 1; i < a.findings.size(); ++i)
      CHECK(a.findings[i - 1].recoverable_ns >= a.findings[i].recoverable_ns);
    if (!g.has_data())
      for (const auto& l : algo::roofline(g, c.idle, {}))
        CHECK(l.bound == algo::bound_class::unknown);
  }
}
#endif
