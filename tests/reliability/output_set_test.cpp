// io::output_set: a killed run leaves the old complete set or the new complete
// set (after the next run's recovery), never a mix; leftovers of dead runs go.
#include <algorithm>
#include <chrono>
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

const std::vector<std::string> all_names = {"trace.pftrace", "summary.txt", "events.csv"};

/// Stages "<tag>:<name>" as each file `names` of `s` (not committed).
void stage_files(output_set& s, const std::string& tag,
                 const std::vector<std::string>& names = all_names) {
  for (const auto& n : names) {
    tpuprof::io::atomic_file f(s.stage(n));
    f.write(tag + ":" + n);
    f.commit();
  }
}

void write_set(output_set& s, const std::string& tag) {
  stage_files(s, tag);
  s.commit();
}

/// `dir` emptied, then holding the complete set "old".
void fresh_old_set(const fs::path& dir) {
  fs::remove_all(dir);
  output_set old(dir);
  write_set(old, "old");
}

std::map<std::string, std::string> set_of(const std::string& tag) {
  std::map<std::string, std::string> m;
  for (const auto& n : all_names) m[n] = tag + ":" + n;
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
    fresh_old_set(dir);
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
  fresh_old_set(dir);
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

TEST_CASE(
    "output_set: a file of the old set is swapped out, and a roll forward never restores it") {
  // Over an existing file the commit swaps names through a second link of the
  // staged file (no ext4 writeback; io/replace_file.hpp), then unlinks the
  // journaled name as a rename would. Killed between the swap and that unlink
  // ("swapped:"), or after it ("moved:"), the old file is only under
  // replaced_dir and the recovered set is the new one. With
  // durability::power_loss files are renamed: no "swapped:" step, no replaced_dir.
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_swap";
  using tpuprof::io::durability;
  for (auto d : {durability::crash, durability::power_loss}) {
    for (const std::string kill : {"swapped:trace.pftrace", "moved:trace.pftrace"}) {
      CAPTURE(static_cast<int>(d));
      CAPTURE(kill);
      fresh_old_set(dir);
      fs::path stage;
      std::vector<std::string> seen;
      try {
        output_set s(
            dir,
            [&](std::string_view st) {
              seen.emplace_back(st);
              return st == kill;
            },
            d);
        stage = s.staging_dir();
        write_set(s, "new");
      } catch (const output_set::killed&) {
      }
      if (d == durability::power_loss && kill.starts_with("swapped:")) {  // no such step: done
        CHECK(std::find(seen.begin(), seen.end(), kill) == seen.end());
        CHECK(contents(dir) == set_of("new"));
        continue;
      }
      REQUIRE(fs::is_directory(stage));
      const auto replaced = stage / std::string(output_set::replaced_dir);
      auto c = contents(dir);
      CHECK(c["summary.txt"] == "old:summary.txt");  // not moved yet
      if (d == durability::crash) {
        CHECK(seen.back() == kill);
        CHECK(c["trace.pftrace"] == "new:trace.pftrace");
        CHECK(contents(replaced) ==
              std::map<std::string, std::string>{{"trace.pftrace", "old:trace.pftrace"}});
        if (kill.starts_with("swapped:"))  // the journaled name is still there: the same file
          CHECK(fs::equivalent(stage / "trace.pftrace", dir / "trace.pftrace"));
        else
          CHECK_FALSE(fs::exists(stage / "trace.pftrace"));
      } else {
        CHECK(std::find(seen.begin(), seen.end(), "swapped:trace.pftrace") == seen.end());
        CHECK_FALSE(fs::exists(replaced));
        if (kill.starts_with("moved:")) {
          CHECK(c["trace.pftrace"] == "new:trace.pftrace");
          CHECK_FALSE(fs::exists(stage / "trace.pftrace"));
        }
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
}

TEST_CASE("output_set: a committed set kept by a failed move never lands again over a newer set") {
  // Run A's commit swaps in trace.pftrace and summary.txt, then cannot move
  // events.csv (a directory took its name): A keeps its staging directory and
  // journal for a later run. Run B recovers (A stays: events.csv still
  // blocked) and commits its own set. A later recovery must leave B's files
  // (A's first two files were moved already; only events.csv is pending).
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_kept";
  fresh_old_set(dir);
  fs::remove(dir / "events.csv");
  fs::create_directories(dir / "events.csv" / "x");  // the obstacle
  CHECK_THROWS_AS(
      [&] {
        output_set a(dir);
        write_set(a, "A");
      }(),
      tpuprof::io::output_error);
  {
    output_set b(dir);  // recovers A: events.csv still blocked, A kept
    stage_files(b, "B", {"trace.pftrace", "summary.txt"});
    b.commit();
  }
  auto c = contents(dir);
  CHECK(c["trace.pftrace"] == "B:trace.pftrace");
  CHECK(c["summary.txt"] == "B:summary.txt");
  output_set::recover(dir);  // events.csv still blocked: A stays
  c = contents(dir);
  CHECK(c["trace.pftrace"] == "B:trace.pftrace");
  CHECK(c["summary.txt"] == "B:summary.txt");
  fs::remove_all(dir / "events.csv");  // the obstacle goes: A's last file lands, nothing else
  output_set::recover(dir);
  CHECK(contents(dir) == std::map<std::string, std::string>{{"trace.pftrace", "B:trace.pftrace"},
                                                            {"summary.txt", "B:summary.txt"},
                                                            {"events.csv", "A:events.csv"}});
}

TEST_CASE(
    "output_set: of two runs, the later commit wins even if the earlier run died in its moves") {
  // A commits first and is killed at any step after its commit point; B,
  // started meanwhile, commits later. The next recovery must not put A's
  // older files back over B's: neither those A had moved (a roll forward
  // finds them moved) nor those it had not (at its commit point B left a
  // notice, a link of its journal, in A's staging directory, which was there:
  // A's files that B has too are skipped).
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_two";
  using tpuprof::io::durability;
  for (auto d : {durability::crash, durability::power_loss}) {
    for (const std::string kill : {"committed", "swapped:trace.pftrace", "moved:trace.pftrace",
                                   "moved:summary.txt", "swapped:events.csv", "moved:events.csv"}) {
      CAPTURE(static_cast<int>(d));
      CAPTURE(kill);
      fresh_old_set(dir);
      output_set b(dir, {}, d);  // B starts while A is alive
      stage_files(b, "B");
      try {
        output_set a(
            dir, [&](std::string_view st) { return st == kill; }, d);
        write_set(a, "A");
      } catch (const output_set::killed&) {
      }
      b.commit();
      output_set::recover(dir);  // the next run
      CHECK(contents(dir) == set_of("B"));
    }
  }
}

TEST_CASE("output_set: an older committed set still lands the files a later commit does not have") {
  // A (a convert) is killed after moving trace.pftrace; B, started meanwhile,
  // writes report.html only (a `report -o` into the same directory) and
  // completes. Recovery completes A: B overtook none of A's files.
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_names";
  for (const std::string kill : {"committed", "moved:trace.pftrace"}) {
    CAPTURE(kill);
    fresh_old_set(dir);
    output_set b(dir);
    stage_files(b, "B", {"report.html"});
    try {
      output_set a(dir, [&](std::string_view st) { return st == kill; });
      write_set(a, "A");
    } catch (const output_set::killed&) {
    }
    b.commit();
    output_set::recover(dir);
    auto want = set_of("A");
    want["report.html"] = "B:report.html";
    CHECK(contents(dir) == want);
  }
}

TEST_CASE("output_set: a live older run whose moves come after a later commit's skips its files") {
  // A reaches its commit point; before A moves anything, B (started
  // meanwhile) commits trace.pftrace and summary.txt and completes. A then
  // leaves those two to B ("overtaken:") and moves events.csv. Killed at an
  // overtaken file, A is completed the same way by the next recovery.
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_interleaved";
  for (const std::string kill : {"", "overtaken:trace.pftrace", "overtaken:summary.txt"}) {
    CAPTURE(kill);
    fresh_old_set(dir);
    std::vector<std::string> seen;
    output_set b(dir);
    stage_files(b, "B", {"trace.pftrace", "summary.txt"});
    try {
      output_set a(dir, [&](std::string_view st) {
        seen.emplace_back(st);
        if (st == "committed") b.commit();  // B's whole commit, between A's commit point and moves
        return st == kill;
      });
      write_set(a, "A");
    } catch (const output_set::killed&) {
    }
    output_set::recover(dir);
    CHECK(contents(dir) == std::map<std::string, std::string>{{"trace.pftrace", "B:trace.pftrace"},
                                                              {"summary.txt", "B:summary.txt"},
                                                              {"events.csv", "A:events.csv"}});
    CHECK(std::find(seen.begin(), seen.end(), "moved:trace.pftrace") == seen.end());
  }
}

TEST_CASE("output_set: commits are ordered after every commit seen, whatever the clock") {
  // A live committed run L whose <seq> is a minute ahead of this clock
  // (another host's, or a clock set back): a new run N takes a <seq> after
  // it, so L's files do not overtake N's. Killed after its first move, N is
  // completed by the next recovery; and L, told of N's commit, would leave
  // N's files alone.
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_lamport";
  fresh_old_set(dir);
  const auto now =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  output_set live(dir);  // L: its lock held
  const auto ls = live.staging_dir();
  const std::string lid = ls.filename().string().substr(output_set::staging_prefix.size());
  std::ofstream(ls / "COMMIT") << output_set::journal_magic << " " << now + 60'000'000'000ull << " "
                               << lid << "\ntrace.pftrace\nsummary.txt\nevents.csv\n";
  std::vector<std::string> seen;
  try {
    output_set n(dir, [&](std::string_view st) {
      seen.emplace_back(st);
      return st == "moved:trace.pftrace";
    });
    write_set(n, "N");
  } catch (const output_set::killed&) {
  }
  CHECK(std::find(seen.begin(), seen.end(), "moved:trace.pftrace") != seen.end());
  output_set::recover(dir);  // L is alive: only N is rolled forward
  auto c = contents(dir);
  CHECK(c["trace.pftrace"] == "N:trace.pftrace");
  CHECK(c["summary.txt"] == "N:summary.txt");
  CHECK(c["events.csv"] == "N:events.csv");
  // N's commit point told L
  CHECK(std::distance(fs::directory_iterator(ls / std::string(output_set::notice_dir)),
                      fs::directory_iterator{}) == 1);
}

TEST_CASE("output_set: a notice is never left through a symlink named like a staging directory") {
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_noticelink";
  const auto target = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_noticelink_target";
  fs::remove_all(target);
  fs::create_directories(target);
  fresh_old_set(dir);
  const auto link = dir / (std::string(output_set::staging_prefix) + "abcdef");
  fs::create_directory_symlink(target, link);
  {
    output_set s(dir);
    write_set(s, "x");
  }
  CHECK(fs::is_empty(target));
  CHECK(fs::is_symlink(link));
  fs::remove(link);
  CHECK(contents(dir) == set_of("x"));
}

TEST_CASE("output_set: what a swap left under replaced_dir that is no file of ours stays") {
  // A directory that took a file's name between the check and the swap, with
  // the run killed before it swapped back, ends up under replaced_dir, and
  // the journaled name is still a link of the new file at OUT. The cleanup
  // removes only regular files there: the user's directory and its contents
  // stay, with the staging directory around them, but the set's journal and
  // names go, so that it never rolls forward again (not even once the user
  // took the directory away, over a newer set).
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_output_set_race";
  fs::remove_all(dir);
  const std::string id = "00c0ffee00c0ffee";
  const auto stage = dir / (std::string(output_set::staging_prefix) + id);
  const auto replaced = stage / std::string(output_set::replaced_dir);
  fs::create_directories(replaced / "trace.pftrace");
  std::ofstream(replaced / "trace.pftrace" / "keep") << "user data";
  std::ofstream(replaced / "summary.txt") << "old:summary.txt";  // a swapped-out file of ours
  std::ofstream(dir / "trace.pftrace") << "A:trace.pftrace";
  fs::create_hard_link(dir / "trace.pftrace", stage / "trace.pftrace");
  std::ofstream(dir / "summary.txt") << "A:summary.txt";
  std::ofstream(stage / "COMMIT") << output_set::journal_magic << " 1 " << id
                                  << "\ntrace.pftrace\nsummary.txt\n";
  output_set::recover(dir);
  CHECK(fs::exists(replaced / "trace.pftrace" / "keep"));
  CHECK_FALSE(fs::exists(replaced / "summary.txt"));
  CHECK_FALSE(fs::exists(stage / "COMMIT"));
  CHECK_FALSE(fs::exists(stage / "trace.pftrace"));
  CHECK(contents(dir)["trace.pftrace"] == "A:trace.pftrace");
  {
    output_set b(dir);  // a newer set; the kept directory stays
    stage_files(b, "B", {"trace.pftrace", "summary.txt"});
    b.commit();
  }
  CHECK(fs::exists(replaced / "trace.pftrace" / "keep"));
  fs::rename(replaced / "trace.pftrace", dir / "rescued");  // the user takes it away
  output_set::recover(dir);                                 // the staging directory goes
  auto c = contents(dir);
  CHECK(c.size() == 3);
  CHECK(c["trace.pftrace"] == "B:trace.pftrace");
  CHECK(c["summary.txt"] == "B:summary.txt");
  CHECK(fs::exists(dir / "rescued" / "keep"));
}
