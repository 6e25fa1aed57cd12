#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/sinks/csv.hpp>
#include <tpuprof/sinks/write_file.hpp>

#include "sinks/sample_trace.hpp"

using namespace tpuprof;

namespace {
// RFC 4180 reader: quoted fields may hold commas, quotes ("") and newlines.
std::vector<std::vector<std::string>> parse_csv(std::string_view s) {
  std::vector<std::vector<std::string>> rows(1);
  std::string f;
  bool q = false, quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (q) {
      if (c == '"' && i + 1 < s.size() && s[i + 1] == '"')
        f += '"', ++i;
      else if (c == '"')
        q = false;
      else
        f += c;
    } else if (c == '"') {
      REQUIRE(f.empty());
      q = quoted = true;
    } else if (c == ',') {
      rows.back().push_back(f), f.clear(), quoted = false;
    } else if (c == '\n') {
      rows.back().push_back(f), f.clear(), quoted = false;
      rows.emplace_back();
    } else {
      REQUIRE(c != '\r');
      f += c;
    }
  }
  REQUIRE(!q);
  (void)quoted;
  if (rows.back().empty()) rows.pop_back();
  return rows;
}
std::string num(double v) {
  char b[32];
  return {b, std::to_chars(b, b + 32, v).ptr};
}
}  // namespace

TEST_CASE("csv sink writes one RFC 4180 row per hardware event") {
  auto t = sink_test::sample();
  std::string out;
  sinks::csv_sink s(out);
  write_trace(t, s);
  auto rows = parse_csv(out);
  REQUIRE(rows.size() == t.hw.size() + 1);
  CHECK(out.substr(0, out.find('\n')) ==
        "device,core,engine,cmd_id,start_cycle,end_cycle,start_ns,end_ns,dur_ns,op,bytes,ddr_gbps,"
        "l2m_gbps,uarch_rate,layer_id,function,port,matched");
  for (std::size_t i = 0; i < t.hw.size(); ++i) {
    const auto& e = t.hw[i];
    const auto& r = rows[i + 1];
    REQUIRE(r.size() == 18);
    bool cdma = e.engine == engine::cdma;
    CHECK(r[0] == "0");
    CHECK(r[1] == (cdma ? "" : std::to_string(e.unit)));
    CHECK(r[2] == name(e.engine));
    CHECK(r[3] == std::to_string(e.cmd_id));
    CHECK(r[4] == std::to_string(e.begin_cycle));
    CHECK(r[5] == std::to_string(e.end_cycle));
    CHECK(std::stod(r[6]) == e.begin_ns);
    CHECK(std::stod(r[7]) == e.end_ns);
    CHECK(std::stod(r[8]) == e.dur_ns());
    CHECK(r[9] == (e.op ? std::string(t.meta.names[e.op]) : "unknown"));
    CHECK(r[10] == (e.has_bytes() ? std::to_string(e.bytes) : ""));
    bool l2m = e.dir() == direction::l2m;  // local -> L2: L2 side only
    std::string bw = e.has_bytes() ? num(e.bandwidth_gbps()) : "";
    CHECK(r[11] == (l2m ? "" : bw));
    CHECK(r[12] == (l2m ? bw : ""));
    static_assert(sinks::csv_sink::ddr_side(direction::s2m) &&
                  sinks::csv_sink::l2_side(direction::s2m));
    static_assert(!sinks::csv_sink::l2_side(direction::s2l) &&
                  !sinks::csv_sink::ddr_side(direction::m2l));
    CHECK(r[13] == (std::isnan(e.uarch_rate) ? "" : num(double(e.uarch_rate))));
    CHECK(r[14] == (e.layer_id >= 0 ? std::to_string(e.layer_id) : ""));
    CHECK(r[15] == (e.function ? std::string(t.meta.names[e.function]) : ""));
    CHECK(r[16] == (cdma ? std::to_string(e.unit) : ""));
    CHECK(r[17] == (e.matched() ? "1" : "0"));
  }
}

TEST_CASE("csv summary sink gives count, busy time, bytes and bandwidth per track") {
  auto t = sink_test::sample();
  std::string out;
  sinks::csv_summary_sink s(out);
  write_events(t.events(), s);
  s.finish();
  auto rows = parse_csv(out);
  REQUIRE(rows.size() == 6);
  CHECK(out.substr(0, out.find('\n')) == sinks::csv_summary_sink::header_line);
  // core 0 GDMA: union of [1000,1400] [1100,1300] [1350,1500] [1500,1600] [1600,1600.5]
  const auto& g = rows[2];
  CHECK(g[0] == "0");
  CHECK(g[1] == "0");
  CHECK(g[2] == "GDMA");
  CHECK(g[4] == "5");
  CHECK(std::stod(g[7]) == 600.5);
  CHECK(g[9] == std::to_string(4096 * (1 + 2 + 3 + 5)));
  CHECK(std::stod(g[10]) == doctest::Approx(4096.0 * 11 / (400 + 200 + 150 + 0.5)));
  CHECK(rows[5][2] == "CDMA");
  CHECK(rows[5][1] == "");
  CHECK(rows[5][3] == "2");
}

TEST_CASE("csv file output is atomic") {
  auto dir = sink_test::tmp_dir("csv");
  auto t = sink_test::sample();
  sinks::write_file<sinks::csv_sink>(dir / "events.csv", t);
  CHECK(sink_test::slurp(dir / "events.csv").size() > 100);
  struct throwing_sink : sinks::csv_sink {
    using csv_sink::csv_sink;
    void write(const engine_event& e) {
      if (e.cmd_id == 102) throw std::runtime_error("sink failed");
      csv_sink::write(e);
    }
  };
  CHECK_THROWS(sinks::write_file<throwing_sink>(dir / "broken.csv", t));
  CHECK_FALSE(std::filesystem::exists(dir / "broken.csv"));
  std::size_t files = 0;
  for ([[maybe_unused]] auto& f : std::filesystem::directory_iterator(dir)) ++files;
  CHECK(files == 1);
}
