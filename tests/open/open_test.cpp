// tpuprof::open: the same events as the typed decoders on every sample, parent
// directories of several dumps, caller-owned buffers, options, and errors.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/open.hpp>
#include <tpuprof/views/filter.hpp>
#include <tpuprof/views/idle_gaps.hpp>

#include "test_util.hpp"

namespace fs = std::filesystem;
using namespace tpuprof;

namespace {

bool same(const engine_event& a, const engine_event& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;  // bit for bit, NaN uarch rates included
}

/// Every event of `got` equals the one at the same position of `want`.
template <class A, class B>
void check_same_events(const A& got, B&& want) {
  std::vector<engine_event> g(got.begin(), got.end()), w;
  for (const engine_event& e : want) w.push_back(e);
  REQUIRE(g.size() == w.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < g.size(); ++i) differ += !same(g[i], w[i]);
  CHECK(differ == 0);
}

/// open()'s trace equals `want` (a typed decoder or a materialized trace):
/// info, every event and span, and events(engine) for each hardware engine.
template <decoded_trace T>
void check_like(const trace& t, const T& want) {
  CHECK(t.info().chip == want.info().chip);
  CHECK(t.info().source == want.info().source);
  CHECK(t.info().devices == want.info().devices);
  CHECK(t.info().cores == want.info().cores);
  CHECK(t.info().mode == want.info().mode);
  CHECK(t.info().begin_ns == want.info().begin_ns);
  CHECK(t.info().end_ns == want.info().end_ns);
  CHECK(t.info().tracks.size() == want.info().tracks.size());
  CHECK(t.diagnostics().total() == want.info().diagnostics.total());
  check_same_events(t.events(), want.events());
  check_same_events(t.spans(), want.spans());
  for (engine e : {engine::tiu, engine::gdma, engine::sdma, engine::cdma})
    check_same_events(t.events(e), want.events() | views::only(e));
  CHECK(t.events(engine::layer).empty());
}

#ifdef TPUPROF_SAMPLES_DIR  // helpers of the sample tests (unused without samples)
std::size_t count(const trace& t, engine e) {
  return static_cast<std::size_t>(std::ranges::distance(t.events(e)));
}

/// The files of a directory read into memory (the caller-owned buffers of
/// from_memory), kept alive by the returned vector.
struct memory_dump {
  std::vector<std::string> names;
  std::vector<std::vector<std::byte>> bytes;
  io::dump_files files(const std::string& label = "<memory>") const {
    std::vector<io::dump_files::memory_file> v;
    for (std::size_t i = 0; i < names.size(); ++i) v.push_back({names[i], bytes[i]});
    return io::dump_files::from_memory(std::move(v), label);
  }
};
memory_dump read_dump(const fs::path& dir) {
  memory_dump m;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    m.names.push_back(e.path().filename().string());
    m.bytes.push_back(test_util::bytes_of(test_util::read_text(e.path().string())));
  }
  return m;
}

