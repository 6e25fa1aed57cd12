#include <simdjson.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/sinks/chrome_json.hpp>
#include <tpuprof/sinks/write_file.hpp>
#include <tpuprof/views/track_layout.hpp>

#include "sinks/sample_trace.hpp"

namespace fs = std::filesystem;
using namespace tpuprof;

namespace {
std::int64_t ns_of(double us) {
  return std::llround(us * 1000);
}
}  // namespace

TEST_CASE("chrome json sink output parses back with simdjson, event by event") {
  auto t = sink_test::sample();
  std::string out;
  sinks::chrome_json_sink s(out);
  write_trace(t, s);

  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(out).get(doc) == simdjson::SUCCESS);
  CHECK(std::string_view(doc["displayTimeUnit"]) == "ns");
  std::map<std::string, const engine_event*> want;             // cat/name@ts_ns
  const auto origin = tpuprof::track_layout(t.meta).origin();  // 0: the timeline's zero
  CHECK(origin == 0);
  for (const auto& e : t.hw) {
    std::string n = e.op ? std::string(t.meta.names[e.op]) : "unknown";
    want[std::string(name(e.engine)) + "/" + n + "@" +
         std::to_string(std::llround(e.begin_ns) - origin) + "/" + std::to_string(e.unit)] = &e;
  }
  std::map<std::uint64_t, std::string> process_names;
  int x = 0, c = 0, hw_found = 0;
  for (simdjson::dom::element ev : doc["traceEvents"].get_array()) {
    std::string_view ph = ev["ph"];
    CHECK(ev["cat"].is_string());
    if (ph == "M") {
      if (std::string_view(ev["name"]) == "process_name")
        process_names[std::uint64_t(ev["pid"])] = std::string(std::string_view(ev["args"]["name"]));
      continue;
    }
    if (ph == "C") {
      ++c;
      for (auto [k, v] : simdjson::dom::object(ev["args"])) CHECK(v.is_number());
      continue;
    }
    REQUIRE(ph == "X");
    ++x;
    std::string cat{std::string_view(ev["cat"])}, nm{std::string_view(ev["name"])};
    auto ts = ns_of(double(ev["ts"]));
    auto pid = std::uint64_t(ev["pid"]);
    std::string unit = std::to_string(pid & 0x7FF);
    auto it = want.find(cat + "/" + nm + "@" + std::to_string(ts) + "/" + unit);
    if (it == want.end()) continue;  // derived spans
    ++hw_found;
    const engine_event& e = *it->second;
    CHECK(ns_of(double(ev["dur"])) == std::llround(e.end_ns) - std::llround(e.begin_ns));
    CHECK(std::int64_t(ev["args"]["cmd_id"]) == e.cmd_id);
    if (e.has_bytes()) {
      CHECK(std::uint64_t(ev["args"]["bytes"]) == e.bytes);
      CHECK(double(ev["args"]["ddr_bandwidth_gbps"]) == e.bandwidth_gbps());
    } else {
      CHECK(ev["args"]["bytes"].error() == simdjson::NO_SUCH_FIELD);
    }
    if (std::isnan(e.uarch_rate))
      CHECK(ev["args"]["uarch_rate"].error() == simdjson::NO_SUCH_FIELD);
    else
      CHECK(double(ev["args"]["uarch_rate"]) == double(e.uarch_rate));
    if (e.function) CHECK(std::string_view(ev["args"]["function"]) == t.meta.names[e.function]);
    if (!e.matched()) CHECK(bool(ev["args"]["matched"]) == false);
    CHECK((pid & 2048) == (e.engine == engine::cdma ? 2048u : 0u));
  }
  CHECK(x == int(t.hw.size() + t.derived.size()));
  CHECK(hw_found == int(t.hw.size()) - 1);  // the escaped name is checked below
  CHECK(c > 0);
  CHECK(process_names[sinks::chrome_json_sink::device_pid_base + 2048 + 2] ==
        "TPU0 SG2260 CDMA port 2");
  // The name with quotes, backslash, control characters and invalid UTF-8
  // comes back as valid JSON: invalid bytes become U+FFFD.
  CHECK(out.find(R"(say \"hi\", \\ok\nnew\tline\u0001 caf)") != std::string::npos);
  CHECK(out.find("bad\\ufffd end") != std::string::npos);
}

TEST_CASE("chrome json output passes chrome_json_check.py, with host spans merged") {
  auto t = sink_test::sample();
  io::host_trace h;
  h.processes.push_back({1234, 0, "python \"main\""});
  h.threads.push_back({1234, 1235, "main"});
  h.spans.push_back({"forward", "cpu_op", 1234, 1235, -100, 2000});
  auto dir = sink_test::tmp_dir("chrome");
  auto file = dir / "sample.json";
  sinks::write_file<sinks::chrome_json_sink>(file, t, h);
  auto text = sink_test::slurp(file);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  REQUIRE(parser.parse(text).get(doc) == simdjson::SUCCESS);
  // The host span starts before the timeline's zero: it becomes the origin (ts 0).
  bool host_seen = false;
  for (simdjson::dom::element ev : doc["traceEvents"].get_array())
    if (std::string_view(ev["ph"]) == "X" && std::string_view(ev["name"]) == "forward") {
      host_seen = true;
      CHECK(double(ev["ts"]) == 0.0);
      CHECK(std::uint64_t(ev["pid"]) == 1234);
    }
  CHECK(host_seen);
  if (fs::exists(sink_test::shared_tools() / "chrome_json_check.py")) {
    std::string out;
    int rc =
        sink_test::run("python3 " + (sink_test::shared_tools() / "chrome_json_check.py").string() +
                           " " + file.string(),
                       &out);
    INFO(out);
    CHECK(rc == 0);
    CHECK(out.find("WARN") == std::string::npos);
  }
}

TEST_CASE("chrome json timestamps are exact microseconds with 3 decimals") {
  materialized_trace t;
  t.meta.begin_ns = 1'000'000'000'000;  // 1000 s after the origin (0): not rebased
  t.meta.end_ns = t.meta.begin_ns + 5000;
  auto e = sink_test::ev(0, engine::tiu, t.meta.begin_ns + 1, t.meta.begin_ns + 2001.4, 1, 0);
  t.hw.push_back(e);
  std::string out;
  sinks::chrome_json_options o;
  o.counters = false;
  sinks::chrome_json_sink s(out, o);
  write_trace(t, s);
  CHECK(out.find(R"("ts":1000000000.001,"dur":2.000)") != std::string::npos);
}
