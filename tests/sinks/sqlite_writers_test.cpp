// sqlite_sink robustness: two writers into one database wait for each other
// instead of failing with "database is locked"; a constructor that throws
// closes its connection.
#if TPUPROF_WITH_SQLITE

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include <tpuprof/sinks/sqlite.hpp>

using namespace tpuprof;
namespace fs = std::filesystem;

namespace {
std::string one(const fs::path& db, const char* sql) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(db.string().c_str(), &h) == SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(h, sql, -1, &s, nullptr) == SQLITE_OK);
  std::string out;
  if (sqlite3_step(s) == SQLITE_ROW) out = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
  sqlite3_finalize(s);
  sqlite3_close(h);
  return out;
}
}  // namespace

TEST_CASE("sqlite_sink: two writers of one database both land, one after the other") {
  const auto db = fs::path(TPUPROF_TEST_TMP) / "sqlite_two_writers.db";
  fs::remove(db);
  trace_info a, b;
  a.source = "dump_a";
  a.chip = b.chip = "BM1684X";
  b.source = "dump_b";
  sinks::sqlite_options so;
  so.shared = true;
  so.label = "A";
  sinks::sqlite_sink first(db, so);  // holds the write lock from here to finish()
  first.begin(a);
  std::string second_error = "not run";
  std::thread second([&] {
    try {
      sinks::sqlite_options o2;
      o2.shared = true;
      o2.label = "B";
      sinks::sqlite_sink s(db, o2);  // waits for `first` (busy timeout)
      s.begin(b);
      s.finish();
      second_error.clear();
    } catch (const std::exception& e) {
      second_error = e.what();
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  first.finish();
  second.join();
  CHECK(second_error == "");
  CHECK(one(db,
            "SELECT group_concat(label || ':' || source, ',') FROM (SELECT * FROM runs "
            "ORDER BY run_id)") == "A:dump_a,B:dump_b");
}

TEST_CASE("sqlite_sink: a writer gives up after its busy timeout with the file named") {
  const auto db = fs::path(TPUPROF_TEST_TMP) / "sqlite_busy.db";
  fs::remove(db);
  sinks::sqlite_sink first(db);
  sinks::sqlite_options o2;
  o2.busy_timeout = std::chrono::milliseconds(50);
  std::string what;
  try {
    sinks::sqlite_sink second(db, o2);
  } catch (const io::output_error& e) {
    what = e.what();
  }
  CHECK(what == db.string() + ": sqlite exec: database is locked");
}

TEST_CASE("sqlite_sink: a constructor that throws closes its connection") {
  const auto bad = fs::path(TPUPROF_TEST_TMP) / "sqlite_not_a_db.db";
  std::ofstream(bad, std::ios::binary) << std::string(4096, 'x');  // not a database
  sqlite3_int64 used = sqlite3_memory_used();
  {
    sqlite3* h = nullptr;  // the measure can see a connection
    REQUIRE(sqlite3_open(bad.string().c_str(), &h) == SQLITE_OK);
    REQUIRE(sqlite3_memory_used() > used);
    sqlite3_close(h);
  }
  used = sqlite3_memory_used();
  std::string what;
  try {
    sinks::sqlite_sink s(bad);
  } catch (const io::output_error& e) {
    what = e.what();
  }
  CHECK(what.find("file is not a database") != std::string::npos);
  CHECK(sqlite3_memory_used() == used);
}

#endif
