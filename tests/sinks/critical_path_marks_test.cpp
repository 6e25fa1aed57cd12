// Critical-path flows and markers in the Perfetto and Chrome JSON outputs: a
// hand-checked path, read back with the test reader (and protoc, the shared
// checkers), and `convert --critical-path` on a generated dump with
// dependencies against `critical-path --format json`.
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/sinks/chrome_json.hpp>
#include <tpuprof/sinks/critical_path_marks.hpp>
#include <tpuprof/sinks/perfetto.hpp>

#include "algo/graph_test_util.hpp"
#include "perfetto_reader.hpp"
#include "sample_trace.hpp"

using namespace tpuprof;
namespace fs = std::filesystem;

namespace {

constexpr auto waits = graph_test::dep;

// TIU t1 [0,10], t2 [35,50] waits for g1; GDMA g1 [12,30] waits for t1, g2 [31,33].
// Path: t1 (start) -> g1 (dependency) -> t2 (dependency): flows 1 (t1->g1), 2 (g1->t2).
struct hand_trace {
  std::vector<engine_event> e{
      sink_test::ev(0, engine::tiu, 0, 10, 1, 0), sink_test::ev(0, engine::tiu, 35, 50, 2, 0),
      sink_test::ev(0, engine::gdma, 12, 30, 1, 0), sink_test::ev(0, engine::gdma, 31, 33, 2, 0)};
  std::vector<command_dep> d{waits(1, 0, engine::gdma), waits(2, 1, engine::gdma),
                             waits(1, 1, engine::tiu), waits(2, 0, engine::tiu)};
  trace_info info;
};

template <class Sink, class Opt>
std::string encode(const hand_trace& h, const Opt& o) {
  std::string out;
  Sink s(out, o);
  s.begin(h.info);
  write_events(h.e, s);
  s.finish();
  return out;
}

}  // namespace

