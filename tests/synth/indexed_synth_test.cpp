// Synthetic BM1688 / CV184X dumps (synth/indexed_synth.hpp) round-trip through the decoder:
// every event equals the one the generator intended (computed with the vendor's arithmetic).
#include <sys/wait.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/synth/indexed_synth.hpp>

#include "test_util.hpp"

using tpuprof::engine;
using tpuprof::synth::generated_dump;
using tpuprof::synth::indexed_options;

namespace {

bool same_rate(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::fabs(a - b) <= 1e-6f * std::fabs(b);
}

/// Every decoded event equals the intended one, field by field.
void check_events(const generated_dump& g, const std::vector<tpuprof::engine_event>& got,
                  const tpuprof::name_table& names) {
  REQUIRE(got.size() == g.expected.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size() && bad < 5; ++i) {
    const auto& a = got[i];
    const auto& b = g.expected[i];
    CAPTURE(i);
    const bool ok = a.engine == b.engine && a.unit == b.unit && a.cmd_id == b.cmd_id &&
                    a.begin_cycle == b.begin_cycle && a.end_cycle == b.end_cycle &&
                    a.begin_ns == b.begin_ns && a.end_ns == b.end_ns && a.bytes == b.bytes &&
                    a.has_bytes() == b.has_bytes() && a.dir() == b.dir() &&
                    a.matched() == b.matched() && a.layer_id == b.layer_id &&
                    names[a.op] == g.names[b.op] && names[a.op_type] == g.names[b.op_type] &&
                    same_rate(a.uarch_rate, b.uarch_rate);
    if (!ok) {
      ++bad;
      CHECK(a.engine == b.engine);
      CHECK(a.unit == b.unit);
      CHECK(a.cmd_id == b.cmd_id);
      CHECK(a.begin_cycle == b.begin_cycle);
      CHECK(a.end_cycle == b.end_cycle);
      CHECK(a.begin_ns == b.begin_ns);
      CHECK(a.bytes == b.bytes);
      CHECK(a.dir() == b.dir());
      CHECK(a.layer_id == b.layer_id);
      CHECK(names[a.op] == g.names[b.op]);
      CHECK(names[a.op_type] == g.names[b.op_type]);
      CHECK(a.uarch_rate == doctest::Approx(b.uarch_rate));
    }
  }
  CHECK(bad == 0);
}

template <class Chip>
tpuprof::bmprofile_decoder<Chip> check_round_trip(const generated_dump& g) {
  tpuprof::bmprofile_decoder<Chip> d(g.as_files());
  std::vector<tpuprof::engine_event> got;
  for (const auto& e : d.events()) got.push_back(e);
  check_events(g, got, d.info().names);
  CHECK(d.info().diagnostics[tpuprof::diag::unmatched_record] == 0);
  CHECK(d.info().diagnostics[tpuprof::diag::unknown_enum] == 0);
  CHECK(d.info().diagnostics[tpuprof::diag::missing_file] == 0);
  return d;
}

template <class Chip>
void round_trips(unsigned cores) {
  for (std::uint64_t seed : {1, 2, 3, 17}) {
    CAPTURE(seed);
    indexed_options o;
    o.seed = seed;
    o.cores = cores;
    o.layers = 40 + seed * 10;
    const auto g = tpuprof::synth::indexed_dump<Chip>(o);
    const auto d = check_round_trip<Chip>(g);
    CHECK(d.info().cores == cores);
    CHECK(d.info().diagnostics[tpuprof::diag::cycle_wrap] == 0);
  }
}

}  // namespace

TEST_CASE("synthetic BM1688 dumps round-trip, 1 core, several seeds") {
  round_trips<tpuprof::chips::bm1688>(1);
}
TEST_CASE("synthetic BM1688 dumps round-trip, 2 cores aligned on wait_msg, several seeds") {
  round_trips<tpuprof::chips::bm1688>(2);
}
TEST_CASE("synthetic CV184X dumps round-trip, several seeds") {
  round_trips<tpuprof::chips::cv184x>(1);
}

