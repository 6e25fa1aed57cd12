// sqlite_sink on the real captures: the tables against the decoder, and every
// recipe of docs/sinks.md ("SQLite" > "Recipes", read from the doc itself) run
// with the SQLite library, its result compared with values from the events.
#if TPUPROF_WITH_SQLITE && defined(TPUPROF_SAMPLES_DIR)

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/summary.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/sinks/csv.hpp>
#include <tpuprof/sinks/sqlite.hpp>

#include "test_util.hpp"

using namespace tpuprof;
namespace fs = std::filesystem;

namespace {

struct db {
  sqlite3* h = nullptr;
  explicit db(const fs::path& p) { REQUIRE(sqlite3_open(p.string().c_str(), &h) == SQLITE_OK); }
  ~db() { sqlite3_close(h); }
  /// Rows of `sql` as text (NULL = "<null>").
  std::vector<std::vector<std::string>> rows(const std::string& sql) const {
    sqlite3_stmt* s = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(h, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
    std::vector<std::vector<std::string>> out;
    while (sqlite3_step(s) == SQLITE_ROW) {
      auto& r = out.emplace_back();
      for (int i = 0; i < sqlite3_column_count(s); ++i) {
        auto* t = sqlite3_column_text(s, i);
        r.emplace_back(t ? reinterpret_cast<const char*>(t) : "<null>");
      }
    }
    sqlite3_finalize(s);
    return out;
  }
  double num(const std::string& sql) const { return std::stod(rows(sql).at(0).at(0)); }
};

/// The recipes of docs/sinks.md's SQLite section: "-- title" -> statement.
std::map<std::string, std::string> doc_recipes() {
  const std::string doc = test_util::read_text(TPUPROF_SOURCE_DIR "/docs/sinks.md");
  auto at = doc.find("### Recipes (`sqlite3 OUT/trace.sqlite`)");
  REQUIRE(at != std::string::npos);
  at = doc.find("```sql\n", at) + 7;
  const std::string block = doc.substr(at, doc.find("```", at) - at);
  std::map<std::string, std::string> out;
  std::string title, sql;
  std::size_t pos = 0;
  while (pos < block.size()) {
    auto eol = block.find('\n', pos);
    const std::string line = block.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.rfind("-- ", 0) == 0) {
      title = line.substr(3);
      sql.clear();
    } else if (!line.empty()) {
      sql += line + "\n";
      if (line.back() == ';') out[title] = sql;
    }
  }
  return out;
}

fs::path write_db(const std::string& name, const std::vector<std::string>& dumps) {
  const fs::path p = fs::path(TPUPROF_TEST_TMP) / name;
  fs::remove(p);
  for (const auto& d : dumps) {
    auto t = open(d);
    sinks::sqlite_sink s(p);
    write_trace(t, s);  // write_summary only before finish: done by a separate run below
  }
  return p;
}

std::vector<engine_event> hw_events(const trace& t) {
  std::vector<engine_event> v;
  for (const engine_event& e : t.events())
    if (is_hardware(e.engine)) v.push_back(e);
  return v;
}

const std::string bm1690 = TPUPROF_SAMPLES_DIR "/bm1690/cdm_profile_data_dev0";
const std::string bm1684x = TPUPROF_SAMPLES_DIR "/bm1684x/bmprofile_data-1";
const std::string aks = TPUPROF_SAMPLES_DIR "/synthetic/aks_mode1_seed1/cdm_profile_data_dev0-0";

}  // namespace

