// convert --each and -j: a parent directory's dumps converted into one output
// directory each, in parallel, byte for byte as converting each alone; a bad
// dump fails alone. Also: `convert PARENT -j 2` (one merged trace) equals -j 1.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI)
namespace fs = std::filesystem;
using test_util::read_text;
using test_util::run_cli;

namespace {
fs::path fresh(const std::string& name) {
  auto p = fs::path(TPUPROF_TEST_TMP) / ("each_" + name);
  fs::remove_all(p);
  return p;
}
}  // namespace

TEST_CASE("cli: convert --each writes every dump's outputs as converting it alone does") {
  const auto parent = fresh("in"), out = fresh("out"), alone = fresh("alone");
  for (int s = 1; s <= 3; ++s) {
    const auto d = parent / ("cdm_profile_data_dev" + std::to_string(s - 1));
    REQUIRE(run_cli("synth --chip aks --records 300 --seed " + std::to_string(s) + " -o " +
                    d.string() + " -q")
                .code == 0);
  }
  auto r = run_cli("convert " + parent.string() + " --each -j 2 -o " + out.string());
  CHECK(r.code == 0);
  for (int s = 0; s < 3; ++s) {
    const std::string name = "cdm_profile_data_dev" + std::to_string(s);
    CAPTURE(name);
    CHECK(r.out.find("wrote " + (out / name).string()) != std::string::npos);
    REQUIRE(
        run_cli("convert " + (parent / name).string() + " -q -o " + (alone / name).string()).code ==
        0);
    for (const char* f : {"trace.pftrace", "summary.txt"}) {
      const auto got = read_text((out / name / f).string());
      CHECK(!got.empty());
      CHECK(got == read_text((alone / name / f).string()));
    }
  }
  SUBCASE("one merged trace: -j 2 equals -j 1") {
    REQUIRE(run_cli("convert " + parent.string() + " -j 1 -q -o " + (alone / "m1").string()).code ==
            0);
    REQUIRE(run_cli("convert " + parent.string() + " -j 2 -q -o " + (alone / "m2").string()).code ==
            0);
    const auto m1 = read_text((alone / "m1" / "trace.pftrace").string());
    CHECK(m1.size() > 1000);
    CHECK(m1 == read_text((alone / "m2" / "trace.pftrace").string()));
  }
  SUBCASE("a bad dump fails alone, named, and sets the exit code") {
    fs::create_directories(parent / "cdm_profile_data_dev9");
    std::ofstream(parent / "cdm_profile_data_dev9" / "global.profile") << "garbage\n";
    const auto out2 = fresh("out2");
    r = run_cli("convert " + parent.string() + " --each -j 2 -o " + out2.string());
    CHECK(r.code == 1);
    CHECK(r.out.find("cdm_profile_data_dev9") != std::string::npos);
    CHECK(fs::exists(out2 / "cdm_profile_data_dev0" / "trace.pftrace"));
    CHECK(fs::exists(out2 / "cdm_profile_data_dev2" / "trace.pftrace"));
    CHECK_FALSE(fs::exists(out2 / "cdm_profile_data_dev9" / "trace.pftrace"));
  }
}
#endif
