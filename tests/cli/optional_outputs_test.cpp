// The xlsx and SQLite outputs come from modules the CLI loads only when asked
// for (examples/cli/optional_outputs.hpp): a plain start does not map their
// libraries, the outputs still work through the modules, errors thrown inside
// a module reach the CLI's exit codes, and a missing module is an error that
// names its path before any input is read.
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI) && defined(TPUPROF_SAMPLES_DIR)
namespace fs = std::filesystem;
using test_util::read_text;
using test_util::run_cli;
using test_util::run_shell;

namespace {
fs::path fresh_dir(const std::string& name) {
  auto p = fs::path(TPUPROF_TEST_TMP) / ("optional_outputs_" + name);
  fs::remove_all(p);
  return p;
}
const std::string sample = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";
}  // namespace

TEST_CASE("cli: a plain start maps neither libxlsxwriter nor libsqlite3") {
  const auto r = run_shell("LD_TRACE_LOADED_OBJECTS=1 " + std::string(TPUPROF_CLI));
  REQUIRE(r.code == 0);
  CHECK(r.out.find("libfmt") != std::string::npos);  // the listing is the real one
  CHECK(r.out.find("xlsxwriter") == std::string::npos);
  CHECK(r.out.find("libcrypto") == std::string::npos);
  CHECK(r.out.find("libz.") == std::string::npos);
  CHECK(r.out.find("sqlite") == std::string::npos);
}

TEST_CASE("cli: --sqlite and --xlsx write through their modules") {
  const auto out = fresh_dir("both");
  const auto r = run_cli("convert -q --sqlite --xlsx -o " + out.string() + " " + sample);
  if (r.out.find("built without") != std::string::npos) {
    MESSAGE("this CLI was built without libxlsxwriter or SQLite: " << r.out);
    return;
  }
  REQUIRE(r.code == 0);
  CHECK(r.out.empty());
  const std::string db = read_text((out / "trace.sqlite").string());
  CHECK(db.rfind(std::string("SQLite format 3\0", 16), 0) == 0);
  CHECK(db.size() > 4096);
  const std::string book = read_text((out / "perfdoc.xlsx").string());
  CHECK(book.rfind("PK\x03\x04", 0) == 0);  // a zip container
  CHECK(book.size() > 4000);

  SUBCASE("an error thrown inside a module is the CLI's output error (exit 3)") {
    const auto bad =
        run_cli("convert -q --sqlite-db " + (out / "no" / "such" / "x.sqlite").string() + " -o " +
                (out / "o2").string() + " " + sample);
    CHECK(bad.code == 3);
    CHECK(bad.out.find("x.sqlite: cannot open") != std::string::npos);
  }
}

TEST_CASE("cli: a missing module is an error naming it, before the input is read") {
  // The binary alone in a directory of its own: no lib/tpuprof/ beside it.
  const auto root = fresh_dir("alone");
  fs::create_directories(root / "bin");
  const fs::path cli = root / "bin" / "tpuprof";
  fs::copy_file(TPUPROF_CLI, cli);
  REQUIRE(run_shell(cli.string() + " --version").code == 0);  // the rest still works
  for (const char* flag : {"--sqlite", "--xlsx", "--enable_doc"}) {
    CAPTURE(flag);
    const auto with = run_cli(std::string("convert -q ") + flag + " -o " +
                              (root / "with").string() + " " + sample);
    if (with.out.find("built without") != std::string::npos) continue;
    REQUIRE(with.code == 0);  // the build's own binary finds its module
    const auto r =
        run_shell(cli.string() + " convert -q " + flag + " -o " + (root / "out").string() + " " +
                  (root / "no_such_input").string() + " 2>&1");
    CHECK(r.code == 3);
    const std::string module =
        std::string(flag) == "--sqlite" ? "tpuprof_sqlite.so" : "tpuprof_xlsx.so";
    CHECK(r.out.find("needs the module " + root.string()) != std::string::npos);
    CHECK(r.out.find("/tpuprof/" + module) != std::string::npos);
    CHECK(r.out.find("no_such_input") == std::string::npos);  // failed before the decode
    CHECK(!fs::exists(root / "out"));
  }
}
#endif
