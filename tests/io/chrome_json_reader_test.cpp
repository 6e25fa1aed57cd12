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

namespace {
// The chunked fast path against the whole-document parse: for valid input
// it must give the same trace (or decline); for input run() rejects it must
// decline, so that errors keep their offsets.
std::string dump(const io::host_trace& h) {
  std::string s;
  for (const auto& x : h.spans)
    s += x.name + "|" + x.cat + "|" + std::to_string(x.pid) + "|" + std::to_string(x.tid) + "|" +
         std::to_string(x.ts_ns) + "|" + std::to_string(x.dur_ns) + "\n";
  for (const auto& x : h.processes) s += "P" + std::to_string(x.pid) + "|" + x.name + "\n";
  for (const auto& x : h.threads)
    s += "T" + std::to_string(x.pid) + "|" + std::to_string(x.tid) + "|" + x.name + "\n";
  return s;
}
// "" when run() throws.
std::string whole(const std::string& json) {
  io::host_trace h;
  simdjson::padded_string p(json);
  try {
    io::detail_json::reader("t", h).run(p);
  } catch (const decode_error&) {
    return "";
  }
  return "ok\n" + dump(h);
}
// "" when run_chunked() declines.
std::string chunked(const std::string& json, std::size_t chunk) {
  io::host_trace h;
  if (!io::detail_json::reader("t", h).run_chunked(json, chunk)) return "";
  return "ok\n" + dump(h);
}
const std::string tricky =
    R"( {"schemaVersion":1,"deviceProperties":[{"name":"x","traceEvents":[]}],
 "note":"\"traceEvents\": [ },{ ",
 "traceEvents" :  [
  {"ph":"M","name":"process_name","pid":"GPU 0","args":{"name":"gpu \u00e9 \"q\""}},
  {"ph":"X","cat":"c},{\"","name":"a\\","pid":"GPU 0","tid":"stream 7","ts":1.5,"dur":2.0005,
   "args":{"Input Dims":[[64,1024],[{"a":"]},{"}]],"s":"\u2603 ☃ ü"}},
  {"ph":"B","name":"outer","pid":3,"tid":4,"ts":10}  ,
  {"ph":"X","name":"ü☃","pid":3,"tid":4,"ts":"11","dur":"1e0","args":{}},
  {"ph":"E","pid":3,"tid":4,"ts":12.25},
  {"ph":"B","name":"open","pid":3,"tid":5,"ts":13},
  {"ph":"X","na\u006de":"escaped key","pid":3,"tid":4,"ts":14,"dur":1}
 ],
 "traceName":"t", "more":{"a":[1,2,{"b":"]"}]}} )";
}  // namespace

TEST_CASE("chunked host-trace parse equals the whole-document parse, for every chunk size") {
  std::string bare = R"([{"ph":"X","name":"n","pid":1,"tid":2,"ts":3,"dur":4},
    {"ph":"X","name":"m\"},{","pid":1,"tid":2,"ts":5,"dur":6}])";
  for (const std::string& doc :
       {tricky, bare, std::string("[]"), std::string(R"({"traceEvents":[]})")}) {
    auto want = whole(doc);
    REQUIRE(want != "");
    CHECK(chunked(doc, std::size_t{1} << 18) == want);  // the default chunk
    int taken = 0;
    for (std::size_t chunk = 1; chunk <= doc.size() + 1; ++chunk) {
      auto got = chunked(doc, chunk);
      if (got.empty()) continue;  // declined (a cut it could not place): run() is used
      ++taken;
      INFO("chunk " << chunk);
      CHECK(got == want);
    }
    CHECK(taken > int(doc.size()) / 2);
  }
  // The spans the tricky document must give (values by hand).
  auto h = io::parse_chrome_json(tricky);
  REQUIRE(h.spans.size() == 5);
  CHECK(h.spans[0].name == "a\\");
  CHECK(h.spans[0].cat == "c},{\"");
  CHECK(h.spans[0].dur_ns == 2001);
  CHECK(h.spans[1].name == "ü☃");
  CHECK(h.spans[1].ts_ns == 11000);
  CHECK(h.spans[2].name == "outer");
  CHECK(h.spans[2].dur_ns == 2250);
  CHECK(h.spans[3].name == "escaped key");  // "na\u006de" is the key "name"
  CHECK(h.spans[4].name == "open");         // B without E: zero length, at the end
  CHECK(h.spans[4].dur_ns == 0);
  REQUIRE(h.processes.size() == 2);  // the string pid's own name, then process_name
  CHECK(h.processes[0].name == "GPU 0");
  CHECK(h.processes[1].name == "gpu é \"q\"");
  CHECK(h.processes[1].pid == h.spans[0].pid);
}

TEST_CASE("chunked host-trace parse declines every input the whole-document parse rejects") {
  // Truncations and single-byte corruptions of a valid document: whenever
  // run() throws, run_chunked() must decline (the error then comes from run()
  // with its offset); whenever both succeed they agree.
  std::uint64_t state = 7;
  auto rnd = [&] {
    return (state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33;
  };
  const char repl[] = {'"', '\\', '{', '}', '[',    ']',    ',',
                       ':', ' ',  'x', '1', '\x80', '\xC3', '\0'};
  int rejected = 0, compared = 0;
  for (int k = 0; k < 3000; ++k) {
    std::string doc = tricky;
    if (k % 3 == 0) {
      doc.resize(rnd() % doc.size());
    } else {
      doc[rnd() % doc.size()] = repl[rnd() % sizeof repl];
      if (k % 3 == 2) doc[rnd() % doc.size()] = repl[rnd() % sizeof repl];
    }
    auto want = whole(doc);
    for (std::size_t chunk :
         {std::size_t{1} << 18, std::size_t{16}, std::size_t{1 + rnd() % 200}}) {
      auto got = chunked(doc, chunk);
      INFO("case " << k << " chunk " << chunk << "\n" << doc);
      if (want.empty()) {
        CHECK(got.empty());
        ++rejected;
      } else if (!got.empty()) {
        CHECK(got == want);
        ++compared;
      }
    }
  }
  CHECK(rejected > 1000);
  CHECK(compared > 1000);
}