TEST_CASE("critical_path_marks: flows along the dependency edges of a hand-checked path") {
  hand_trace h;
  const auto g = algo::build_dependency_graph(h.e, h.d);
  const auto cp = algo::critical_path(g);
  REQUIRE(cp.path.size() == 3);
  const auto m = sinks::critical_path_marks(g, cp, h.e);
  CHECK(m.size() == 3);
  REQUIRE(m.find(h.e[0]));
  CHECK(m.find(h.e[0])->flow_out == 1);
  CHECK(m.find(h.e[0])->flow_in == 0);
  CHECK(m.find(h.e[2])->flow_in == 1);
  CHECK(m.find(h.e[2])->flow_out == 2);
  CHECK(m.find(h.e[1])->flow_in == 2);
  CHECK(m.find(h.e[3]) == nullptr);  // g2 is not on the path

  std::vector<engine_event> other = h.e;  // another decode must hold the same commands
  other[1].cmd_id = 9;
  CHECK_THROWS_AS(sinks::critical_path_marks(g, cp, other), std::invalid_argument);

  SUBCASE("perfetto: flow_ids and the critical_path annotation") {
    sinks::perfetto_options o;
    o.marks = &m;
    const std::string bytes = encode<sinks::perfetto_sink>(h, o);
    const auto t = sink_test::pf::read(bytes);
    std::map<std::pair<std::string, std::int64_t>, const sink_test::pf::slice*> by;
    for (const auto& s : t.slices) by[{t.tracks.at(s.track).name, s.ts}] = &s;
    const auto *t1 = by.at({"TIU", 0}), *t2 = by.at({"TIU", 35}), *g1 = by.at({"GDMA", 12}),
               *g2 = by.at({"GDMA", 31});
    CHECK(t1->flows == std::vector<std::uint64_t>{1});
    CHECK(g1->flows == std::vector<std::uint64_t>{1, 2});
    CHECK(t2->flows == std::vector<std::uint64_t>{2});
    CHECK(g2->flows.empty());
    for (const auto* s : {t1, g1, t2}) CHECK(std::get<bool>(s->args.at("debug.critical_path")));
    CHECK(g2->args.count("debug.critical_path") == 0);
    // Without marks the bytes are those of a plain sink.
    CHECK(encode<sinks::perfetto_sink>(h, sinks::perfetto_options{}) !=
          encode<sinks::perfetto_sink>(h, o));
    auto dir = sink_test::tmp_dir("critical_path_marks");
    const auto file = dir / "hand.pftrace";
    {
      std::ofstream f(file, std::ios::binary);
      f << bytes;
    }
    std::string out;
    if (sink_test::run("command -v protoc") == 0) {
      CHECK(sink_test::run("protoc --proto_path=" TPUPROF_SOURCE_DIR
                           "/tests/data --decode=perfetto.protos.Trace perfetto_trace.proto < " +
                               file.string() + " > " + (dir / "hand.txt").string(),
                           &out) == 0);
      CHECK(sink_test::run("grep -qE '^ *[0-9]+(:| \\{)' " + (dir / "hand.txt").string()) == 1);
      CHECK(sink_test::run("grep -c 'flow_ids: ' " + (dir / "hand.txt").string(), &out) == 0);
      CHECK(out.find('4') == 0);  // 2 flows x 2 ends
    }
    if (fs::exists(sink_test::shared_tools() / "perfetto_check.py")) {
      const int rc =
          sink_test::run("python3 " + (sink_test::shared_tools() / "perfetto_check.py").string() +
                             " " + file.string(),
                         &out);
      INFO(out);
      CHECK(rc == 0);
      CHECK(out.find("2 flows") != std::string::npos);
      CHECK(out.find("WARN") == std::string::npos);
    }
  }

  SUBCASE("chrome json: s/f flow events on the slices' threads") {
    sinks::chrome_json_options o;
    o.marks = &m;
    const std::string js = encode<sinks::chrome_json_sink>(h, o);
    simdjson::dom::parser parser;
    const simdjson::padded_string ps(js);
    simdjson::dom::element doc = parser.parse(ps);
    std::map<std::int64_t, std::pair<std::string, std::int64_t>> starts, ends;  // id -> (tid, ts)
    std::map<std::int64_t, bool> critical;                                      // X ts -> flag
    for (simdjson::dom::element e : doc["traceEvents"].get_array()) {
      const std::string_view ph = e["ph"];
      if (ph == "X") {
        bool c = false;
        if (auto v = e["args"]["critical_path"]; !v.error()) c = bool(v);
        critical[std::llround(double(e["ts"]) * 1000)] = c;
      } else if (ph == "s" || ph == "f") {
        const std::int64_t id = e["id"];
        const auto where =
            std::pair{std::to_string(int64_t(e["tid"])), std::llround(double(e["ts"]) * 1000)};
        (ph == "s" ? starts : ends)[id] = where;
        if (ph == "f") CHECK(std::string_view(e["bp"]) == "e");
      }
    }
    const std::string tiu = std::to_string(static_cast<int>(engine::tiu) * 1000 + 1);
    const std::string gdma = std::to_string(static_cast<int>(engine::gdma) * 1000 + 1);
    CHECK(starts.size() == 2);
    CHECK(ends.size() == 2);
    CHECK(starts[1] == std::pair{tiu, std::int64_t{5}});    // middle of t1
    CHECK(ends[1] == std::pair{gdma, std::int64_t{21}});    // middle of g1
    CHECK(starts[2] == std::pair{gdma, std::int64_t{21}});  // g1
    CHECK(ends[2] == std::pair{tiu, std::int64_t{42}});     // middle of t2 ((35 + 50) / 2)
    CHECK(critical[0]);
    CHECK(critical[12]);
    CHECK(critical[35]);
    CHECK_FALSE(critical[31]);
    if (fs::exists(sink_test::shared_tools() / "chrome_json_check.py")) {
      auto dir = sink_test::tmp_dir("critical_path_marks");
      {
        std::ofstream f(dir / "hand.json");
        f << js;
      }
      std::string out;
      const int rc = sink_test::run(
          "python3 " + (sink_test::shared_tools() / "chrome_json_check.py").string() + " " +
              (dir / "hand.json").string(),
          &out);
      INFO(out);
      CHECK(rc == 0);
      CHECK(out.find("WARN") == std::string::npos);
    }
  }
}

