// Hand-built events and dependencies for the dependency-graph, critical-path,
// advisor and flow-mark tests (times in ns; cycles = ns).
#pragma once

#include <cstdint>

#include <tpuprof/command_dep.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>

namespace graph_test {

/// Command `id` of engine `e` (on `core`) from `b` to `en` ns.
inline tpuprof::engine_event ev(tpuprof::engine e, std::uint32_t id, double b, double en,
                                std::uint8_t core = 0) {
  tpuprof::engine_event x;
  x.engine = e;
  x.cmd_id = id;
  x.unit = core;
  x.begin_ns = b;
  x.end_ns = en;
  x.begin_cycle = static_cast<std::uint64_t>(b);
  x.end_cycle = static_cast<std::uint64_t>(en);
  return x;
}

/// Command `self` waits for command `wait` of engine `on` (0: none), 20-bit ids.
inline tpuprof::command_dep dep(std::uint32_t self, std::uint32_t wait, tpuprof::engine on) {
  tpuprof::command_dep d;
  d.known = true;
  d.self_id = self;
  d.wait_id = wait;
  d.on = on;
  d.id_bits = 20;
  return d;
}

}  // namespace graph_test
