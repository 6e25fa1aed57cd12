#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/sinks/perfetto_part.hpp>
#include <tpuprof/sinks/write_file.hpp>

#include "sinks/perfetto_reader.hpp"
#include "sinks/sample_trace.hpp"

namespace fs = std::filesystem;
using namespace tpuprof;

namespace {

std::string encode(const materialized_trace& t, sinks::perfetto_options o = {}) {
  std::string out;
  sinks::perfetto_sink s(out, o);
  write_trace(t, s);
  return out;
}

std::string expected_path(const materialized_trace& t, const engine_event& e) {
  std::string dev = "TPU0 " + t.meta.chip + "/";
  std::string grp = (e.engine == engine::cdma ? "CDMA port " : "Core ") + std::to_string(e.unit);
  std::string n(name(e.engine));
  if (e.engine == engine::kernel_function) n = "Kernel Function";
  if (e.engine == engine::layer) n = "Layer";
  return dev + grp + "/" + n;
}

}  // namespace

TEST_CASE("perfetto sink round-trips every event through an independent reader") {
  auto t = sink_test::sample();
  auto bytes = encode(t);
  auto pt = sink_test::pf::read(bytes);

  std::vector<engine_event> all = t.hw;
  all.insert(all.end(), t.derived.begin(), t.derived.end());
  REQUIRE(pt.slices.size() == all.size());

  // Match by (track path, begin ts, name) and check each field.
  std::multimap<std::string, const sink_test::pf::slice*> by_key;
  for (const auto& s : pt.slices)
    by_key.emplace(sink_test::pf::track_path(pt, s.track) + "@" + std::to_string(s.ts), &s);
  for (const auto& e : all) {
    auto key = expected_path(t, e) + "@" + std::to_string(std::llround(e.begin_ns));
    auto [lo, hi] = by_key.equal_range(key);
    std::string want_name = e.op ? std::string(t.meta.names[e.op]) : "unknown";
    const sink_test::pf::slice* s = nullptr;
    for (auto it = lo; it != hi; ++it)
      if (it->second->name == want_name) s = it->second;
    INFO("event " << key << " " << want_name);
    REQUIRE(s != nullptr);
    CHECK(s->dur == std::llround(e.end_ns) - std::llround(e.begin_ns));
    auto arg = [&](const char* k) -> const sink_test::pf::value* {
      auto it = s->args.find(k);
      return it == s->args.end() ? nullptr : &it->second;
    };
    if (is_hardware(e.engine)) {
      REQUIRE(arg("debug.cmd_id"));
      CHECK(std::get<std::int64_t>(*arg("debug.cmd_id")) == e.cmd_id);
    }
    if (e.has_bytes()) {
      REQUIRE(arg("debug.bytes"));
      CHECK(std::get<std::int64_t>(*arg("debug.bytes")) == std::int64_t(e.bytes));
      REQUIRE(arg("debug.ddr_bandwidth_gbps"));
      CHECK(std::get<double>(*arg("debug.ddr_bandwidth_gbps")) == e.bandwidth_gbps());
    } else {
      CHECK(arg("debug.bytes") == nullptr);
      CHECK(arg("debug.ddr_bandwidth_gbps") == nullptr);
    }
    if (std::isnan(e.uarch_rate)) {
      CHECK(arg("debug.uarch_rate") == nullptr);
    } else {
      REQUIRE(arg("debug.uarch_rate"));
      CHECK(std::get<double>(*arg("debug.uarch_rate")) == double(e.uarch_rate));
    }
    if (e.layer_id >= 0) {
      REQUIRE(arg("debug.layer_id"));
      CHECK(std::get<std::int64_t>(*arg("debug.layer_id")) == e.layer_id);
    }
    if (e.function) {
      REQUIRE(arg("debug.function"));
      CHECK(std::get<std::string>(*arg("debug.function")) == t.meta.names[e.function]);
    }
    if (e.dir() != direction::none) {
      REQUIRE(arg("debug.direction"));
      CHECK(std::get<std::string>(*arg("debug.direction")) == name(e.dir()));
    }
    if (is_hardware(e.engine) && !e.matched()) {
      REQUIRE(arg("debug.matched"));
      CHECK(std::get<bool>(*arg("debug.matched")) == false);
    }
  }
}

