// perfetto_split_sink: the parts of a split trace each parse on their own, hold
// together exactly the slices of the unsplit trace (track path, ts, name, dur),
// and the index says what each holds; window splits cut where events begin.
// Expected part contents are counted by hand from sample_trace.hpp.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/sinks/perfetto_split.hpp>

#include "sinks/perfetto_reader.hpp"
#include "sinks/sample_trace.hpp"

namespace fs = std::filesystem;
using namespace tpuprof;

namespace {

using slice_key = std::tuple<std::string, std::int64_t, std::string, std::int64_t>;

// (track path, ts, name, dur) of every slice, sorted.
std::vector<slice_key> slices_of(const std::string& bytes) {
  const auto t = sink_test::pf::read(bytes);
  std::vector<slice_key> v;
  for (const auto& s : t.slices)
    v.emplace_back(sink_test::pf::track_path(t, s.track), s.ts, s.name, s.dur);
  std::sort(v.begin(), v.end());
  return v;
}

struct split_run {
  std::map<std::string, std::string> files;  // part file -> bytes
  std::vector<sinks::perfetto_part> parts;
  std::string index;
};

split_run split(const materialized_trace& t, sinks::perfetto_split_options o,
                const io::host_trace* host = nullptr) {
  split_run r;
  sinks::perfetto_split_sink s(
      [&](const std::string& f) -> sinks::byte_output { return r.files[f]; }, o);
  if (host)
    write_trace(t, *host, s);
  else
    write_trace(t, s);
  r.parts = s.parts();
  r.index = s.index_json();
  return r;
}

std::string unsplit(const materialized_trace& t, const io::host_trace* host = nullptr) {
  std::string out;
  sinks::perfetto_sink s(out);
  if (host)
    write_trace(t, *host, s);
  else
    write_trace(t, s);
  return out;
}

// Every part's slices, merged and sorted.
std::vector<slice_key> merged(const split_run& r) {
  std::vector<slice_key> all;
  for (const auto& [f, bytes] : r.files) {
    auto v = slices_of(bytes);
    all.insert(all.end(), v.begin(), v.end());
  }
  std::sort(all.begin(), all.end());
  return all;
}

// Writes each part to `dir` and runs perfetto_check.py and protoc on it.
void check_parts_offline(const split_run& r, const std::string& name) {
  const auto dir = sink_test::tmp_dir("split_" + name);
  const bool checker = fs::exists(sink_test::shared_tools() / "perfetto_check.py");
  const bool protoc = sink_test::run("command -v protoc") == 0;
  for (const auto& [f, bytes] : r.files) {
    std::ofstream(dir / f, std::ios::binary) << bytes;
    std::string out;
    if (checker) {
      const int rc =
          sink_test::run("python3 " + (sink_test::shared_tools() / "perfetto_check.py").string() +
                             " " + (dir / f).string(),
                         &out);
      INFO(f << ": " << out);
      CHECK(rc == 0);
      CHECK(out.find("WARN") == std::string::npos);
      CHECK(out.find(" 0 errors") != std::string::npos);
    }
    if (protoc) {
      const int rc = sink_test::run("protoc --proto_path=" TPUPROF_SOURCE_DIR
                                    "/tests/data --decode=perfetto.protos.Trace "
                                    "perfetto_trace.proto < " +
                                        (dir / f).string() + " > /dev/null",
                                    &out);
      INFO(f << ": " << out);
      CHECK(rc == 0);
    }
  }
}

}  // namespace

TEST_CASE("split by core: one part per core and CDMA port, together the unsplit slices") {
  const auto t = sink_test::sample();
  sinks::perfetto_split_options o;
  o.by = sinks::split_by::core;
  const auto r = split(t, o);
  REQUIRE(r.parts.size() == 3);
  CHECK(r.parts[0].file == "trace.dev0.core0.pftrace");
  CHECK(r.parts[1].file == "trace.dev0.core1.pftrace");
  CHECK(r.parts[2].file == "trace.dev0.cdma2.pftrace");
  // core 0: 4 TIU + 5 GDMA + 3 derived spans; core 1: 3 TIU + 2 SDMA; port 2: 3 CDMA
  CHECK(r.parts[0].events == 12);
  CHECK(r.parts[1].events == 5);
  CHECK(r.parts[2].events == 3);
  CHECK(r.parts[0].first_ts == 1000);
  CHECK(r.parts[0].last_ts == 1600);
  CHECK(r.parts[1].first_ts == 900);
  CHECK(r.parts[2].last_ts == 2000);
  for (const auto& p : r.parts) CHECK(p.bytes == r.files.at(p.file).size());
  CHECK(merged(r) == slices_of(unsplit(t)));
  // Each part's track tree holds only its own core.
  for (const auto& s : slices_of(r.files.at("trace.dev0.core1.pftrace")))
    CHECK(std::get<0>(s).starts_with("TPU0 SG2260/Core 1/"));
  const auto core1 = sink_test::pf::read(r.files.at("trace.dev0.core1.pftrace"));
  for (const auto& [u, tr] : core1.tracks) {
    CHECK(tr.name != "Core 0");
    CHECK(tr.name != "CDMA port 2");
  }
  check_parts_offline(r, "core");
}

