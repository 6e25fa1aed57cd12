// Synthetic BM1688 / CV184X dumps (synth/indexed_synth.hpp) round-trip through the decoder:
// every event equals the one the generator intended (computed with the vendor's arithmetic).
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/synth/indexed_synth.hpp>

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
