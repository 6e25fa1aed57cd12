// The CLI as a tool (issue #19): "did you mean", value ranges, the JSON of every
// table (parsed with simdjson), group --by layer's names and estimate, diff's
// cross-chip warning and --fail-above gate, rows of cores that ran, tables that
// fit COLUMNS, and the progress bar on a terminal (script(1) gives it one).
#include <simdjson.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI)
namespace fs = std::filesystem;
namespace {

using result = test_util::shell_result;

/// Runs `cmd` in sh; the exit code and stdout.
result run_sh(const std::string& cmd) {
  return test_util::run_shell(cmd);
}

/// Runs `env... tpuprof args`; `err` "2>&1" merges stderr, "2>/dev/null" drops it.
result run_cli(const std::string& args, const std::string& err = "2>&1",
               const std::string& env = "") {
  return run_sh(env + " " + std::string(TPUPROF_CLI) + " " + args + " " + err);
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

[[maybe_unused]] simdjson::dom::element parse(simdjson::dom::parser& p, const std::string& json) {
  simdjson::dom::element e;
  REQUIRE_MESSAGE(p.parse(json).get(e) == simdjson::SUCCESS, json);
  return e;
}

/// A synthetic AKS dump of `records` per engine (made once per name).
[[maybe_unused]] std::string synth_dump(const std::string& name, int records) {
  const auto d = fs::path(TPUPROF_TEST_TMP) / ("cli_tool_" + name) / "cdm_profile_data_dev0-0";
  if (!fs::exists(d / "global.profile")) {
    auto r = run_cli("synth -q --chip aks --cores 2 --seed 1 --records " + std::to_string(records) +
                     " -o " + d.string());
    REQUIRE(r.code == 0);
  }
  return d.string();
}

}  // namespace

TEST_CASE("cli tool: unknown subcommands and options are named with the closest one") {
  auto r = run_cli("sumary /x");
  CHECK(r.code == 2);
  CHECK(has(r.out, "unknown subcommand 'sumary'; did you mean 'summary'?"));
  r = run_cli("-q grup /x");
  CHECK(r.code == 2);
  CHECK(has(r.out, "unknown subcommand 'grup'; did you mean 'group'?"));
  r = run_cli("frobnicate /x");
  CHECK(r.code == 2);
  CHECK(has(r.out, "unknown subcommand 'frobnicate'"));
  CHECK(!has(r.out, "did you mean"));
  r = run_cli("top /x --formt json");
  CHECK(r.code == 2);
  CHECK(has(r.out, "unknown option '--formt' for top; did you mean '--format'?"));
  r = run_cli("diff /x /y --fail-abov=3");
  CHECK(r.code == 2);
  CHECK(has(r.out, "unknown option '--fail-abov' for diff; did you mean '--fail-above'?"));
}

TEST_CASE("cli tool: value ranges") {
  CHECK(run_cli("top /x -n -1").code == 2);
  CHECK(run_cli("top /x -n 0").code == 2);
  CHECK(run_cli("diff /x /y -n 0").code == 2);
  CHECK(run_cli("diff /x /y --fail-above -5").code == 2);
  CHECK(run_cli("gaps /x --min -1us").code == 2);
  CHECK(run_cli("group /x --by layr").code == 2);
  CHECK(run_cli("top /x --format xml").code == 2);
}

#if defined(TPUPROF_SAMPLES_DIR)
namespace {
const std::string bm1684x = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";
const std::string bm1690 = std::string(TPUPROF_SAMPLES_DIR) + "/bm1690/cdm_profile_data_dev0";
}  // namespace

TEST_CASE("cli tool: --format json of top, gaps, group, summary, diff and info") {
  simdjson::dom::parser p;
  auto r = run_cli("top -q -n 2 --format json " + bm1684x, "2>/dev/null");
  REQUIRE(r.code == 0);
  auto top = parse(p, r.out);
  CHECK(std::string_view(top["by"]) == "duration");
  auto ev = top["events"].get_array().value();
  REQUIRE(ev.size() == 2);
  CHECK(int64_t(ev.at(0)["rank"]) == 1);
  CHECK(std::string_view(ev.at(0)["engine"]) == "TIU");
  CHECK(std::string_view(ev.at(0)["op"]) == "conv.normal");
  CHECK(int64_t(ev.at(0)["cmd_id"]) == 14);
  CHECK(double(ev.at(0)["dur_ns"]) == doctest::Approx(9634));
  CHECK(int64_t(ev.at(0)["layer"]) == 29);
  CHECK(ev.at(0)["bytes"].is_null());

  r = run_cli("gaps -q -n 1 --format json " + bm1684x, "2>/dev/null");
  REQUIRE(r.code == 0);
  auto gaps = parse(p, r.out);
  CHECK(double(gaps["min_ns"]) == 1000);
  auto tiu = gaps["tracks"].at(0);
  CHECK(std::string_view(tiu["engine"]) == "TIU");
  CHECK(int64_t(tiu["gaps"]) == 25);
  CHECK(double(tiu["idle_ns"]) == doctest::Approx(113376).epsilon(1e-4));
  auto g0 = gaps["longest"].at(0);
  CHECK(double(g0["dur_ns"]) == doctest::Approx(16571));
  CHECK(std::string_view(g0["after"]["op"]) == "arith.max");
  CHECK(int64_t(g0["before"]["cmd_id"]) == 18);

  r = run_cli("group -q --by op --format json " + bm1690, "2>/dev/null");
  REQUIRE(r.code == 0);
  auto grp = parse(p, r.out);
  auto first = grp["groups"].at(0);
  CHECK(std::string_view(first["key"]) == "conv.normal");
  CHECK(int64_t(first["count"]) == 26);
  CHECK(double(first["sum_ns"]) == doctest::Approx(56645));

  r = run_cli("summary -q --format json " + bm1690, "2>/dev/null");
  REQUIRE(r.code == 0);
  auto sum = parse(p, r.out);
  CHECK(sum["cores"].get_array().size() == 1);  // one core of eight ran
  CHECK(double(sum["cores"].at(0)["parallelism_pct"]) == doctest::Approx(30.55));
  CHECK(double(sum["overall"]["parallelism_pct"]) == doctest::Approx(3.82));

  r = run_cli("diff -q -n 2 --format json " + bm1690 + " " + bm1690, "2>/dev/null");
  REQUIRE(r.code == 0);
  auto diff = parse(p, r.out);
  CHECK(diff["same_chip"].get_bool().value());
  CHECK(int64_t(diff["a"]["events"]) == 258);
  CHECK(diff["groups"].get_array().size() == 2);
  CHECK(double(diff["groups"].at(0)["ratio"]) == 1);
  CHECK(diff["over_threshold"].get_array().size() == 0);

  auto j1 = run_cli("info -q --json " + bm1690, "2>/dev/null");
  auto j2 = run_cli("info -q --format json " + bm1690, "2>/dev/null");
  CHECK(j1.out == j2.out);
  CHECK(std::string_view(parse(p, j2.out)["chip"]) == "SG2260");
}

TEST_CASE("cli tool: group --by layer names layers and compares with net_stat.sim") {
  auto r = run_cli("group -q --by layer " + bm1684x, "2>/dev/null");
  REQUIRE(r.code == 0);
  std::istringstream in(r.out);
  std::string head, l, row26;
  std::getline(in, head);
  CHECK(has(head, "type"));
  CHECK(has(head, "est_us"));
  CHECK(has(head, "meas/est"));
  while (std::getline(in, l))
    if (l.rfind("26 ", 0) == 0) row26 = l;
  // Layer 26: 10 commands, 9.954 us measured; net_stat.sim's costs add up to 8.720 us.
  CHECK(has(row26, "Conv2D(L)"));
  CHECK(has(row26, "9.954"));
  CHECK(has(row26, "8.720"));
  CHECK(has(row26, "1.14"));
  simdjson::dom::parser p;
  auto j = run_cli("group -q --by layer --format json " + bm1684x, "2>/dev/null");
  bool found = false;
  for (auto g : parse(p, j.out)["groups"].get_array()) {
    if (g["layer_id"].is_null() || int64_t(g["layer_id"]) != 26) continue;
    found = true;
    CHECK(std::string_view(g["layer_type"]) == "Conv2D(L)");
    CHECK(double(g["estimate_ns"]) == doctest::Approx(8720));
    CHECK(int64_t(g["count"]) == 10);
  }
  CHECK(found);
}

TEST_CASE("cli tool: diff warns across chips and gates on --fail-above") {
  auto r = run_cli("diff -q " + bm1684x + " " + bm1690, "2>&1 >/dev/null");
  CHECK(r.code == 0);
  CHECK(has(r.out, "warning: A is BM1684X and B is SG2260"));
  r = run_cli("diff -q " + bm1690 + " " + bm1690, "2>&1 >/dev/null");
  CHECK(r.out.empty());
  // Twice the records: B's span is about twice A's.
  const auto a = synth_dump("small", 200), b = synth_dump("large", 400);
  r = run_cli("diff -q --fail-above 10 " + a + " " + b, "2>&1 >/dev/null");
  CHECK(r.code == 5);
  CHECK(has(r.out, "B is slower than A by more than 10%: total +"));
  CHECK(run_cli("diff -q --fail-above 1000 " + a + " " + b).code == 0);
  CHECK(run_cli("diff -q --fail-above 0 " + a + " " + a).code == 0);   // the same run
  CHECK(run_cli("diff -q --fail-above 10 " + b + " " + a).code == 0);  // faster
}

TEST_CASE("cli tool: info says the mode once; tables fit COLUMNS") {
  const std::string aks1 =
      std::string(TPUPROF_SAMPLES_DIR) + "/synthetic/aks_mode1_seed1/cdm_profile_data_dev0-0";
  auto r = run_cli("info -q " + aks1, "2>/dev/null");
  CHECK(has(r.out, "   mode 1 (condensed commands)"));
  CHECK(!has(r.out, "mode mode"));
  for (const char* cmd : {"summary", "top", "gaps", "group --by op", "group --by layer"})
    for (int cols : {60, 80, 120}) {
      r = run_cli(std::string(cmd) + " -q " + bm1684x, "2>/dev/null",
                  "COLUMNS=" + std::to_string(cols));
      REQUIRE(r.code == 0);
      std::istringstream in(r.out);
      std::string l;
      std::size_t widest = 0;
      while (std::getline(in, l)) widest = std::max(widest, l.size());
      CHECK_MESSAGE(widest <= static_cast<std::size_t>(cols), cmd << " at " << cols);
    }
  // Without a terminal width the summary keeps the vendor's layout.
  r = run_cli("summary -q " + bm1690, "2>/dev/null", "COLUMNS=");
  CHECK(has(r.out, "GdmaDdrAvgBW(GB/s)"));
  CHECK(!has(r.out, "\n      1 |"));  // core 1 ran nothing: no row
}

TEST_CASE("cli tool: progress bar on a terminal stderr, with -q and NO_COLOR") {
  // Two dumps: the bar shows "(2/2)" at 50%. script(1) makes stderr a terminal;
  // the delay of 1 s before drawing is set to 0.
  const auto a = synth_dump("small", 200), b = synth_dump("large", 400);
  const auto parent = fs::path(TPUPROF_TEST_TMP) / "cli_tool_parent";
  fs::remove_all(parent);
  fs::create_directories(parent);
  fs::create_directory_symlink(a, parent / "cdm_profile_data_dev0-0");
  fs::create_directory_symlink(b, parent / "cdm_profile_data_dev1-0");
  auto on_tty = [&](const std::string& env, const std::string& args) {
    return run_sh(env + " TPUPROF_PROGRESS_DELAY_MS=0 script -qec '" + std::string(TPUPROF_CLI) +
                  " " + args + " >/dev/null' /dev/null 2>&1");
  };
  auto r = on_tty("", "summary " + parent.string());
  CHECK(r.code == 0);
  CHECK(has(r.out, "decoding"));
  CHECK(has(r.out, "\033[K"));
  CHECK(has(r.out, "(2/2)"));  // the second of two dumps: half done
  CHECK(has(r.out, " 50% ETA "));
  CHECK(has(r.out, "\033[32m#"));  // the bar in colour
  r = on_tty("", "-q summary " + parent.string());
  CHECK(!has(r.out, "decoding"));
  r = on_tty("NO_COLOR=1", "summary " + parent.string());
  CHECK(has(r.out, "decoding"));
  CHECK(!has(r.out, "\033[32m"));
  // stdout to a file does not hide it (stderr is still the terminal): shown above.
  r = run_cli("summary " + parent.string(), "2>&1 >/dev/null", "TPUPROF_PROGRESS_DELAY_MS=0");
  CHECK(!has(r.out, "decoding"));  // stderr a pipe: no bar
}
#endif  // TPUPROF_SAMPLES_DIR
#endif  // TPUPROF_CLI
