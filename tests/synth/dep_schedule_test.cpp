// --deps: generated dumps scheduled from the dependencies written into their descriptors
// (synth/dep_schedule.hpp), and --scale, the ground truth for what-if predictions.
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>
#include <tpuprof/synth/cdm_synth.hpp>
#include <tpuprof/synth/dep_schedule.hpp>

using tpuprof::engine;
using tpuprof::engine_event;
using tpuprof::synth::sched_cmd;

namespace {

/// What the written dependencies say about a decoded trace.
struct dep_stats {
  std::size_t deps = 0, unresolved = 0, violated = 0;
  std::size_t binding = 0;  ///< start - awaited end <= 8 cycles
};

/// Checks every TIU <-> GDMA dependency of `events`: the awaited command is the event of the
/// other engine on the same unit whose `key` equals the descriptor's dep_id.
template <class Cmd>
dep_stats check_deps(const std::vector<engine_event>& events, Cmd&& command,
                     const std::function<std::uint32_t(const engine_event&)>& key) {
  std::map<std::tuple<engine, unsigned, std::uint32_t>, const engine_event*> by_id;
  for (const auto& e : events)
    if (command(e)) by_id[{e.engine, e.unit, key(e)}] = &e;
  dep_stats s;
  for (const auto& e : events) {
    const auto* c = command(e);
    if (!c || c->dep_id == 0 || (e.engine != engine::tiu && e.engine != engine::gdma)) continue;
    ++s.deps;
    const engine other = e.engine == engine::tiu ? engine::gdma : engine::tiu;
    auto it = by_id.find({other, e.unit, c->dep_id});
    if (it == by_id.end()) {
      ++s.unresolved;
      continue;
    }
    const engine_event& a = *it->second;
    if (e.begin_cycle < a.end_cycle) ++s.violated;
    if (e.begin_cycle >= a.end_cycle && e.begin_cycle - a.end_cycle <= 8) ++s.binding;
  }
  return s;
}

std::vector<engine_event> all_events(const auto& d) {
  std::vector<engine_event> v;
  for (const auto& e : d.events()) v.push_back(e);
  return v;
}

tpuprof::synth::generated_dump bm1684x(std::uint64_t seed, const char* scale = nullptr) {
  tpuprof::synth::bm1684x_options o;
  o.seed = seed;
  o.layers = 150;
  o.deps.enabled = true;
  if (scale) o.deps.parse_scale(scale);
  return tpuprof::synth::bm1684x_dump(o);
}

template <class Chip>
tpuprof::synth::cdm_synth_result sg2260(std::uint64_t seed, const char* scale = nullptr) {
  tpuprof::synth::cdm_synth_options o;
  o.mode = 2;
  o.records = 300;
  o.cores = 2;
  o.seed = seed;
  o.deps.enabled = true;
  if (scale) o.deps.parse_scale(scale);
  return tpuprof::synth::synthesize_cdm<Chip>(o);
}

tpuprof::cdm::cdm_options keep() {
  tpuprof::cdm::cdm_options o;
  o.keep_instructions = true;
  return o;
}

}  // namespace

