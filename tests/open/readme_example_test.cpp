// examples/readme.cpp (the README's "library in 15 lines") on the BM1684X and
// BM1690 captures and an AKSV sample: its counts and idle time equal what the
// typed decoders give.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/views/filter.hpp>
#include <tpuprof/views/idle_gaps.hpp>

#include "test_util.hpp"

#if defined(TPUPROF_EXAMPLE_README) && defined(TPUPROF_SAMPLES_DIR)
namespace fs = std::filesystem;
using namespace tpuprof;

namespace {

struct run_result {
  int code = -1;
  std::string out;
};

run_result run_example(const std::string& dir, const fs::path& cwd) {
  const std::string cmd =
      "cd '" + cwd.string() + "' && '" + TPUPROF_EXAMPLE_README + "' '" + dir + "' 2>&1";
  const auto s = test_util::run_shell(cmd);
  run_result r;
  r.code = s.code;
  r.out = s.out;
  return r;
}

/// The line the example prints, computed from a typed decoder's events.
template <decoded_trace D>
std::string expected_line(const D& d) {
  std::size_t n[4] = {};
  for (const engine_event& e : d.events())
    if (is_hardware(e.engine)) ++n[static_cast<int>(e.engine)];
  double idle_ns = 0;
  for (const idle_gap& g : d.events() | views::only(engine::tiu) | views::idle_gaps(1000))
    idle_ns += g.dur_ns();
  char line[256];
  std::snprintf(line, sizeof line,
                "%s: %zu TIU, %zu GDMA, %zu SDMA, %zu CDMA commands; TIU idle %.3f us in gaps >= "
                "1 us\nwrote readme_trace.pftrace\n",
                d.info().chip.c_str(), n[0], n[1], n[2], n[3], idle_ns / 1e3);
  return line;
}

}  // namespace

TEST_CASE("examples/readme.cpp on a capture of each chip family") {
  const std::string s = TPUPROF_SAMPLES_DIR;
  const auto cwd = fs::path(TPUPROF_TEST_TMP) / "readme_example";
  fs::remove_all(cwd);
  fs::create_directories(cwd);
  SUBCASE("BM1684X") {
    const auto dir = s + "/bm1684x/bmprofile_data-1";
    const auto r = run_example(dir, cwd);
    CHECK(r.code == 0);
    CHECK(fs::file_size(cwd / "readme_trace.pftrace") > 1000);
    CHECK(r.out ==
          expected_line(bmprofile_decoder<chips::bm1684x>(io::dump_files::open_directory(dir))));
    CHECK(r.out.rfind("BM1684X: 90 TIU, 163 GDMA, 0 SDMA, 0 CDMA commands;", 0) == 0);
  }
  SUBCASE("BM1690") {
    const auto dir = s + "/bm1690/cdm_profile_data_dev0";
    const auto r = run_example(dir, cwd);
    CHECK(r.code == 0);
    CHECK(fs::file_size(cwd / "readme_trace.pftrace") > 1000);
    CHECK(r.out ==
          expected_line(cdm::cdm_decoder<chips::aks>(io::dump_files::open_directory(dir))));
    CHECK(r.out.rfind("SG2260: 85 TIU, 168 GDMA, 5 SDMA, 0 CDMA commands;", 0) == 0);
  }
  SUBCASE("AKSV") {
    const auto dir = s + "/synthetic/aksv_mode0_cdma2_seed1/cdm_profile_data_dev0-0";
    const auto r = run_example(dir, cwd);
    CHECK(r.code == 0);
    CHECK(fs::file_size(cwd / "readme_trace.pftrace") > 1000);
    CHECK(r.out ==
          expected_line(cdm::cdm_decoder<chips::aksv>(io::dump_files::open_directory(dir))));
    CHECK(r.out.rfind("SG2260E: 792 TIU, 792 GDMA, 190 SDMA, 46 CDMA commands;", 0) == 0);
  }
  SUBCASE("an error names the file and the reason") {
    const auto r = run_example("/no/such/dump", cwd);
    CHECK(r.code == 1);
    CHECK(r.out == "/no/such/dump: no such file or directory\n");
  }
}
#endif