TEST_CASE("sqlite_sink: tables equal the decoder's events, spans, tracks and summary") {
  for (const std::string& dir : {bm1690, bm1684x, aks}) {
    CAPTURE(dir);
    auto t = open(dir);
    const fs::path p = fs::path(TPUPROF_TEST_TMP) / "sqlite_tables.sqlite";
    fs::remove(p);
    {
      sinks::sqlite_sink s(p);
      s.begin(t.info());
      for (const engine_event& e : t.events()) s.write(e);
      for (const engine_event& e : t.spans()) s.write(e);
      summary_options so;
      so.info = &t.info();
      s.write_summary(t.events() | algo::summary(so));
      s.finish();
    }
    db d(p);
    const auto ev = hw_events(t);
    CHECK(d.num("select count(*) from events") == ev.size());
    CHECK(d.num("select count(*) from spans") == std::ranges::distance(t.spans()));
    CHECK(d.num("select count(*) from tracks") == t.info().tracks.size());
    CHECK(d.rows("select chip, source from runs") ==
          std::vector<std::vector<std::string>>{{t.info().chip, t.info().source}});
    // Every event, in order, field by field (cycles, ids, bytes, names).
    const auto rows = d.rows(
        "select device, coalesce(core, port), engine, cmd_id, start_cycle, end_cycle, op, "
        "coalesce(bytes, -1), matched from events order by rowid");
    REQUIRE(rows.size() == ev.size());
    for (std::size_t i = 0; i < ev.size(); ++i) {
      const auto& e = ev[i];
      const auto op = e.op ? std::string(t.info().names[e.op]) : std::string("unknown");
      const std::vector<std::string> want{std::to_string(e.device),
                                          std::to_string(e.unit),
                                          std::string(name(e.engine)),
                                          std::to_string(e.cmd_id),
                                          std::to_string(e.begin_cycle),
                                          std::to_string(e.end_cycle),
                                          op,
                                          e.has_bytes() ? std::to_string(e.bytes) : "-1",
                                          e.matched() ? "1" : "0"};
      REQUIRE(rows[i] == want);
    }
    // The summary table: the numbers of algo::summary (tpuprof summary).
    summary_options so;
    so.info = &t.info();
    const summary_report r = t.events() | algo::summary(so);
    const auto sr =
        d.rows("select tiu_cycles, gdma_working_cycles, sdma_working_cycles from summary");
    REQUIRE(sr.size() == r.cores.size());
    for (std::size_t i = 0; i < sr.size(); ++i)
      CHECK(sr[i] == std::vector<std::string>{std::to_string(r.cores[i].tiu_cycles),
                                              std::to_string(r.cores[i].gdma_working_cycles()),
                                              std::to_string(r.cores[i].sdma_working_cycles())});
  }
}