TEST_CASE("perfetto sink builds the device/core/engine track tree with lanes and counters") {
  auto t = sink_test::sample();
  auto pt = sink_test::pf::read(encode(t));
  std::map<std::string, int> paths;
  for (const auto& [u, tr] : pt.tracks) ++paths[sink_test::pf::track_path(pt, u)];
  CHECK(paths["TPU0 SG2260"] == 1);
  CHECK(paths["TPU0 SG2260/Core 0/TIU"] == 1);
  CHECK(paths["TPU0 SG2260/Core 0/GDMA"] == 2);  // overlapping DMAs: a second lane
  CHECK(paths["TPU0 SG2260/Core 1/SDMA"] == 1);
  CHECK(paths["TPU0 SG2260/CDMA port 2/CDMA"] == 1);
  CHECK(paths["TPU0 SG2260/Core 0/Kernel Function"] == 1);  // nested spans share a track
  CHECK(paths["TPU0 SG2260/Core 0/GDMA utilization (%)"] == 1);
  CHECK(paths["TPU0 SG2260/Core 0/GDMA bandwidth (GB/s)"] == 1);
  CHECK(paths.count("TPU0 SG2260/Core 0/TIU bandwidth (GB/s)") == 0);
  // Counter values: utilization within [0, 100], bandwidth >= 0, and the
  // GDMA bandwidth integral equals the bytes moved (windows of 1 us here).
  double gdma_bytes = 0;
  for (const auto& e : t.hw)
    if (e.engine == engine::gdma && e.has_bytes()) gdma_bytes += double(e.bytes);
  std::vector<sink_test::pf::counter> bw;
  for (const auto& c : pt.counters) {
    auto p = sink_test::pf::track_path(pt, c.track);
    if (p.find("utilization") != std::string::npos) CHECK((c.v >= 0 && c.v <= 100));
    if (p == "TPU0 SG2260/Core 0/GDMA bandwidth (GB/s)") bw.push_back(c);
  }
  REQUIRE(bw.size() >= 2);
  double integral = 0;
  for (std::size_t i = 0; i + 1 < bw.size(); ++i)
    integral += bw[i].v * double(bw[i + 1].ts - bw[i].ts);
  CHECK(integral == doctest::Approx(gdma_bytes).epsilon(1e-9));
  CHECK(bw.back().v == 0);
}

TEST_CASE("perfetto sink output passes protoc and perfetto_check.py") {
  auto t = sink_test::sample();
  auto dir = sink_test::tmp_dir("perfetto");
  auto file = dir / "sample.pftrace";
  sinks::write_file<sinks::perfetto_sink>(file, t);
  REQUIRE(fs::exists(file));
  std::string out;
  if (sink_test::run("command -v protoc") == 0) {
    int rc = sink_test::run("protoc --proto_path=" TPUPROF_SOURCE_DIR
                            "/tests/data --decode=perfetto.protos.Trace perfetto_trace.proto < " +
                                file.string() + " > " + (dir / "sample.txt").string(),
                            &out);
    INFO(out);
    CHECK(rc == 0);
    // Every field we write is in the schema: no field printed by number.
    CHECK(sink_test::run("grep -qE '^ *[0-9]+(:| \\{)' " + (dir / "sample.txt").string()) == 1);
  }
  if (fs::exists(sink_test::shared_tools() / "perfetto_check.py")) {
    int rc =
        sink_test::run("python3 " + (sink_test::shared_tools() / "perfetto_check.py").string() +
                           " " + file.string(),
                       &out);
    INFO(out);
    CHECK(rc == 0);
    CHECK(out.find("WARN") == std::string::npos);
  }
}

TEST_CASE("perfetto sink streams through a bounded buffer and handles unsorted input") {
  auto t = sink_test::sample();
  std::reverse(t.hw.begin(), t.hw.end());  // time order broken within every track
  sinks::perfetto_options o;
  o.buffer_bytes = 64;  // forces many small flushes
  auto pt = sink_test::pf::read(encode(t, o));
  CHECK(pt.slices.size() == t.hw.size() + t.derived.size());
  for (const auto& s : pt.slices) CHECK(s.dur >= 0);
}