fs::path tmp(const std::string& name) {
  auto p = fs::path(TPUPROF_TEST_TMP) / ("open_" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}
#endif  // TPUPROF_SAMPLES_DIR

std::string what_of(auto&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

}  // namespace

static_assert(decoded_trace<trace>);
static_assert(operand_source<trace>);
static_assert(region_source<trace>);

TEST_CASE("open: a trace made of a materialized trace indexes its events by engine") {
  materialized_trace m;
  auto ev = [](engine e, std::uint8_t unit, double b) {
    engine_event x;
    x.engine = e;
    x.unit = unit;
    x.begin_ns = b;
    x.end_ns = b + 10;
    return x;
  };
  m.hw = {ev(engine::tiu, 0, 0), ev(engine::gdma, 0, 5), ev(engine::tiu, 1, 1),
          ev(engine::gdma, 1, 2), ev(engine::gdma, 1, 30)};
  const trace t(m);
  REQUIRE(t.events(engine::tiu).size() == 2);
  REQUIRE(t.events(engine::gdma).size() == 3);
  CHECK(t.events(engine::sdma).empty());
  CHECK(t.events(engine::tiu)[1].unit == 1);
  CHECK(t.events(engine::gdma)[2].begin_ns == 30);
  CHECK(&t.events(engine::gdma)[0] == &t.events()[1]);  // no copies: the trace's own events
  // views take it as an rvalue (range-v3 and std pipes)
  auto gaps = t.events(engine::gdma) | views::idle_gaps(1);
  CHECK(std::ranges::distance(gaps.begin(), gaps.end()) == 1);  // unit 1: 12 .. 30
  CHECK(std::ranges::distance(t.events(engine::tiu) | std::views::reverse) == 2);
  // copies and moves keep a working index
  trace c = t;
  CHECK(&c.events(engine::tiu)[0] == &c.events()[0]);
  trace moved = std::move(c);
  CHECK(moved.events(engine::gdma).size() == 3);
  CHECK(trace{}.events(engine::tiu).empty());
  CHECK_FALSE(t.has_operands());
  CHECK(t.operands(t.events()[0]).empty());
}

#ifdef TPUPROF_SAMPLES_DIR
namespace {
const std::string samples = TPUPROF_SAMPLES_DIR;
const std::string bm1684x_dir = samples + "/bm1684x/bmprofile_data-1";
const std::string bm1690_dir = samples + "/bm1690/cdm_profile_data_dev0";
const std::string aksv_dir = samples + "/synthetic/aksv_mode0_cdma2_seed1/cdm_profile_data_dev0-0";
}  // namespace

TEST_CASE("open: every sample decodes as its typed decoder does") {
  SUBCASE("BM1684X capture") {
    const auto t = open(bm1684x_dir);
    const bmprofile_decoder<chips::bm1684x> d(io::dump_files::open_directory(bm1684x_dir));
    check_like(t, d);
    CHECK(t.info().chip == "BM1684X");
    CHECK(count(t, engine::tiu) == 90);  // what tpu_profile.py lists for this capture
    CHECK(count(t, engine::gdma) == 163);
    CHECK(t.spans().size() == 190);
    CHECK(count(t, engine::tiu) == d.events(engine::tiu).size());
  }
  SUBCASE("BM1690 capture") {
    const auto t = open(bm1690_dir);
    const cdm::cdm_decoder<chips::aks> d(io::dump_files::open_directory(bm1690_dir));
    check_like(t, d);
    CHECK(t.info().chip == "SG2260");
    CHECK(count(t, engine::tiu) == 85);
    CHECK(count(t, engine::gdma) == 168);
    CHECK(count(t, engine::sdma) == 5);
    CHECK(count(t, engine::cdma) == 0);
  }
  SUBCASE("AKSV sample") {
    const auto t = open(aksv_dir);
    const cdm::cdm_decoder<chips::aksv> d(io::dump_files::open_directory(aksv_dir));
    check_like(t, d);
    CHECK(t.info().chip == "SG2260E");
    CHECK(count(t, engine::tiu) == 792);
    CHECK(count(t, engine::cdma) == 46);
  }
  SUBCASE("SG2260 synthetic samples (one with a wrapping cycle counter)") {
    for (const char* name : {"aks_mode1_seed1", "aks_mode1_cyclewrap_seed1"}) {
      CAPTURE(name);
      const std::string dir = samples + "/synthetic/" + name + "/cdm_profile_data_dev0-0";
      const cdm::cdm_decoder<chips::aks> d(io::dump_files::open_directory(dir));
      check_like(open(dir), d);
    }
  }
}

TEST_CASE("open: a parent directory of two dumps is one trace, a device each") {
  const auto parent = tmp("parent");
  fs::create_directory_symlink(bm1690_dir, parent / "cdm_profile_data_dev0");
  fs::create_directory_symlink(bm1684x_dir, parent / "bmprofile_data-1");
  fs::create_directories(parent / "not_a_dump");  // no global.profile: ignored
  std::vector<std::string> seen;
  open_options o;
  o.on_dump = [&](const fs::path& dir, std::size_t i, std::size_t n) {
    seen.push_back(dir.filename().string() + " " + std::to_string(i) + "/" + std::to_string(n));
  };
  const auto t = open(parent, o);
  // devices in name order: bmprofile_data-1 is device 0
  CHECK(seen == std::vector<std::string>{"bmprofile_data-1 0/2", "cdm_profile_data_dev0 1/2"});
  std::vector<materialized_trace> parts;
  parts.push_back(materialize(bmprofile_decoder<chips::bm1684x>(
      io::dump_files::open_directory(parent / "bmprofile_data-1"))));
  parts.push_back(materialize(cdm::cdm_decoder<chips::aks>(
      io::dump_files::open_directory(parent / "cdm_profile_data_dev0"))));
  const auto want = merge_devices(std::move(parts));
  check_like(t, want);
  CHECK(t.info().devices == 2);
  CHECK(t.info().chip == "BM1684X,SG2260");
  CHECK(count(t, engine::tiu) == 90 + 85);
  CHECK(t.events(engine::tiu)[0].device == 0);
  CHECK(t.events(engine::tiu)[90].device == 1);
  CHECK(t.events().size() == 253 + 258);
}

TEST_CASE("open: caller-owned buffers decode as the directory does") {
  const auto m1690 = read_dump(bm1690_dir);
  const auto m1684x = read_dump(bm1684x_dir);
  SUBCASE("one dump") {
    const auto t = open(m1690.files("cap"));
    CHECK(t.info().source == "cap");
    check_same_events(t.events(), open(bm1690_dir).events());
    const auto b = open(m1684x.files());
    check_same_events(b.events(), open(bm1684x_dir).events());
    check_same_events(b.spans(), open(bm1684x_dir).spans());
  }
  SUBCASE("several dumps, one device each") {
    std::vector<io::dump_files> devs;
    devs.push_back(m1684x.files("a"));
    devs.push_back(m1690.files("b"));
    const auto t = open(std::move(devs));
    CHECK(t.info().devices == 2);
    CHECK(t.info().source == "a;b");
    CHECK(count(t, engine::gdma) == 163 + 168);
    CHECK(count(t, engine::sdma) == 5);
    CHECK(t.events(engine::sdma)[0].device == 1);
    CHECK_THROWS_AS(open(std::vector<io::dump_files>{}), std::invalid_argument);
  }
}

TEST_CASE("open: options reach the decoders") {
  SUBCASE("chip given: no detection") {
    open_options o;
    o.chip = "SG2260";  // a chip's name works as well as its cli_name
    check_like(open(bm1690_dir, o), open(bm1690_dir));
    o.chip = "nope";
    CHECK_THROWS_WITH_AS(open(bm1690_dir, o), "unknown chip 'nope'", std::invalid_argument);
  }
  SUBCASE("clocks") {
    open_options o;
    o.tiu_freq_mhz = 500;
    o.dma_freq_mhz = 700;
    decode_options bo;
    bo.tiu_freq_mhz = 500;
    bo.dma_freq_mhz = 700;
    const bmprofile_decoder<chips::bm1684x> d(io::dump_files::open_directory(bm1684x_dir), bo);
    const auto t = open(bm1684x_dir, o);
    check_like(t, d);
    CHECK(t.info().find_track(0, 0, engine::tiu)->freq_mhz == 500);
    CHECK(t.info().find_track(0, 0, engine::gdma)->freq_mhz == 700);
    const auto& e = t.events(engine::tiu)[0];
    CHECK(e.end_ns - e.begin_ns == doctest::Approx((e.end_cycle - e.begin_cycle) * 1000.0 / 500));

    cdm::cdm_options co;
    co.tiu_freq_mhz = 500;
    co.dma_freq_mhz = 700;
    const cdm::cdm_decoder<chips::aks> c(io::dump_files::open_directory(bm1690_dir), co);
    check_like(open(bm1690_dir, o), c);
  }
  SUBCASE("num_core keeps cores 0..n-1 and every CDMA port") {
    const auto all = open(aksv_dir);
    REQUIRE(all.info().cores > 1);
    open_options o;
    o.num_core = 1;
    const auto t = open(aksv_dir, o);
    CHECK(t.info().cores == 1);
    std::size_t core0 = 0;
    for (const auto& e : all.events()) core0 += e.engine != engine::cdma && e.unit == 0;
    CHECK(t.events().size() == core0 + count(all, engine::cdma));
    CHECK(count(t, engine::cdma) == 46);
    for (const auto& e : t.events(engine::tiu)) CHECK(e.unit == 0);
    for (const auto& tr : t.info().tracks) CHECK((tr.eng == engine::cdma || tr.unit == 0));
  }
  SUBCASE("keep_operands: the typed decoder's operands and regions") {
    open_options o;
    o.keep_operands = true;
    const auto t = open(bm1684x_dir, o);
    const bmprofile_decoder<chips::bm1684x> d(io::dump_files::open_directory(bm1684x_dir));
    REQUIRE(t.has_operands());
    std::size_t with = 0, differ = 0;
    for (const auto& e : t.events()) {
      const auto a = t.operands(e);
      const auto b = d.operands(e);
      with += !a.empty();
      differ += a.size() != b.size() ||
                !std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
                  return x.kind == y.kind && x.address == y.address && x.size == y.size &&
                         x.data_size == y.data_size && x.write == y.write && x.index == y.index;
                });
    }
    CHECK(with > 0);
    CHECK(differ == 0);
    CHECK(t.memory_regions().size() == d.memory_regions().size());
    CHECK_FALSE(open(bm1684x_dir).has_operands());
    CHECK(open(bm1684x_dir).operands(t.events()[0]).empty());
  }
  SUBCASE("uarch off leaves SG2260 rates unknown") {
    const auto on = open(bm1690_dir);
    std::size_t known = 0;
    for (const auto& e : on.events(engine::tiu)) known += !std::isnan(e.uarch_rate);
    CHECK(known > 0);
    open_options o;
    o.uarch = false;
    cdm::cdm_options co;
    co.uarch = false;
    const auto off = open(bm1690_dir, o);
    check_like(off, cdm::cdm_decoder<chips::aks>(io::dump_files::open_directory(bm1690_dir), co));
    for (const auto& e : off.events(engine::tiu)) CHECK(std::isnan(e.uarch_rate));
  }
}