TEST_CASE("dependency schedule: a hand-checked four-command program") {
  // GDMA load; TIU op waiting on it; TIU op; GDMA store waiting on the second TIU op.
  // Queue 0 (TIU) free from 0, queue 1 (GDMA) from 100; sync latency 4.
  auto program = [] {
    return std::vector<sched_cmd>{{engine::gdma, 1, 50, 10, -1, 0, 0},
                                  {engine::tiu, 0, 30, 5, 0, 0, 0},
                                  {engine::tiu, 0, 20, 3, -1, 0, 0},
                                  {engine::gdma, 1, 40, 2, 2, 0, 0}};
  };
  auto run = [&](const char* scale) {
    tpuprof::synth::dep_options o;
    o.enabled = true;
    if (scale) o.parse_scale(scale);
    auto p = program();
    std::vector<std::int64_t> free{0, 100};
    tpuprof::synth::schedule(p, free, o);
    std::vector<std::int64_t> t;
    for (const auto& c : p) {  // push_back: GCC 12 -O3 warns (falsely) on insert of a list
      t.push_back(c.begin);
      t.push_back(c.end);
    }
    return t;
  };
  // load 110..160 (100 + issue 10); TIU waits: max(0 + 5, 160 + 4) = 164..194; next TIU
  // 194 + 3 = 197..217; store: max(160 + 2, 217 + 4) = 221..261.
  CHECK(run(nullptr) == std::vector<std::int64_t>{110, 160, 164, 194, 197, 217, 221, 261});
  // GDMA twice as fast: load 110..135; TIU 139..169, 172..192; store max(137, 196) = 196..216.
  CHECK(run("gdma=0.5") == std::vector<std::int64_t>{110, 135, 139, 169, 172, 192, 196, 216});
  // TIU at half speed: TIU 164..224, 227..267; store max(162, 271) = 271..311.
  CHECK(run("tiu=2") == std::vector<std::int64_t>{110, 160, 164, 224, 227, 267, 271, 311});

  tpuprof::synth::dep_options o;
  CHECK(o.scaled(engine::gdma, 7) == 7);
  o.parse_scale("gdma=0.5");
  CHECK(o.scaled(engine::gdma, 7) == 4);  // llround(3.5)
  CHECK(o.scaled(engine::gdma, 1) == 1);  // never below one cycle
  CHECK(o.scaled(engine::tiu, 7) == 7);
  for (const char* bad : {"gdma", "gdma=", "gdma=0", "gdma=-1", "gdma=x", "mcu=2", "=2", "tiu=2x"})
    CHECK_THROWS_AS(o.parse_scale(bad), std::invalid_argument);
}

TEST_CASE("BM1684X --deps: the decoded events respect every written dependency") {
  for (std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    const auto g = bm1684x(seed);
    const tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d(g.as_files());
    const auto ev = all_events(d);
    REQUIRE(ev.size() == g.expected.size());
    for (std::size_t i = 0; i < ev.size(); ++i) {  // the decoder reads the intended times
      CHECK(ev[i].begin_cycle == g.expected[i].begin_cycle);
      CHECK(ev[i].end_cycle == g.expected[i].end_cycle);
    }
    auto cmd = [&](const engine_event& e) { return d.command(e); };
    const auto s = check_deps(ev, cmd, [&](const engine_event& e) { return cmd(e)->cmd_id; });
    CHECK(s.deps > 300);  // every TIU op, most loads, every store, sys.end
    CHECK(s.unresolved == 0);
    CHECK(s.violated == 0);
    CHECK(s.binding > 100);
  }
  // The historical schedule (no --deps) does not keep its written dependencies: a layer's
  // loads name the previous layer's last TIU op but start as soon as GDMA is free.
  tpuprof::synth::bm1684x_options o;
  o.layers = 150;
  const auto g = tpuprof::synth::bm1684x_dump(o);
  const tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d(g.as_files());
  auto cmd = [&](const engine_event& e) { return d.command(e); };
  CHECK(check_deps(all_events(d), cmd, [&](const engine_event& e) {
          return cmd(e)->cmd_id;
        }).violated > 0);
}

TEST_CASE_TEMPLATE("SG2260 mode 2 --deps: the decoded events respect every written dependency",
                   Chip, tpuprof::chips::aks, tpuprof::chips::aksv) {
  for (std::uint64_t seed : {1, 2}) {
    CAPTURE(seed);
    const auto g = sg2260<Chip>(seed);
    const tpuprof::cdm::cdm_decoder<Chip> d(tpuprof::synth::as_dump_files(g), keep());
    const auto& ev = d.events();
    REQUIRE(ev.size() == g.expected.hw.size());
    for (std::size_t i = 0; i < ev.size(); ++i) {
      CHECK(ev[i].begin_cycle == g.expected.hw[i].begin_cycle);
      CHECK(ev[i].end_cycle == g.expected.hw[i].end_cycle);
    }
    const std::vector<engine_event> v(ev.begin(), ev.end());
    const auto s = check_deps(
        v, [&](const engine_event& e) { return d.command(e); },
        [](const engine_event& e) { return e.cmd_id; });
    CHECK(s.deps > 400);  // about half of 2 x 2 x 300 TIU and GDMA commands
    CHECK(s.unresolved == 0);
    CHECK(s.violated == 0);
    CHECK(s.binding > 50);
  }
}

