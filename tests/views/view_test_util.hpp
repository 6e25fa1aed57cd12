// Builders for hand-computed view tests: events on a 1 GHz clock (1 cycle = 1 ns).
#pragma once

#include <cstdint>
#include <vector>

#include <tpuprof/event.hpp>

namespace tpuprof::test {

/// An event on `eng` of unit `unit`, from `b` to `e` ns; `bytes` > 0 marks bytes known.
inline engine_event ev(engine eng, unsigned unit, double b, double e, std::uint64_t bytes = 0,
                       unsigned device = 0) {
  engine_event x;
  x.engine = eng;
  x.unit = static_cast<std::uint8_t>(unit);
  x.device = static_cast<std::uint8_t>(device);
  x.begin_ns = b;
  x.end_ns = e;
  x.begin_cycle = static_cast<std::uint64_t>(b);
  x.end_cycle = static_cast<std::uint64_t>(e);
  if (bytes) {
    x.bytes = bytes;
    x.set_flag(engine_event::flag_has_bytes);
  }
  return x;
}

template <class R>
std::vector<engine_event> collect(R&& r) {
  std::vector<engine_event> out;
  for (const engine_event& e : r) out.push_back(e);
  return out;
}

}  // namespace tpuprof::test