TEST_CASE("synthetic 2-core BM1688: send_msg dropped, both cores' wait_msg start together") {
  indexed_options o;
  o.cores = 2;
  o.layers = 30;
  o.seed = 5;
  const auto g = tpuprof::synth::indexed_dump<tpuprof::chips::bm1688>(o);
  const auto d = check_round_trip<tpuprof::chips::bm1688>(g);
  const auto& names = d.info().names;
  std::vector<tpuprof::engine_event> first(2);
  std::size_t seen[2] = {0, 0};
  for (const auto& e : d.events(engine::tiu))
    if (seen[e.unit]++ == 0) first[e.unit] = e;
  for (int c = 0; c < 2; ++c) {
    CAPTURE(c);
    CHECK(names[first[c].op] == "system.wait_msg");
    CHECK(first[c].cmd_id == 1);  // command 0, the send, belongs to the previous run
  }
  CHECK(first[0].begin_ns == first[1].begin_ns);
  CHECK(first[0].begin_ns > 0);  // the GDMA stream starts first: one common origin
}

TEST_CASE("synthetic dumps with a 32-bit counter wrap decode to the unwrapped counters' events") {
  for (unsigned wrap : {1u, 2u})
    for (unsigned cores : {1u, 2u})
      for (int chip = 0; chip < 2; ++chip) {
        if (chip == 1 && cores == 2) continue;
        CAPTURE(wrap);
        CAPTURE(cores);
        CAPTURE(chip);
        indexed_options o;
        o.cores = cores;
        o.layers = 60;
        o.seed = 20 + wrap;
        o.cycle_wrap = wrap;
        indexed_options plain = o;
        plain.cycle_wrap = 0;
        std::vector<tpuprof::engine_event> a, b;
        auto decode = [&](const indexed_options& x, std::vector<tpuprof::engine_event>& out) {
          std::uint64_t wraps = 0;
          auto run = [&]<class C>() {
            const auto g = tpuprof::synth::indexed_dump<C>(x);
            const auto d = check_round_trip<C>(g);  // == the expected events of the 64-bit counters
            for (const auto& e : d.events()) out.push_back(e);
            wraps = d.info().diagnostics[tpuprof::diag::cycle_wrap];
          };
          if (chip == 0)
            run.operator()<tpuprof::chips::bm1688>();
          else
            run.operator()<tpuprof::chips::cv184x>();
          return wraps;
        };
        CHECK(decode(o, a) >= 1);
        CHECK(decode(plain, b) == 0);
        // The same program with and without the wrap: equal events; cycles may differ by the
        // vendor's two truncations (ns of the raw value, then cycles) of other raw values.
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
          CAPTURE(i);
          CHECK(a[i].cmd_id == b[i].cmd_id);
          CHECK(a[i].unit == b[i].unit);
          CHECK(a[i].bytes == b[i].bytes);
          CHECK(a[i].layer_id == b[i].layer_id);
          CHECK(std::llabs(static_cast<long long>(a[i].begin_cycle - b[i].begin_cycle)) <= 2);
          CHECK(std::llabs(static_cast<long long>(a[i].end_cycle - b[i].end_cycle)) <= 2);
        }
      }
}

// The dumps run through tpu-mlir's tpu_profile.py (tools/vendor_check/
// bm1688_cv184x_synth_vs_tpu_profile.py, docs/chips/bm1688.md "Synthetic dumps"): `tpuprof synth
// --chip C --cores N --records R --seed S [--cycle-wrap]` uses layers = R / 2 and cycle_wrap = 1.
// The vendor reported these counts and, record by record, the events our decoder produces; here
// the decoder must reproduce every intended event, so the vendor's events are the intended ones
// (except after a wrap, which the vendor does not undo).
TEST_CASE("the vendor-checked BM1688 / CV184X dumps round-trip with the vendor's counts") {
  struct vendor_case {
    int chip;
    unsigned cores, records;
    std::uint64_t seed;
    unsigned wrap;
    std::size_t tiu, gdma;
  };
  for (const auto& c :
       {vendor_case{0, 1, 400, 11, 0, 500, 466}, vendor_case{0, 2, 400, 12, 0, 1017, 936},
        vendor_case{0, 2, 4000, 13, 0, 10115, 9371}, vendor_case{1, 1, 400, 14, 0, 515, 448},
        vendor_case{1, 1, 4000, 15, 0, 5023, 4707}, vendor_case{0, 1, 400, 16, 1, 507, 471},
        vendor_case{0, 2, 400, 17, 1, 998, 892}}) {
    CAPTURE(c.seed);
    indexed_options o;
    o.cores = c.cores;
    o.layers = c.records / 2;
    o.seed = c.seed;
    o.cycle_wrap = c.wrap;
    const auto g = c.chip == 0 ? tpuprof::synth::indexed_dump<tpuprof::chips::bm1688>(o)
                               : tpuprof::synth::indexed_dump<tpuprof::chips::cv184x>(o);
    if (c.chip == 0)
      check_round_trip<tpuprof::chips::bm1688>(g);
    else
      check_round_trip<tpuprof::chips::cv184x>(g);
    std::size_t tiu = 0, gdma = 0;
    for (const auto& e : g.expected) ++(e.engine == engine::tiu ? tiu : gdma);
    CHECK(tiu == c.tiu);
    CHECK(gdma == c.gdma);
  }
}

