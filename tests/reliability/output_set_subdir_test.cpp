// io::output_set with a file in a subdirectory of the set (bigTpuProfile's
// PerfDoc/<OUT>.xlsx): committed in place, finished by recovery after a kill,
// a journal naming a path outside the directory is ignored, and
// durability::power_loss syncs the staged files before the commit point.
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/output_set.hpp>

namespace fs = std::filesystem;
using tpuprof::io::output_set;

namespace {
std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void write_staged(output_set& s, const std::string& name, const std::string& text) {
  tpuprof::io::atomic_file f(s.stage(name));
  f.write(text);
  f.commit();
}
}  // namespace

TEST_CASE("output_set: a file in a subdirectory is staged, committed and recovered") {
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_subdir";
  fs::remove_all(dir);
  {
    output_set s(dir);
    write_staged(s, "summary.txt", "a");
    write_staged(s, "PerfDoc/out.xlsx", "book");
    s.commit();
  }
  CHECK(read_text(dir / "PerfDoc/out.xlsx") == "book");
  CHECK(read_text(dir / "summary.txt") == "a");
  // killed after the journal, before the moves: the next run finishes the set
  fs::remove_all(dir / "PerfDoc");
  try {
    output_set s(dir, [](std::string_view st) { return st == "committed"; });
    write_staged(s, "summary.txt", "b");
    write_staged(s, "PerfDoc/out.xlsx", "book2");
    s.commit();
  } catch (const output_set::killed&) {
  }
  CHECK(!fs::exists(dir / "PerfDoc/out.xlsx"));
  output_set::recover(dir);
  CHECK(read_text(dir / "PerfDoc/out.xlsx") == "book2");
  CHECK(read_text(dir / "summary.txt") == "b");
  // a journal naming ../ (written by hand) moves nothing out of the directory
  const auto stage = dir / ".tpuprof-staging.00ab";
  fs::create_directories(stage);
  std::ofstream(stage / "x.txt") << "x";
  std::ofstream(stage / "COMMIT") << "tpuprof-commit 1 1 00ab\n../x.txt\n";
  output_set::recover(dir);
  CHECK(!fs::exists(dir.parent_path() / "x.txt"));
  CHECK(!fs::exists(stage));
}

TEST_CASE("output_set: power_loss syncs every staged file before the commit point; crash none") {
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_durability";
  for (const auto d : {tpuprof::io::durability::crash, tpuprof::io::durability::power_loss}) {
    fs::remove_all(dir);
    std::vector<std::string> steps;
    {
      output_set s(
          dir,
          [&steps](std::string_view st) {
            steps.emplace_back(st);
            return false;
          },
          d);
      write_staged(s, "summary.txt", "a");
      write_staged(s, "PerfDoc/out.xlsx", "book");
      s.commit();
    }
    CHECK(read_text(dir / "PerfDoc/out.xlsx") == "book");
    CHECK(read_text(dir / "summary.txt") == "a");
    const std::vector<std::string> crash{"stage:summary.txt", "stage:PerfDoc/out.xlsx",
                                         "journal",           "committed",
                                         "moved:summary.txt", "moved:PerfDoc/out.xlsx"};
    const std::vector<std::string> power{"stage:summary.txt",
                                         "stage:PerfDoc/out.xlsx",
                                         "synced:summary.txt",
                                         "synced:PerfDoc/out.xlsx",
                                         "journal",
                                         "committed",
                                         "moved:summary.txt",
                                         "moved:PerfDoc/out.xlsx",
                                         "synced-dirs"};
    CHECK(steps == (d == tpuprof::io::durability::crash ? crash : power));
  }
}