TEST_CASE("split by device: one device is one part, byte-identical to the unsplit trace") {
  const auto t = sink_test::sample();
  sinks::perfetto_split_options o;
  o.by = sinks::split_by::device;
  o.stem = "perfetto";
  const auto r = split(t, o);
  REQUIRE(r.parts.size() == 1);
  CHECK(r.parts[0].file == "perfetto.dev0.pftrace");
  CHECK(r.parts[0].events == 20);
  CHECK(r.files.at("perfetto.dev0.pftrace") == unsplit(t));
}

TEST_CASE("split by window: an event goes to the window where it begins") {
  const auto t = sink_test::sample();  // hardware span [900, 2300] ns, origin 0
  sinks::perfetto_split_options o;
  o.by = sinks::split_by::window;
  o.window_ns = 500;  // [900,1400) [1400,1900) [1900,2400): 3 windows
  const auto r = split(t, o);
  REQUIRE(r.parts.size() == 3);
  CHECK(r.parts[0].file == "trace.w0.pftrace");
  CHECK(r.parts[2].file == "trace.w2.pftrace");
  CHECK(r.parts[0].window_begin == 900);
  CHECK(r.parts[0].window_end == 1400);
  CHECK(r.parts[1].window_begin == 1400);
  CHECK(r.parts[2].window_end == 2400);
  // By begin: w0 core0 TIU 1000,1200 + GDMA 1000,1100,1350 + spans 1000,1000,1100,
  // core1 TIU 900,1200 + SDMA 950, CDMA 1200 = 12; w1 TIU 1400 (on the cut),1600 +
  // GDMA 1500,1600 + TIU 1500 + SDMA 1450 + CDMA 1600 = 7; w2: CDMA 2000 = 1.
  CHECK(r.parts[0].events == 12);
  CHECK(r.parts[1].events == 7);
  CHECK(r.parts[2].events == 1);
  for (const auto& p : r.parts) {
    CAPTURE(p.file);
    for (const auto& s : slices_of(r.files.at(p.file))) {
      CHECK(std::get<1>(s) >= p.window_begin);
      CHECK(std::get<1>(s) < p.window_end);
    }
  }
  // The GDMA transfer [1000, 1400) crosses the cut: whole, in w0, with its duration.
  const auto w0 = slices_of(r.files.at("trace.w0.pftrace"));
  CHECK(std::count(w0.begin(), w0.end(),
                   slice_key{"TPU0 SG2260/Core 0/GDMA", 1000, "dma.tensor", 400}) == 1);
  CHECK(merged(r) == slices_of(unsplit(t)));
  check_parts_offline(r, "window");

  SUBCASE("a window longer than the trace: one part") {
    o.window_ns = 10'000;
    const auto one = split(t, o);
    REQUIRE(one.parts.size() == 1);
    CHECK(one.parts[0].events == 20);
  }
  SUBCASE("too many windows and an empty window are errors") {
    o.window_ns = 1;
    o.max_parts = 1000;  // 1400 windows
    CHECK_THROWS_AS(split(t, o), std::invalid_argument);
    o.window_ns = 0;
    CHECK_THROWS_AS(split(t, o), std::invalid_argument);
  }
}