TEST_CASE("indexed_dump refuses a core count the chip does not have") {
  indexed_options o;
  o.cores = 2;
  CHECK_THROWS_AS(tpuprof::synth::indexed_dump<tpuprof::chips::cv184x>(o), std::invalid_argument);
  o.cores = 3;
  CHECK_THROWS_AS(tpuprof::synth::indexed_dump<tpuprof::chips::bm1688>(o), std::invalid_argument);
}

TEST_CASE("synthetic BM1688 dump written to a directory opens with chip detection") {
  indexed_options o;
  o.cores = 2;
  o.layers = 20;
  const auto g = tpuprof::synth::indexed_dump<tpuprof::chips::bm1688>(o);
  const auto dir = std::filesystem::path(TPUPROF_TEST_TMP) / "synth_bm1688_2core";
  std::filesystem::remove_all(dir);
  g.write_directory(dir);
  const auto t = tpuprof::open(dir);
  CHECK(t.info().chip == "BM1688");
  CHECK(t.info().cores == 2);
  std::vector<tpuprof::engine_event> got;
  for (const auto& e : t.events()) got.push_back(e);
  check_events(g, got, t.info().names);
}

#if defined(TPUPROF_CLI)
namespace {
using test_util::run_cli;
}  // namespace

TEST_CASE("cli: synth --chip bm1688|cv184x, then info and convert") {
  struct run_case {
    const char *chip, *args, *name;
    unsigned cores;
  };
  for (const auto& c :
       {run_case{"bm1688", "", "BM1688", 2}, run_case{"bm1688", "--cores 1", "BM1688", 1},
        run_case{"cv184x", "", "CV184X", 1}}) {
    CAPTURE(c.chip);
    CAPTURE(c.cores);
    const auto dir = std::filesystem::path(TPUPROF_TEST_TMP) /
                     ("cli_synth_" + std::string(c.chip) + std::to_string(c.cores));
    std::filesystem::remove_all(dir);
    auto r = run_cli(std::string("synth --chip ") + c.chip + " " + c.args +
                     " --records 60 --seed 4 -o " + (dir / "dump").string());
    REQUIRE(r.code == 0);
    const auto p = r.out.find("chip, ");
    REQUIRE(p != std::string::npos);
    const auto events = std::stoul(r.out.substr(p + 6));
    r = run_cli("info " + (dir / "dump").string());
    REQUIRE(r.code == 0);
    CHECK(r.out.find(std::string("chip      ") + c.name) != std::string::npos);
    CHECK(r.out.find("cores " + std::to_string(c.cores)) != std::string::npos);
    CHECK(r.out.find("diagnostics  none") != std::string::npos);
    r = run_cli("convert " + (dir / "dump").string() + " --csv -o " + (dir / "out").string());
    REQUIRE(r.code == 0);
    std::ifstream csv(dir / "out" / "events.csv");
    std::string line;
    std::size_t rows = 0;
    REQUIRE(std::getline(csv, line));
    CHECK(line.rfind("device,core,engine,cmd_id,", 0) == 0);
    while (std::getline(csv, line)) ++rows;
    CHECK(rows == events);
  }
  CHECK(run_cli("synth --chip bm1688 --cores 3 -o " + std::string(TPUPROF_TEST_TMP) + "/x").code ==
        2);
}
#endif