TEST_CASE("perfetto sink writes host spans on thread tracks and user counters") {
  auto t = sink_test::sample();
  io::host_trace h;
  h.processes.push_back({1234, 0, "python"});
  h.threads.push_back({1234, 1235, "main"});
  h.spans.push_back({"forward", "cpu_op", 1234, 1235, 500, 2000});
  h.spans.push_back({"matmul", "cpu_op", 1234, 1235, 600, 300});
  h.spans.push_back({"overlap", "cpu_op", 1234, 1235, 800, 2000});  // partial overlap
  std::string out;
  sinks::perfetto_sink s(out);
  s.begin(t.info());
  s.host(h);
  s.counter({"DDR bandwidth", "GB/s", 1000, 12.5, 0, 0});
  write_events(t.events(), s);
  s.finish();
  auto pt = sink_test::pf::read(out);
  int host = 0;
  for (const auto& sl : pt.slices) {
    const auto& tr = pt.tracks.at(sl.track);
    if (sl.name == "forward" || sl.name == "matmul") {
      CHECK(tr.pid == 1234);
      CHECK(tr.tid == 1235);
      CHECK(tr.name == "main");
      ++host;
    }
    if (sl.name == "overlap") {
      CHECK(tr.name == "main (overlap)");
      CHECK(sl.dur == 2000);
      ++host;
    }
  }
  CHECK(host == 3);
  bool found = false;
  for (const auto& c : pt.counters)
    if (sink_test::pf::track_path(pt, c.track) == "TPU0 SG2260/Core 0/DDR bandwidth")
      found = c.v == 12.5 && c.ts == 1000;
  CHECK(found);
}

TEST_CASE("perfetto file output is atomic: a failing run leaves no file") {
  auto dir = sink_test::tmp_dir("perfetto_atomic");
  struct failing_trace {
    materialized_trace m = sink_test::sample();
    const trace_info& info() const { return m.meta; }
    const std::vector<engine_event>& events() const { throw std::runtime_error("decoder failed"); }
    const std::vector<engine_event>& spans() const { return m.derived; }
  };
  CHECK_THROWS_AS(sinks::write_file<sinks::perfetto_sink>(dir / "x.pftrace", failing_trace{}),
                  std::runtime_error);
  CHECK(fs::is_empty(dir));
}

namespace {

/// The runs of t.hw with one (device, unit): what a streaming decoder hands
/// to fork/join, one core at a time.
std::vector<std::span<const engine_event>> unit_runs(const materialized_trace& t) {
  std::vector<std::span<const engine_event>> runs;
  std::size_t b = 0;
  for (std::size_t i = 1; i <= t.hw.size(); ++i)
    if (i == t.hw.size() || t.hw[i].unit != t.hw[b].unit || t.hw[i].device != t.hw[b].device) {
      runs.emplace_back(t.hw.data() + b, i - b);
      b = i;
    }
  return runs;
}

}  // namespace

TEST_CASE("perfetto sink: units formatted apart (fork, join) give the serial bytes") {
  const auto t = sink_test::sample();
  const std::string want = encode(t);
  const auto runs = unit_runs(t);
  REQUIRE(runs.size() == 3);  // core 0, core 1, CDMA port 2
  using part = sinks::perfetto_sink::part;
  auto join_all = [&](bool fork_first) {
    std::string out;
    sinks::perfetto_options o;
    o.buffer_bytes = 64;  // many flushes: the parts' blocks and the sink's buffer interleave
    sinks::perfetto_sink s(out, o);
    s.begin(t.info());
    std::vector<part> parts;
    if (fork_first)
      for (const auto& r : runs) parts.push_back(s.fork(r[0].device, r[0].unit, t.info()));
    std::size_t used = 0;
    for (std::size_t k = 0; k < runs.size(); ++k) {
      if (!fork_first) parts.push_back(s.fork(runs[k][0].device, runs[k][0].unit, t.info()));
      for (const auto& e : runs[k]) parts[k].write(e);
      used += s.join(std::move(parts[k]), runs[k]);
    }
    for (const auto& e : t.derived) s.write(e);
    s.finish();
    CHECK(out == want);
    return used;
  };
  // Forked one after the other's join: every part's bytes are used.
  CHECK(join_all(false) == 3);
  // All forked at once: core 0's overlapping DMAs add a lane track, so the
  // later parts' track ids are stale and their events are written again.
  CHECK(join_all(true) == 1);
}

TEST_CASE("perfetto sink: a part is not used once its unit was written meanwhile") {
  const auto t = sink_test::sample();
  const auto runs = unit_runs(t);
  std::string out;
  sinks::perfetto_sink s(out);
  s.begin(t.info());
  auto p = s.fork(runs[1][0].device, runs[1][0].unit, t.info());
  for (const auto& e : runs[1]) p.write(e);
  s.write(runs[1][0]);  // core 1 written directly: the part's copy of its tracks is stale
  CHECK_FALSE(s.join(std::move(p), runs[1]));
}
