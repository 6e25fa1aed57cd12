// io::output_set recovery touches only its own staging directories, judges
// them by their flock (not by pid), follows only well-formed journals, and a
// set whose files could not all be moved after the commit point is completed
// by the next run.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/output_set.hpp>

namespace fs = std::filesystem;
using tpuprof::io::output_set;

namespace {
fs::path fresh(const char* name) {
  const auto dir = fs::path(TPUPROF_TEST_TMP) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void put(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

void stage_files(output_set& s, const std::string& tag) {
  for (const char* n : {"trace.pftrace", "summary.txt", "events.csv"}) {
    tpuprof::io::atomic_file f(s.stage(n));
    f.write(tag + ":" + n);
    f.commit();
  }
}

bool has_staging(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().starts_with(output_set::staging_prefix)) return true;
  return false;
}
}  // namespace

TEST_CASE("output_set recovery leaves the user's own files alone") {
  const auto dir = fresh("reliab_recover_user");
  // names that look like temporaries of a dead pid: they are the user's
  put(dir / "model.tmp.20240101", "mine");
  put(dir / "notes.tmp.1073741824", "mine too");
  // a symlink with a staging name, to a directory of the user's with a journal-like file
  const auto user = fresh("reliab_recover_user_target");
  put(user / "COMMIT", "data.txt\n");
  put(user / "data.txt", "user data");
  fs::create_directory_symlink(user, dir / ".tpuprof-staging.1073741824");
  {
    output_set s(dir);
    stage_files(s, "new");
    s.commit();
  }
  CHECK(read(dir / "model.tmp.20240101") == "mine");
  CHECK(read(dir / "notes.tmp.1073741824") == "mine too");
  CHECK(fs::is_symlink(dir / ".tpuprof-staging.1073741824"));
  CHECK(read(user / "data.txt") == "user data");
  CHECK_FALSE(fs::exists(dir / "data.txt"));
  CHECK(read(dir / "summary.txt") == "new:summary.txt");
}

TEST_CASE("output_set recovery judges a staging directory by its lock, not by a pid") {
  const auto dir = fresh("reliab_recover_lock");
  // named like a live pid (init), but nobody holds its lock: a dead run's
  fs::create_directory(dir / ".tpuprof-staging.1");
  put(dir / ".tpuprof-staging.1" / "summary.txt", "uncommitted");
  // a committed one whose run died before moving anything: rolled forward
  const auto c = dir / ".tpuprof-staging.2";
  fs::create_directory(c);
  put(c / "summary.txt", "rolled");
  put(c / "COMMIT", std::string(output_set::journal_magic) + " 5 2\nsummary.txt\n");
  output_set::recover(dir);
  CHECK_FALSE(fs::exists(dir / ".tpuprof-staging.1"));
  CHECK_FALSE(fs::exists(c));
  CHECK(read(dir / "summary.txt") == "rolled");

  // a live run of this process: its staging directory is locked and survives
  output_set live(dir);
  stage_files(live, "live");
  output_set::recover(dir);
  CHECK(fs::exists(live.staging_dir() / "summary.txt"));
  live.commit();
  CHECK(read(dir / "summary.txt") == "live:summary.txt");
  CHECK_FALSE(has_staging(dir));
}

TEST_CASE("output_set: a run killed by SIGKILL holds its staging directory until it dies") {
  const auto dir = fresh("reliab_recover_kill");
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    try {
      output_set s(dir);
      stage_files(s, "child");
      (void)!::write(ready[1], "x", 1);
      for (;;) ::pause();  // killed here, between staging and the commit point
    } catch (...) {
    }
    ::_exit(1);
  }
  char x = 0;
  REQUIRE(::read(ready[0], &x, 1) == 1);
  output_set::recover(dir);  // the child is alive: its files stay
  CHECK(has_staging(dir));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  output_set::recover(dir);  // dead: its lock is free, its uncommitted set goes
  CHECK_FALSE(has_staging(dir));
  CHECK_FALSE(fs::exists(dir / "summary.txt"));
}

TEST_CASE("output_set recovery follows only well-formed journals of the directory's own run") {
  const auto dir = fresh("reliab_recover_journal");
  put(dir / "victim.txt", "keep");
  const std::string magic(output_set::journal_magic);
  const std::map<std::string, std::string> bad = {
      {"a1", magic + " 5 a1\n..\n"},
      {"a2", magic + " 5 a2\n.\n"},
      {"a3", magic + " 5 a3\nsub/victim.txt\n"},
      {"a4", magic + " 5 a4\nLOCK\n"},
      {"a5", magic + " 5 ffff\nvictim.txt\n"},  // another run's journal, copied
      {"a6", "victim.txt\n"},                   // no header
      {"a7", magic + " x a7\nvictim.txt\n"},
      {"a8", magic + " 5 a8\nvictim.txt\n\n"},  // an empty name
  };
  for (const auto& [id, journal] : bad) {
    const auto s = dir / (".tpuprof-staging." + id);
    fs::create_directories(s / "sub");
    put(s / "victim.txt", "replaced");
    put(s / "sub" / "victim.txt", "replaced");
    put(s / "COMMIT", journal);
  }
  output_set::recover(dir);
  CHECK(read(dir / "victim.txt") == "keep");
  CHECK_FALSE(has_staging(dir));  // not committed by us: removed as uncommitted
  CHECK(fs::exists(fs::path(TPUPROF_TEST_TMP)));
  CHECK_THROWS_AS(
      [&] {
        output_set s(dir);
        s.stage("../escape");
      }(),
      tpuprof::io::output_error);
}

TEST_CASE("output_set: a rename that fails after the commit point is finished by the next run") {
  const auto dir = fresh("reliab_recover_rollforward");
  {
    output_set old(dir);
    stage_files(old, "old");
    old.commit();
  }
  // summary.txt cannot be replaced: a non-empty directory took its name
  fs::remove(dir / "summary.txt");
  fs::create_directories(dir / "summary.txt" / "x");
  std::string what;
  try {
    output_set s(dir);
    stage_files(s, "new");
    s.commit();
  } catch (const tpuprof::io::output_error& e) {
    what = e.what();
  }
  CHECK(what.find("summary.txt: rename failed: ") != std::string::npos);
  CHECK(read(dir / "trace.pftrace") == "new:trace.pftrace");  // moved before the failure
  REQUIRE(has_staging(dir));  // the committed rest and its journal are kept
  fs::remove_all(dir / "summary.txt");
  {
    output_set next(dir);  // recovers: rolls the committed set forward
    CHECK(read(dir / "summary.txt") == "new:summary.txt");
    CHECK(read(dir / "events.csv") == "new:events.csv");
    CHECK(read(dir / "trace.pftrace") == "new:trace.pftrace");
  }
  CHECK_FALSE(has_staging(dir));
}

TEST_CASE("output_set recovery rolls committed sets forward oldest first") {
  const auto dir = fresh("reliab_recover_order");
  const std::string magic(output_set::journal_magic);
  for (const auto& [id, seq] : {std::pair{"b2", "9"}, std::pair{"b1", "7"}}) {
    const auto s = dir / (std::string(".tpuprof-staging.") + id);
    fs::create_directory(s);
    put(s / "summary.txt", std::string("seq ") + seq);
    put(s / "COMMIT", magic + " " + seq + " " + id + "\nsummary.txt\n");
  }
  output_set::recover(dir);
  CHECK(read(dir / "summary.txt") == "seq 9");  // the newer commit lands last
  CHECK_FALSE(has_staging(dir));
}
