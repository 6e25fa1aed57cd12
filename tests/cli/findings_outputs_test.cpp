// The findings of `tpuprof advise` in report.html, trace.pftrace and trace.json
// (issue #16), read back by tests/cli/findings_check.py: the page's list equals
// `advise --format json`, the Perfetto and Chrome JSON slices carry advise.* args
// (protoc, perfetto_check.py, chrome_json_check.py), and in headless Chromium a
// click on F1 zooms the timeline onto its commands.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI) && defined(TPUPROF_SAMPLES_DIR) && defined(TPUPROF_SOURCE_DIR)
namespace {

std::string findings_tmp(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() /
                 ("tpuprof_findings_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

/// findings_check.py's JSON line for `dump` (exit code checked), in the browser too when
/// node and chromium are there.
std::string check_findings(const std::string& dump, const std::string& out) {
  std::string cmd = "python3 " TPUPROF_SOURCE_DIR "/tests/cli/findings_check.py " TPUPROF_CLI " '" +
                    dump + "' '" + out + "'";
  if (test_util::run_shell("command -v node >/dev/null && command -v chromium >/dev/null").code ==
      0)
    cmd += " --browser chromium";
  else
    MESSAGE("findings in the browser NOT checked: node or chromium missing");
  const auto r = test_util::run_shell(cmd + " 2>&1");
  INFO(r.out);
  CHECK(r.code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("findings in report.html, trace.pftrace and trace.json: BM1684X capture") {
  const std::string out = findings_tmp("bm1684x");
  const std::string r =
      check_findings(std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1", out);
  // F1 lane-underuse (advise_cli_test) blames 20 commands (the cap), none of an earlier
  // finding: 20 slices with its args, and its own slice on the Findings track.
  CHECK(r.find("[[\"F1\", \"lane-underuse\", \"warn\"]") != std::string::npos);
  CHECK(r.find("\"json_slices\": {\"F1\": 21") != std::string::npos);
  if (r.find("\"protoc\"") != std::string::npos)
    CHECK(r.find("\"slices\": {\"F1\": 21") != std::string::npos);
  std::filesystem::remove_all(out);
}

TEST_CASE("findings in the outputs: synthetic BM1684X dump with serial-dma injected") {
  const std::string dir = findings_tmp("synth");
  const auto s = test_util::run_cli("synth --chip bm1684x --inject serial-dma --seed 3 --records " +
                                    std::string("4096 -q -o ") + dir + "/dump");
  INFO(s.out);
  REQUIRE(s.code == 0);
  const std::string r = check_findings(dir + "/dump", dir + "/out");
  CHECK(r.find("[[\"F1\", \"serial-dma\", ") != std::string::npos);  // the injected fault first
  std::filesystem::remove_all(dir);
}

TEST_CASE("report.html without dependency data: the Findings section says why") {
  const std::string out = findings_tmp("mode1");
  const std::string dump = std::string(TPUPROF_SAMPLES_DIR) + "/synthetic/aks_mode1_seed1";
  REQUIRE(test_util::run_cli("report -q " + dump + " -o " + out + "/report.html").code == 0);
  const std::string html = test_util::read_text(out + "/report.html");
  // No dependency data and no finding (advise agrees): the page says why, in the browser too.
  CHECK(test_util::run_cli("advise -q --format json " + dump).out.find("\"findings\":[]") !=
        std::string::npos);
  CHECK(html.find("\"findings\":{\"span_ns\":") != std::string::npos);
  CHECK(html.find("\"data\":false,\"list\":[],\"at\":[]}") != std::string::npos);
  if (test_util::run_shell("command -v node >/dev/null && command -v chromium >/dev/null").code ==
      0) {
    {
      std::ofstream f(out + "/expect.json");
      f << R"({"findings": {"count": 0, "text": "Findings unavailable: this dump has no dependency data"}})";
    }
    const auto b = test_util::run_shell(
        "node " TPUPROF_SOURCE_DIR "/tests/browser/check_report.mjs --chromium chromium --html " +
        out + "/report.html --expect " + out + "/expect.json 2>&1");
    INFO(b.out);
    CHECK(b.code == 0);
  }
  REQUIRE(test_util::run_cli("report -q --no-advise " + dump + " -o " + out + "/plain.html").code ==
          0);
  CHECK(test_util::read_text(out + "/plain.html").find("\"findings\":{") == std::string::npos);
  std::filesystem::remove_all(out);
}
#endif
