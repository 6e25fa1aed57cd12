// open() with threads: several dumps decoded at once give the trace the
// sequential decode gives (events, spans, info, operands, dependencies), with
// on_dump calls and errors in device order; engine_events over runs. This file
// is also built alone under ThreadSanitizer (tools/tsan.sh).
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/open.hpp>

namespace fs = std::filesystem;
using namespace tpuprof;

namespace {

bool same_event(const engine_event& a, const engine_event& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;  // bit for bit, NaN uarch rates included
}

template <class A, class B>
std::size_t differing(const A& a, const B& b) {
  std::vector<engine_event> x(a.begin(), a.end()), y(b.begin(), b.end());
  if (x.size() != y.size()) return std::max(x.size(), y.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < x.size(); ++i) n += !same_event(x[i], y[i]);
  return n;
}

#ifdef TPUPROF_SAMPLES_DIR
fs::path fresh_dir(const std::string& name) {
  const auto d =
      fs::temp_directory_path() / ("tpuprof_parallel_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
#endif

}  // namespace

TEST_CASE("engine_events: random access over runs equals an index of the engine's events") {
  std::mt19937 rng(7);
  materialized_trace m;
  for (int i = 0; i < 500; ++i) {  // runs of 1..5 events of random engines
    const auto eng = static_cast<engine>(rng() % 4);
    for (unsigned k = 0, n = 1 + rng() % 5; k < n; ++k) {
      engine_event e;
      e.engine = eng;
      e.cmd_id = static_cast<std::uint32_t>(m.hw.size());
      m.hw.push_back(e);
    }
  }
  const trace t(m);
  for (int en = 0; en < 5; ++en) {
    const auto eng = static_cast<engine>(en);
    std::vector<std::uint32_t> want;
    for (const auto& e : m.hw)
      if (e.engine == eng) want.push_back(e.cmd_id);
    const auto v = t.events(eng);
    REQUIRE(v.size() == want.size());
    std::size_t i = 0;
    for (const engine_event& e : v) CHECK(e.cmd_id == want[i++]);
    CHECK(std::ranges::distance(v.begin(), v.end()) == static_cast<std::ptrdiff_t>(want.size()));
    for (int probe = 0; probe < 200 && !want.empty(); ++probe) {
      const auto a = rng() % want.size(), b = rng() % (want.size() + 1);
      auto it = v.begin() + static_cast<std::ptrdiff_t>(a);
      CHECK(it->cmd_id == want[a]);
      CHECK(v[a].cmd_id == want[a]);
      auto jt = it + (static_cast<std::ptrdiff_t>(b) - static_cast<std::ptrdiff_t>(a));
      CHECK(jt - it == static_cast<std::ptrdiff_t>(b) - static_cast<std::ptrdiff_t>(a));
      CHECK((b == want.size() ? jt == v.end() : jt->cmd_id == want[b]));
      CHECK(v.end() - it == static_cast<std::ptrdiff_t>(want.size() - a));
      if (a > 0) CHECK(std::prev(it)->cmd_id == want[a - 1]);
    }
    if (!want.empty()) CHECK(std::prev(v.end())->cmd_id == want.back());
  }
}

#ifdef TPUPROF_SAMPLES_DIR
TEST_CASE("open: dumps decoded on several threads give the sequential trace") {
  const std::string samples = TPUPROF_SAMPLES_DIR;
  const auto parent = fresh_dir("devices");
  // four dumps of three chip families (device order = name order)
  fs::create_directory_symlink(samples + "/bm1684x/bmprofile_data-1", parent / "a_bm1684x");
  fs::create_directory_symlink(samples + "/bm1690/cdm_profile_data_dev0", parent / "b_bm1690");
  fs::create_directory_symlink(
      samples + "/synthetic/aksv_mode0_cdma2_seed1/cdm_profile_data_dev0-0", parent / "c_aksv");
  fs::create_directory_symlink(samples + "/synthetic/aks_mode1_seed1/cdm_profile_data_dev0-0",
                               parent / "d_aks");
  for (bool extras : {false, true}) {
    CAPTURE(extras);
    open_options o;
    o.keep_operands = extras;
    o.dependencies = extras;
    std::vector<std::string> seen_seq, seen_par;
    o.threads = 1;
    o.on_dump = [&](const fs::path& d, std::size_t i, std::size_t) {
      seen_seq.push_back(d.filename().string() + std::to_string(i));
    };
    const trace seq = open(parent, o);
    o.threads = 4;
    o.on_dump = [&](const fs::path& d, std::size_t i, std::size_t) {
      seen_par.push_back(d.filename().string() + std::to_string(i));
    };
    const trace par = open(parent, o);
    CHECK(seen_par == seen_seq);
    REQUIRE(seq.info().devices == 4);
    CHECK(par.info().devices == 4);
    CHECK(differing(par.events(), seq.events()) == 0);
    CHECK(differing(par.spans(), seq.spans()) == 0);
    CHECK(par.info().names.size() == seq.info().names.size());
    CHECK(par.info().chip == seq.info().chip);
    CHECK(par.info().tracks.size() == seq.info().tracks.size());
    CHECK(par.diagnostics().total() == seq.diagnostics().total());
    CHECK(par.diagnostics().notes().size() == seq.diagnostics().notes().size());
    for (int en = 0; en < 4; ++en)
      CHECK(differing(par.events(static_cast<engine>(en)), seq.events(static_cast<engine>(en))) ==
            0);
    std::size_t ops_differ = 0, deps_differ = 0;
    for (std::size_t i = 0; i < seq.events().size(); ++i) {
      const auto a = seq.operands(seq.events()[i]), b = par.operands(par.events()[i]);
      bool same_ops = a.size() == b.size();
      for (std::size_t k = 0; same_ops && k < a.size(); ++k)  // field by field: padding differs
        same_ops = a[k].address == b[k].address && a[k].size == b[k].size &&
                   a[k].data_size == b[k].data_size && a[k].kind == b[k].kind &&
                   a[k].write == b[k].write && a[k].index == b[k].index;
      ops_differ += !same_ops;
      if (extras) {
        const auto& x = seq.dependencies()[i];
        const auto& y = par.dependencies()[i];
        deps_differ += x.known != y.known || x.wait_id != y.wait_id || x.self_id != y.self_id;
      }
    }
    CHECK(ops_differ == 0);
    CHECK(deps_differ == 0);
    CHECK(par.has_operands() == extras);
  }
  fs::remove_all(parent);
}

TEST_CASE("open: with threads, the first bad dump in device order is the error") {
  const std::string samples = TPUPROF_SAMPLES_DIR;
  const auto parent = fresh_dir("errors");
  fs::create_directory_symlink(samples + "/bm1690/cdm_profile_data_dev0", parent / "a_good");
  for (const char* bad : {"b_bad", "c_bad"}) {
    fs::create_directories(parent / bad);
    std::ofstream(parent / bad / "global.profile") << "no arch here\n";
  }
  for (unsigned threads : {1u, 3u}) {
    open_options o;
    o.threads = threads;
    std::string what;
    try {
      open(parent, o);
    } catch (const decode_error& e) {
      what = e.what();
    }
    CAPTURE(threads);
    CHECK(what.find("b_bad") != std::string::npos);
    CHECK(what.find("c_bad") == std::string::npos);
  }
  fs::remove_all(parent);
}
#endif