TEST_CASE("--scale gdma=0.5 / tiu=2: same commands and dependencies, scaled durations") {
  auto same_but_durations = [](const std::vector<engine_event>& a,
                               const std::vector<engine_event>& b, engine scaled, double f,
                               auto&& dep_a, auto&& dep_b) {
    REQUIRE(a.size() == b.size());
    std::size_t moved = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      CAPTURE(i);
      REQUIRE(a[i].engine == b[i].engine);
      CHECK(a[i].cmd_id == b[i].cmd_id);
      CHECK(a[i].op == b[i].op);
      CHECK(a[i].bytes == b[i].bytes);
      CHECK(dep_a(a[i]) == dep_b(b[i]));
      const auto d = static_cast<std::int64_t>(a[i].cycles());
      const auto want = a[i].engine == scaled
                            ? std::max<std::int64_t>(1, std::llround(static_cast<double>(d) * f))
                            : d;
      CHECK(static_cast<std::int64_t>(b[i].cycles()) == want);
      moved += a[i].begin_cycle != b[i].begin_cycle;
    }
    CHECK(moved > a.size() / 2);
  };
  SUBCASE("BM1684X") {
    for (const auto& [scale, eng, f] :
         {std::tuple{"gdma=0.5", engine::gdma, 0.5}, std::tuple{"tiu=2", engine::tiu, 2.0}}) {
      CAPTURE(scale);
      const auto g1 = bm1684x(4), g2 = bm1684x(4, scale);
      REQUIRE(g1.files.size() == g2.files.size());
      for (std::size_t i = 0; i < g1.files.size(); ++i)  // only iter0.profile holds times
        if (g1.files[i].first != "iter0.profile") CHECK(g1.files[i].second == g2.files[i].second);
      const tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d1(g1.as_files()),
          d2(g2.as_files());
      auto dep = [](const auto& d) {
        return [&d](const engine_event& e) { return d.command(e) ? d.command(e)->dep_id : ~0u; };
      };
      same_but_durations(all_events(d1), all_events(d2), eng, f, dep(d1), dep(d2));
      auto cmd = [&](const engine_event& e) { return d2.command(e); };
      CHECK(check_deps(all_events(d2), cmd, [&](const engine_event& e) {
              return cmd(e)->cmd_id;
            }).violated == 0);
    }
  }
  SUBCASE("SG2260 mode 2") {
    for (const auto& [scale, eng, f] :
         {std::tuple{"gdma=0.5", engine::gdma, 0.5}, std::tuple{"tiu=2", engine::tiu, 2.0}}) {
      CAPTURE(scale);
      const auto g1 = sg2260<tpuprof::chips::aks>(5), g2 = sg2260<tpuprof::chips::aks>(5, scale);
      CHECK(g1.files.at("global.profile") == g2.files.at("global.profile"));
      const tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d1(tpuprof::synth::as_dump_files(g1),
                                                              keep());
      const tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d2(tpuprof::synth::as_dump_files(g2),
                                                              keep());
      const std::vector<engine_event> a(d1.events().begin(), d1.events().end());
      const std::vector<engine_event> b(d2.events().begin(), d2.events().end());
      for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)  // same kernel functions
        CHECK(a[i].function == b[i].function);
      auto dep = [](const auto& d) {
        return [&d](const engine_event& e) { return d.command(e) ? d.command(e)->dep_id : ~0u; };
      };
      same_but_durations(a, b, eng, f, dep(d1), dep(d2));
      CHECK(check_deps(
                b, [&](const engine_event& e) { return d2.command(e); },
                [](const engine_event& e) { return e.cmd_id; })
                .violated == 0);
    }
  }
}
