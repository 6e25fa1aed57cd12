// convert --split on a generated AKS dump (8 cores, 2 CDMA ports): the parts
// hold together exactly the slices of the unsplit trace.pftrace, each window
// part only slices that begin in its window, and trace.index.json lists every
// part with its events and bytes; --split device of one device is the unsplit
// file byte for byte; bad values are usage errors.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include "sinks/perfetto_reader.hpp"
#include "test_util.hpp"

#if defined(TPUPROF_CLI)
namespace fs = std::filesystem;
using test_util::read_text;
using test_util::run_cli;

namespace {

using slice_key = std::tuple<std::string, std::int64_t, std::string, std::int64_t>;

fs::path fresh(const std::string& name) {
  auto p = fs::path(TPUPROF_TEST_TMP) / ("split_" + name);
  fs::remove_all(p);
  return p;
}

std::vector<slice_key> slices_of(const fs::path& file) {
  const auto t = sink_test::pf::read(read_text(file.string()));
  std::vector<slice_key> v;
  for (const auto& s : t.slices) {
    std::string path;
    for (auto u = s.track; u;) {
      const auto& tr = t.tracks.at(u);
      path = path.empty() ? tr.name : tr.name + "/" + path;
      u = tr.parent;
    }
    v.emplace_back(path, s.ts, s.name, s.dur);
  }
  std::sort(v.begin(), v.end());
  return v;
}

// Runs python3 on `code` with the index as argv[1]; returns its stdout.
std::string py(const std::string& code, const fs::path& index) {
  auto r = test_util::run_shell("python3 -c \"" + code + "\" " + index.string());
  return r.code == 0 ? r.out : "python3 failed: " + r.out;
}

}  // namespace

TEST_CASE("cli: convert --split writes parts that together are the unsplit trace") {
  const auto in = fresh("in"), out = fresh("out");
  REQUIRE(
      run_cli("synth --chip aks --records 300 --cdma-ports 2 --seed 3 -q -o " + in.string()).code ==
      0);
  REQUIRE(run_cli("convert " + in.string() + " -q -o " + (out / "plain").string()).code == 0);
  const auto plain = slices_of(out / "plain" / "trace.pftrace");
  REQUIRE(plain.size() > 1000);

  SUBCASE("core: 8 cores and 2 CDMA ports, one part each, and the index") {
    const auto d = out / "core";
    const auto r = run_cli("convert " + in.string() + " --split core -o " + d.string());
    CHECK(r.code == 0);
    CHECK(r.out.find("wrote " + (d / "trace.dev0.core7.pftrace").string()) != std::string::npos);
    CHECK(r.out.find("wrote " + (d / "trace.index.json").string()) != std::string::npos);
    CHECK_FALSE(fs::exists(d / "trace.pftrace"));
    CHECK(fs::exists(d / "summary.txt"));
    std::vector<slice_key> all;
    for (const char* u : {"core0", "core1", "core2", "core3", "core4", "core5", "core6", "core7",
                          "cdma0", "cdma1"}) {
      const auto f = d / ("trace.dev0." + std::string(u) + ".pftrace");
      REQUIRE(fs::exists(f));
      const auto v = slices_of(f);
      CHECK(!v.empty());
      all.insert(all.end(), v.begin(), v.end());
    }
    std::sort(all.begin(), all.end());
    CHECK(all == plain);
    // The index: 10 parts whose events add up to the slices and whose bytes are the files'.
    CHECK(py("import json,sys,os; d=json.load(open(sys.argv[1])); "
             "print(d['split'], len(d['parts']), sum(p['events'] for p in d['parts']), "
             "all(os.path.getsize(os.path.join(os.path.dirname(sys.argv[1]), p['file'])) == "
             "p['bytes'] for p in d['parts']))",
             d / "trace.index.json") == "core 10 " + std::to_string(plain.size()) + " True\n");
  }
  SUBCASE("window: every slice in the window where it begins") {
    const auto d = out / "win";
    REQUIRE(run_cli("convert " + in.string() + " --split window=100us -q -o " + d.string()).code ==
            0);
    const auto idx = d / "trace.index.json";
    const std::string listing = py(
        "import json,sys; d=json.load(open(sys.argv[1])); "
        "[print(p['file'], p['window_begin'], p['window_end'], p['events']) for p in d['parts']]",
        idx);
    REQUIRE(listing.find("python3 failed") == std::string::npos);
    std::vector<slice_key> all;
    std::size_t parts = 0;
    std::istringstream lines(listing);
    std::string file;
    std::int64_t wb = 0, we = 0;
    std::size_t events = 0;
    while (lines >> file >> wb >> we >> events) {
      CAPTURE(file);
      ++parts;
      CHECK(we - wb == 100'000);
      const auto v = slices_of(d / file);
      CHECK(v.size() == events);
      for (const auto& s : v) {
        CHECK(std::get<1>(s) >= wb);
        CHECK(std::get<1>(s) < we);
      }
      all.insert(all.end(), v.begin(), v.end());
    }
    CHECK(parts >= 2);
    std::sort(all.begin(), all.end());
    CHECK(all == plain);
  }
  SUBCASE("device: one device is one part, the unsplit file byte for byte") {
    const auto d = out / "dev";
    REQUIRE(run_cli("convert " + in.string() + " --split device -q -o " + d.string()).code == 0);
    CHECK(read_text((d / "trace.dev0.pftrace").string()) ==
          read_text((out / "plain" / "trace.pftrace").string()));
  }
  SUBCASE("auto: everything fits in one part") {
    const auto d = out / "auto";
    REQUIRE(run_cli("convert " + in.string() + " --split auto -q -o " + d.string()).code == 0);
    CHECK(slices_of(d / "trace.part0.pftrace") == plain);
    CHECK_FALSE(fs::exists(d / "trace.part1.pftrace"));
  }
  SUBCASE("bad values are usage errors and write nothing") {
    for (const char* bad : {"cores", "window=", "window=0", "window=-1ms", "window=5parsecs",
                            "size=10", "size=1T", "window=1ns"}) {
      CAPTURE(bad);
      const auto d = out / "bad";
      const auto r = run_cli("convert " + in.string() + " --split " + bad + " -o " + d.string());
      CHECK(r.code == 2);
      CHECK_FALSE(fs::exists(d / "trace.index.json"));
    }
  }
}
#endif
