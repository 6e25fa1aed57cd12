// Hand-built traces for the sink tests: several cores and engines, a CDMA
// port, overlapping DMAs, unknown values and names that need escaping.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>

#include <tpuprof/decoded_trace.hpp>

#include "test_util.hpp"

namespace sink_test {

inline tpuprof::engine_event ev(std::uint8_t unit, tpuprof::engine eng, double b, double e,
                                std::uint32_t cmd, tpuprof::name_id op) {
  tpuprof::engine_event x;
  x.unit = unit;
  x.engine = eng;
  x.begin_ns = b;
  x.end_ns = e;
  x.begin_cycle = static_cast<std::uint64_t>(b);
  x.end_cycle = static_cast<std::uint64_t>(e);
  x.cmd_id = cmd;
  x.op = op;
  x.set_flag(tpuprof::engine_event::flag_matched);
  return x;
}

/// The small trace every sink test uses (17 hardware events, 3 spans).
inline tpuprof::materialized_trace sample() {
  using tpuprof::engine;
  tpuprof::materialized_trace t;
  auto& m = t.meta;
  m.chip = "SG2260";
  m.source = "memory";
  m.cores = 2;
  auto mm = m.names.intern("mm.normal");
  auto dma = m.names.intern("dma.tensor");
  auto weird = m.names.intern("say \"hi\", \\ok\nnew\tline\x01 caf\xc3\xa9 bad\xff end");
  auto fn = m.names.intern("AR,\"x\"");
  auto layer = m.names.intern("conv2d");
  auto& hw = t.hw;
  // core 0 TIU: back-to-back, one unknown uarch, one unmatched
  for (int i = 0; i < 4; ++i) {
    auto e = ev(0, engine::tiu, 1000 + 200.0 * i, 1150 + 200.0 * i, 10 + i, i == 2 ? weird : mm);
    e.uarch_rate = i == 1 ? std::numeric_limits<float>::quiet_NaN() : 0.25f * float(i + 1);
    e.layer_id = i < 2 ? 7 : -1;
    if (i == 3) e.set_flag(tpuprof::engine_event::flag_matched, false), e.op = 0;
    hw.push_back(e);
  }
  // core 0 GDMA: overlapping transfers (need a second lane), bytes known/unknown
  double gd[][2] = {{1000, 1400}, {1100, 1300}, {1350, 1500}, {1500, 1600}, {1600, 1600.5}};
  for (int i = 0; i < 5; ++i) {
    auto e = ev(0, engine::gdma, gd[i][0], gd[i][1], 100 + i, dma);
    if (i != 3) e.bytes = 4096u * (i + 1), e.set_flag(tpuprof::engine_event::flag_has_bytes);
    e.set_dir(i == 4 ? tpuprof::direction::l2m : tpuprof::direction::s2l);
    e.function = fn;
    hw.push_back(e);
  }
  // core 1 TIU and SDMA
  for (int i = 0; i < 3; ++i)
    hw.push_back(ev(1, engine::tiu, 900 + 300.0 * i, 1100 + 300.0 * i, 20 + i, mm));
  for (int i = 0; i < 2; ++i) {
    auto e = ev(1, engine::sdma, 950 + 500.0 * i, 1200 + 500.0 * i, 200 + i, dma);
    e.bytes = 1u << 20, e.set_flag(tpuprof::engine_event::flag_has_bytes);
    hw.push_back(e);
  }
  // CDMA port 2 (unit = port)
  for (int i = 0; i < 3; ++i) {
    auto e = ev(2, engine::cdma, 1200 + 400.0 * i, 1500 + 400.0 * i, 300 + i, dma);
    e.bytes = 65536, e.set_flag(tpuprof::engine_event::flag_has_bytes);
    hw.push_back(e);
  }
  // derived spans: a layer on core 0 containing a nested function span
  auto l = ev(0, engine::layer, 1000, 1800, 0, layer);
  l.layer_id = 7;
  t.derived.push_back(l);
  t.derived.push_back(ev(0, engine::kernel_function, 1000, 1800, 0, fn));
  t.derived.push_back(ev(0, engine::kernel_function, 1100, 1300, 0, weird));
  m.tracks = {{0, 0, engine::tiu, 1000, 4, 4},
              {0, 0, engine::gdma, 1000, 5, 5},
              {0, 1, engine::tiu, 1000, 3, 3},
              {0, 1, engine::sdma, 1000, 2, 2},
              {0, 2, engine::cdma, 1000, 3, 3}};
  m.begin_ns = 900;
  m.end_ns = 2300;
  return t;
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::filesystem::path tmp_dir(std::string_view name) {
  auto d = std::filesystem::path(TPUPROF_TEST_TMP) / "sinks" / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

/// Shared tools (perfetto_check.py, ...) when ../shared/tools exists.
inline std::filesystem::path shared_tools() {
  return std::filesystem::path(TPUPROF_SOURCE_DIR "/../shared/tools");
}

/// Runs a shell command, returns its exit status and output.
inline int run(const std::string& cmd, std::string* out = nullptr) {
  auto r = test_util::run_shell(cmd + " 2>&1");
  if (out) *out = std::move(r.out);
  return r.code;
}

}  // namespace sink_test