TEST_CASE("sqlite_sink: the recipes of docs/sinks.md on the real captures") {
  const auto recipes = doc_recipes();
  REQUIRE(recipes.size() == 9);
  const fs::path p = write_db("sqlite_recipes.sqlite", {bm1690, bm1684x, aks});
  db d(p);
  std::vector<engine_event> all;
  std::vector<std::string> ops;  // op name of each event of `all`
  std::vector<std::uint64_t> tiu_per_run;
  for (const auto& dir : {bm1690, bm1684x, aks}) {
    auto t = open(dir);
    auto ev = hw_events(t);
    tiu_per_run.push_back(
        static_cast<std::uint64_t>(std::ranges::count(ev, engine::tiu, &engine_event::engine)));
    for (const auto& e : ev) ops.emplace_back(e.op ? t.info().names[e.op] : "unknown");
    all.insert(all.end(), ev.begin(), ev.end());
  }
  auto count = [&](auto pred) {
    return static_cast<std::size_t>(std::ranges::count_if(all, pred));
  };
  auto ddr = [](const engine_event& e) {
    return sinks::csv_sink::ddr_side(e.dir()) ? e.bandwidth_gbps() : std::nan("");
  };
  auto run = [&](const std::string& title) {
    INFO(title);
    REQUIRE(recipes.count(title) == 1);
    return d.rows(recipes.at(title));
  };
  // bigTpuProfile's first: mm.normal does not occur in these captures (their
  // matmuls are conv.normal / MM2_*), so it is also run for conv.normal.
  for (const std::string op : {"mm.normal", "conv.normal", "MM2_NN"}) {
    CAPTURE(op);
    std::string q = recipes.at("mm.normal by duration (bigTpuProfile's first recipe)");
    q.replace(q.find("mm.normal"), 9, op);
    const auto r = d.rows(q);
    std::vector<double> want;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (ops[i] == op) want.push_back(all[i].dur_ns());
    std::ranges::sort(want, std::greater<>{});
    REQUIRE(r.size() == want.size());
    for (std::size_t i = 0; i < r.size(); ++i) CHECK(std::stod(r[i][10]) == want[i]);
  }
  // Independent of our decoder: the vendor decoders' rows (tests/data) name conv.normal as often.
  auto vendor_count = [](const std::string& file) {
    const std::string text = test_util::read_text(TPUPROF_SOURCE_DIR "/tests/data/" + file);
    std::size_t n = 0;
    for (auto at = text.find("conv.normal"); at != std::string::npos;
         at = text.find("conv.normal", at + 1))
      ++n;
    return std::to_string(n);
  };
  CHECK(d.rows("select run_id, count(*) from events where op = 'conv.normal' group by run_id") ==
        std::vector<std::vector<std::string>>{{"1", vendor_count("bm1690_vendor_events.csv")},
                                              {"2", vendor_count("bm1684x_vendor_events.csv")}});
  {
    const auto r = run("DMA bandwidth between 5 and 20 GB/s (bigTpuProfile's second recipe)");
    CHECK(r.size() == count([&](const engine_event& e) {
            const double g = ddr(e);
            return g >= 5 && g <= 20;
          }));
    CHECK(r.size() > 0);
    for (std::size_t i = 1; i < r.size(); ++i) CHECK(std::stod(r[i - 1][0]) >= std::stod(r[i][0]));
  }
  {
    const auto r = run("TIU uArch rate below 40 % (bigTpuProfile's third recipe)");
    CHECK(r.size() == count([](const engine_event& e) {
            return e.engine == engine::tiu && !std::isnan(e.uarch_rate) &&
                   static_cast<double>(e.uarch_rate) < 0.40;
          }));
    CHECK(r.size() > 0);
  }
  CHECK(run("DMAs faster than 20 GB/s").size() ==
        count([&](const engine_event& e) { return ddr(e) > 20; }));
  {
    const auto r = run("time and count per op and engine");
    double n = 0;
    for (const auto& row : r) n += std::stod(row[2]);
    CHECK(n == all.size());
  }
  {
    std::uint64_t want = 0;
    for (const engine_event& e : all)
      if ((e.engine == engine::gdma || e.engine == engine::sdma) && e.has_bytes()) want += e.bytes;
    double got = 0;
    for (const auto& row : run("bytes moved per DMA engine and core"))
      if (row[3] != "<null>") got += std::stod(row[3]);
    CHECK(got == static_cast<double>(want));
  }
  CHECK(run("unmatched PMU records").size() ==
        count([](const engine_event& e) { return !e.matched(); }));
  {
    const auto r = run("time per layer (BM1684X: layer spans; layer_id joins them to commands)");
    CHECK(r.size() == d.num("select count(*) from spans where kind = 'LAYER'"));
    CHECK(r.size() == 183);  // BM1684X capture: 183 layer spans
  }
  {
    const auto r = run("the same op across runs (several dumps in one database)");
    REQUIRE(r.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) CHECK(std::stoull(r[i][3]) == tiu_per_run[i]);
    CHECK(r[2][2] == "0");  // aks ...dev0-0: call 0
    CHECK(r[0][2] == "<null>");
  }
}

TEST_CASE("sqlite_sink: an exception before finish() leaves the database as it was") {
  const fs::path p = write_db("sqlite_rollback.sqlite", {bm1690});
  {
    auto t = open(bm1684x);
    sinks::sqlite_sink s(p);
    s.begin(t.info());
    for (const engine_event& e : t.events()) s.write(e);
  }  // no finish(): rolled back
  db d(p);
  CHECK(d.num("select count(*) from runs") == 1);
  CHECK(d.num("select count(*) from events") == 258);  // BM1690: 85 TIU + 168 GDMA + 5 SDMA
}

#endif
