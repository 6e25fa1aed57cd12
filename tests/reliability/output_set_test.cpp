// io::output_set: a killed run leaves the old complete set or the new complete
// set (after the next run's recovery), never a mix; leftovers of dead runs go.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/output_set.hpp>

namespace fs = std::filesystem;
using tpuprof::io::output_set;

namespace {
std::map<std::string, std::string> contents(const fs::path& dir) {
  std::map<std::string, std::string> m;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    m[e.path().filename().string()] = e.is_directory() ? "<dir>" : ss.str();
  }
  return m;
}

void write_set(output_set& s, const std::string& tag) {
  for (const char* n : {"trace.pftrace", "summary.txt", "events.csv"}) {
    tpuprof::io::atomic_file f(s.stage(n));
    f.write(tag + ":" + n);
    f.commit();
  }
  s.commit();
}

std::map<std::string, std::string> set_of(const std::string& tag) {
  std::map<std::string, std::string> m;
  for (const char* n : {"trace.pftrace", "summary.txt", "events.csv"}) m[n] = tag + ":" + n;
  return m;
}
}  // namespace

TEST_CASE("output_set: a kill at every step leaves the old or the new complete set") {
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set";
  const std::vector<std::string> steps = {
      "stage:trace.pftrace", "stage:summary.txt",   "stage:events.csv",  "journal",
      "committed",           "moved:trace.pftrace", "moved:summary.txt", "moved:events.csv"};
  for (std::size_t k = 0; k < steps.size(); ++k) {
    CAPTURE(steps[k]);
    fs::remove_all(dir);
    {
      output_set old(dir);
      write_set(old, "old");
    }
    REQUIRE(contents(dir) == set_of("old"));
    std::vector<std::string> seen;
    bool killed = false;
    try {
      output_set s(dir, [&](std::string_view st) {
        seen.emplace_back(st);
        return st == steps[k];
      });
      write_set(s, "new");
    } catch (const output_set::killed&) {
      killed = true;
    }
    CHECK(killed);
    // the next run recovers first: the set is then whole, old before the journal, new after
    output_set::recover(dir);
    CHECK(contents(dir) == set_of(k < 4 ? "old" : "new"));
  }
  // every step was offered to the hook, in this order
  fs::remove_all(dir);
  std::vector<std::string> seen;
  {
    output_set s(dir, [&](std::string_view st) {
      seen.emplace_back(st);
      return false;
    });
    write_set(s, "x");
  }
  CHECK(seen == steps);
  CHECK(contents(dir) == set_of("x"));
}

TEST_CASE("output_set: a failed run keeps the old set; leftovers of dead runs are removed") {
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set2";
  fs::remove_all(dir);
  {
    output_set old(dir);
    write_set(old, "old");
  }
  try {
    output_set s(dir);
    tpuprof::io::atomic_file f(s.stage("trace.pftrace"));
    f.write("partial");
    f.commit();
    throw std::runtime_error("disk full");  // the next writer failed
  } catch (const std::runtime_error&) {
  }
  CHECK(contents(dir) == set_of("old"));
  // a killed run's uncommitted staging directory, with an atomic_file temporary in it
  const std::string dead = ".tpuprof-staging.0123abcd";
  fs::create_directories(dir / dead);
  std::ofstream(dir / dead / "summary.txt") << "j";
  std::ofstream(dir / dead / "trace.pftrace.tmp.77") << "junk";
  // files of the user's that merely look like temporaries are not touched
  const std::string live = "events.csv.tmp." + std::to_string(::getpid());
  std::ofstream(dir / live) << "live";
  {
    output_set s(dir);  // recovers on construction
    auto c = contents(dir);
    CHECK(c.count(dead) == 0);
    CHECK(c.count(live) == 1);
  }
  fs::remove(dir / live);
  CHECK(contents(dir) == set_of("old"));  // the uncommitted set s left nothing
}

TEST_CASE("output_set: a file of the old set is swapped out, so a roll forward never restores it") {
  // Over an existing file the commit swaps names through a second link of the
  // staged file (no ext4 writeback; io/replace_file.hpp). Killed right after
  // the first swap, the staging directory holds the new file under its name
  // and the old one only under replaced_dir; the roll forward renames the new
  // file onto itself. With durability::power_loss files are renamed.
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_swap";
  for (auto d : {tpuprof::io::durability::crash, tpuprof::io::durability::power_loss}) {
    CAPTURE(static_cast<int>(d));
    fs::remove_all(dir);
    {
      output_set old(dir);
      write_set(old, "old");
    }
    fs::path stage;
    try {
      output_set s(
          dir, [&](std::string_view st) { return st == "moved:trace.pftrace"; }, d);
      stage = s.staging_dir();
      write_set(s, "new");
    } catch (const output_set::killed&) {
    }
    REQUIRE(fs::is_directory(stage));
    const auto replaced = stage / std::string(output_set::replaced_dir);
    auto c = contents(dir);
    CHECK(c["trace.pftrace"] == "new:trace.pftrace");
    CHECK(c["summary.txt"] == "old:summary.txt");  // not moved yet
    if (d == tpuprof::io::durability::crash) {
      CHECK(contents(replaced) ==
            std::map<std::string, std::string>{{"trace.pftrace", "old:trace.pftrace"}});
      CHECK(fs::equivalent(stage / "trace.pftrace", dir / "trace.pftrace"));
    } else {
      CHECK_FALSE(fs::exists(replaced));
      CHECK_FALSE(fs::exists(stage / "trace.pftrace"));
    }
    output_set::recover(dir);
    CHECK(contents(dir) == set_of("new"));
    // an uninterrupted commit over the new set leaves no staging directory
    {
      output_set s(dir, {}, d);
      write_set(s, "newer");
    }
    CHECK(contents(dir) == set_of("newer"));
  }
}