TEST_CASE("open: errors name the file, byte offset and reason") {
  CHECK_THROWS_WITH_AS(open("/no/such/dir"), "/no/such/dir: no such file or directory",
                       decode_error);
  const auto empty = tmp("empty");
  CHECK(what_of([&] { open(empty); }) ==
        empty.string() +
            ": no dump here: expected global.profile, or subdirectories "
            "(cdm_profile_data_devD-N, bmprofile_data-N) that each hold one");
  SUBCASE("unknown chips: detect_error, without the CLI's --chip hint") {
    const auto dir = tmp("arch9");
    std::ofstream(dir / "global.profile") << "arch=9\n";
    CHECK_THROWS_WITH_AS(
        open(dir),
        (dir.string() +
         "/global.profile: at byte 0: arch=9 is not a supported chip (bm1684x, aks, aksv, "
         "bm1688, cv184x)")
            .c_str(),
        detect_error);
    const auto noarch = tmp("noarch");
    std::ofstream(noarch / "global.profile") << "net_name=x\n";
    CHECK_THROWS_WITH_AS(
        open(noarch),
        (noarch.string() + "/global.profile: at byte 11: no arch= line before the end of the "
                           "file: cannot tell the chip (give it explicitly)")
            .c_str(),
        detect_error);
    CHECK_THROWS_WITH_AS(open(io::dump_files::from_memory({}, "buf")),
                         "buf: not a profile dump: no global.profile", detect_error);
    // given a chip, the decoder's own error (a decode_error, not a detect_error)
    open_options o;
    o.chip = "aks";
    try {
      open(noarch, o);
      FAIL("no exception");
    } catch (const detect_error&) {
      FAIL("a detect_error with the chip given");
    } catch (const decode_error& e) {
      CHECK(e.file().find("global.profile") != std::string::npos);
    }
  }
  SUBCASE("a truncated file: the typed decoder's message, byte for byte") {
    auto m = read_dump(bm1690_dir);
    for (std::size_t i = 0; i < m.names.size(); ++i)
      if (m.names[i] == "cdmlib0_0.profile") m.bytes[i].resize(m.bytes[i].size() / 3 + 5);
    const std::string want = what_of([&] { cdm::cdm_decoder<chips::aks> d(m.files("trunc")); });
    CHECK(want.rfind("trunc/cdmlib0_0.profile: at byte ", 0) == 0);
    CHECK(what_of([&] { open(m.files("trunc")); }) == want);
  }
}
#endif  // TPUPROF_SAMPLES_DIR
