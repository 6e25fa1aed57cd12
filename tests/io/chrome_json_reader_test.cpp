#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/io/chrome_json_reader.hpp>

using namespace tpuprof;

TEST_CASE("chrome json reader reads X, B/E and metadata from the object form") {
  auto h = io::parse_chrome_json(R"({"displayTimeUnit":"ns","traceEvents":[
    {"ph":"M","name":"process_name","pid":7,"args":{"name":"python"}},
    {"ph":"M","name":"thread_name","pid":7,"tid":8,"args":{"name":"main \"t\""}},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":7,"tid":8,"ts":1.5,"dur":2.0005,"args":{"x":[1,2]}},
    {"ph":"B","cat":"tpudnn","name":"outer","pid":7,"tid":8,"ts":10},
    {"ph":"C","name":"mem","pid":7,"ts":11,"args":{"v":1}},
    {"ph":"E","pid":7,"tid":8,"ts":12.25},
    {"name":"no phase","ts":1}
  ],"metadata":{"a":{"b":[]}}})");
  REQUIRE(h.spans.size() == 2);
  CHECK(h.spans[0].name == "aten::mm");
  CHECK(h.spans[0].cat == "cpu_op");
  CHECK(h.spans[0].pid == 7);
  CHECK(h.spans[0].tid == 8);
  CHECK(h.spans[0].ts_ns == 1500);
  CHECK(h.spans[0].dur_ns == 2001);  // llround(2000.5): Perfetto's rule
  CHECK(h.spans[1].name == "outer");
  CHECK(h.spans[1].ts_ns == 10000);
  CHECK(h.spans[1].dur_ns == 2250);
  CHECK(h.process_name(7) == "python");
  CHECK(h.thread_name(7, 8) == "main \"t\"");
}

TEST_CASE("chrome json reader accepts a bare array and string pids") {
  auto h = io::parse_chrome_json(R"([{"ph":"X","name":"a","pid":"GPU","tid":3,"ts":"5","dur":1}])");
  REQUIRE(h.spans.size() == 1);
  CHECK(h.spans[0].ts_ns == 5000);
  CHECK(h.process_name(h.spans[0].pid) == "GPU");
}

TEST_CASE("host spans align to the device by tail_offset_ns or an explicit offset") {
  auto h = io::parse_chrome_json(R"([
    {"ph":"X","cat":"tpudnn","name":"enable_profile","pid":1,"tid":1,"ts":100,"dur":1},
    {"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":150,"dur":10},
    {"ph":"X","cat":"tpudnn","name":"disable_profile","pid":1,"tid":1,"ts":200,"dur":5}])");
  // disable ends at 205 us; minus tail offset 1000 ns = device end (50000 ns).
  auto d = h.align_by_tail(1000, 50'000);
  CHECK(d == 50'000 - (205'000 - 1000));
  CHECK(h.spans[2].end_ns() == 50'000 + 1000);
  h.shift(-d);
  CHECK(h.spans[1].ts_ns == 150'000);
  CHECK(h.offset_ns == 0);
}

TEST_CASE("malformed chrome json throws decode_error with file, byte offset and reason") {
  CHECK_THROWS_WITH_AS(io::parse_chrome_json(R"({"traceEvents":[{"ph":"X","ts":1,}]})", "t.json"),
                       doctest::Contains("t.json: at byte"), decode_error);
  CHECK_THROWS_WITH_AS(io::parse_chrome_json("{\"other\":1}", "t.json"),
                       doctest::Contains("traceEvents"), decode_error);
  CHECK_THROWS_WITH_AS(io::parse_chrome_json("42", "t.json"), doctest::Contains("top level"),
                       decode_error);
  CHECK_THROWS_WITH_AS(io::parse_chrome_json("\x1f\x8b\x08", "t.json.gz"),
                       doctest::Contains("gzip"), decode_error);
  try {
    io::parse_chrome_json(R"([{"ph":"X","ts":1},{"ph":"X","ts":tru}])", "t.json");
    FAIL("no throw");
  } catch (const decode_error& e) {
    CHECK(e.file() == "t.json");
    CHECK(e.offset() != decode_error::no_offset);
    CHECK(e.offset() <= 40);
  }
  CHECK_THROWS_WITH_AS(io::read_chrome_json("/no/such/file.json"), doctest::Contains("cannot read"),
                       decode_error);
}

TEST_CASE("chrome json reader reads a file") {
  auto p = std::filesystem::path(TPUPROF_TEST_TMP) / "host.json";
  std::ofstream(p) << R"({"traceEvents":[{"ph":"X","name":"n","pid":1,"tid":2,"ts":3,"dur":4}]})";
  auto h = io::read_chrome_json(p);
  REQUIRE(h.spans.size() == 1);
  CHECK(h.source == p.string());
  CHECK(h.spans[0].dur_ns == 4000);
}