TEST_CASE("split by size: whole cores packed, balanced, under the cap") {
  const auto t = sink_test::sample();
  sinks::perfetto_split_options o;
  o.by = sinks::split_by::core;
  // Without counters, estimates at 57 B/event: core 0 9 x 57 = 513, core 1
  // 5 x 57 = 285, port 2 3 x 57 = 171 (total 969): 2 parts, target 484 ->
  // {core 0}, {core 1, port 2}.
  o.perfetto.counters = false;
  o.max_part_bytes = 600;
  const auto r = split(t, o);
  REQUIRE(r.parts.size() == 2);
  CHECK(r.parts[0].file == "trace.part0.pftrace");
  CHECK(r.parts[0].units == std::vector<std::string>{"dev0.core0"});
  CHECK(r.parts[1].units == std::vector<std::string>{"dev0.core1", "dev0.cdma2"});
  CHECK(r.parts[0].events == 12);
  CHECK(r.parts[1].events == 8);
  CHECK(merged(r) == slices_of(unsplit(t)));
  CHECK(r.index.find("\"split\": \"size\"") != std::string::npos);
  CHECK(r.index.find("\"max_part_bytes\": 600") != std::string::npos);
  o.max_part_bytes = std::uint64_t{1} << 30;  // everything fits: one part
  CHECK(split(t, o).parts.size() == 1);
  // With counters, + 2000 x 24 B per utilization / bandwidth track: core 0
  // 513 + 3 x 48000 = 144513, core 1 144285, port 2 96171 (total 384969). Cap
  // 250000: 2 parts, target 192484; core 1 does not fit beside core 0.
  o.perfetto.counters = true;
  o.max_part_bytes = 250'000;
  const auto c = split(t, o);
  REQUIRE(c.parts.size() == 2);
  CHECK(c.parts[1].units == std::vector<std::string>{"dev0.core1", "dev0.cdma2"});
  CHECK(sinks::estimate_perfetto_bytes(t.meta) == 384969);
  CHECK(sinks::estimate_perfetto_bytes(t.meta, false) == 969);
}

TEST_CASE("split: host spans in every part, device times as in the unsplit trace") {
  const auto t = sink_test::sample();
  io::host_trace h;
  h.spans.push_back({"launch", "tpudnn", 7, 8, -500, 2000});  // before the origin: shift 500
  h.spans.push_back({"sync", "tpudnn", 7, 8, 1700, 100});
  sinks::perfetto_split_options o;
  o.by = sinks::split_by::window;
  o.window_ns = 500;
  const auto r = split(t, o, &h);
  REQUIRE(r.parts.size() == 3);
  CHECK(r.parts[0].window_begin == 1400);  // 900 + the 500 ns shift
  CHECK(r.parts[0].first_ts == 1400);
  std::vector<slice_key> device, host_in_part;
  for (const auto& [f, bytes] : r.files)
    for (const auto& s : slices_of(bytes))
      (std::get<0>(s).starts_with("TPU0") ? device : host_in_part).push_back(s);
  CHECK(host_in_part.size() == 3 * 2);  // both host spans, in each of the 3 parts
  std::vector<slice_key> want_device;
  for (const auto& s : slices_of(unsplit(t, &h)))
    if (std::get<0>(s).starts_with("TPU0")) want_device.push_back(s);
  std::sort(device.begin(), device.end());
  CHECK(device.size() == 20);
  CHECK(device == want_device);
  CHECK(std::count(want_device.begin(), want_device.end(),
                   slice_key{"TPU0 SG2260/Core 1/TIU", 1400, "mm.normal", 200}) == 1);
}

TEST_CASE("split index: files, units, windows, counts and bytes") {
  const auto t = sink_test::sample();
  sinks::perfetto_split_options o;
  o.by = sinks::split_by::window;
  o.window_ns = 500;
  const auto r = split(t, o);
  std::uint64_t total = 0;
  for (const auto& p : r.parts) total += p.bytes;
  const std::string& j = r.index;
  CHECK(j.find("\"format\": \"tpuprof-perfetto-split 1\"") != std::string::npos);
  CHECK(j.find("\"split\": \"window\"") != std::string::npos);
  CHECK(j.find("\"window_ns\": 500") != std::string::npos);
  CHECK(j.find("\"ui_limit_bytes\": 536870912") != std::string::npos);
  CHECK(j.find("\"chip\": \"SG2260\"") != std::string::npos);
  CHECK(j.find("\"events\": 20, \"bytes\": " + std::to_string(total)) == std::string::npos);
  CHECK(j.find("\"events\": 20,\n  \"bytes\": " + std::to_string(total)) != std::string::npos);
  CHECK(j.find("{\"file\": \"trace.w1.pftrace\", \"label\": \"w1\", \"units\": [\"dev0.core0\", "
               "\"dev0.core1\", \"dev0.cdma2\"], \"window_begin\": 1400, \"window_end\": 1900, "
               "\"first_ts\": 1400, \"last_ts\": 1600, \"events\": 7, \"bytes\": " +
               std::to_string(r.parts[1].bytes) + "}") != std::string::npos);
  // The index parses as JSON.
  if (sink_test::run("command -v python3") == 0) {
    const auto dir = sink_test::tmp_dir("split_index");
    std::ofstream(dir / "trace.index.json") << j;
    std::string out;
    CHECK(sink_test::run("python3 -c \"import json,sys; d=json.load(open(sys.argv[1])); "
                         "print(len(d['parts']), sum(p['events'] for p in d['parts']))\" " +
                             (dir / "trace.index.json").string(),
                         &out) == 0);
    CHECK(out == "3 20\n");
  }
}