#ifdef TPUPROF_CLI
TEST_CASE("convert --critical-path on a generated BM1684X dump: hand-checked flows") {
  // `critical-path` on this dump (20 commands on the path) reaches 4 steps by a
  // dependency: GDMA #2 -> TIU #0, TIU #1 -> GDMA #3, GDMA #5 -> TIU #2, TIU #5 -> GDMA #7.
  const auto dir = sink_test::tmp_dir("critical_path_cli");
  const std::string cli = TPUPROF_CLI;
  REQUIRE(sink_test::run(cli + " synth -q --chip bm1684x --deps --records 12 --seed 1 -o " +
                         (dir / "dump").string()) == 0);
  REQUIRE(sink_test::run(cli + " convert -q --perfetto --json --critical-path --no-summary -o " +
                         (dir / "out").string() + " " + (dir / "dump").string()) == 0);
  std::ifstream f(dir / "out" / "trace.pftrace", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto t = sink_test::pf::read(bytes);
  std::map<std::uint64_t, std::vector<std::string>> ends;  // flow id -> "ENGINE #cmd", time order
  std::size_t critical = 0;
  std::vector<const sink_test::pf::slice*> sorted;
  for (const auto& s : t.slices) sorted.push_back(&s);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return a->ts < b->ts; });
  for (const auto* s : sorted) {
    if (s->args.count("debug.critical_path")) ++critical;
    for (auto id : s->flows)
      ends[id].push_back(t.tracks.at(s->track).name + " #" +
                         std::to_string(std::get<std::int64_t>(s->args.at("debug.cmd_id"))));
  }
  CHECK(critical == 20);
  REQUIRE(ends.size() == 4);
  CHECK(ends[1] == std::vector<std::string>{"GDMA #2", "TIU #0"});
  CHECK(ends[2] == std::vector<std::string>{"TIU #1", "GDMA #3"});
  CHECK(ends[3] == std::vector<std::string>{"GDMA #5", "TIU #2"});
  CHECK(ends[4] == std::vector<std::string>{"TIU #5", "GDMA #7"});
  std::string out;
  if (fs::exists(sink_test::shared_tools() / "perfetto_check.py")) {
    CHECK(sink_test::run("python3 " + (sink_test::shared_tools() / "perfetto_check.py").string() +
                             " " + (dir / "out" / "trace.pftrace").string(),
                         &out) == 0);
    CHECK(out.find("4 flows, 0 errors, 0 warnings") != std::string::npos);
    CHECK(sink_test::run("python3 " +
                             (sink_test::shared_tools() / "chrome_json_check.py").string() + " " +
                             (dir / "out" / "trace.json").string(),
                         &out) == 0);
    CHECK(out.find("'f': 4") != std::string::npos);
    CHECK(out.find("0 errors, 0 warnings") != std::string::npos);
  }
  // Without --critical-path the trace is the plain one.
  REQUIRE(sink_test::run(cli + " convert -q --perfetto --no-summary -o " +
                         (dir / "plain").string() + " " + (dir / "dump").string()) == 0);
  std::ifstream g(dir / "plain" / "trace.pftrace", std::ios::binary);
  const std::string plain((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
  for (const auto& s : sink_test::pf::read(plain).slices) {
    CHECK(s.flows.empty());
    CHECK(s.args.count("debug.critical_path") == 0);
  }
}
#endif
