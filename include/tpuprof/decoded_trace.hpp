/// decoded_trace: what every decoder returns (trace_info + event ranges), and
/// materialized_trace, the owning in-memory form (tests, merges, generators).
#pragma once

#include <concepts>
#include <ranges>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof {

/// A decoded dump: `info()` plus `events()` (hardware events: TIU, GDMA,
/// SDMA, CDMA; grouped by track, in time order within a track) and `spans()`
/// (derived rows: layers, MCU records, kernel functions, subnets).
template <class T>
concept decoded_trace = requires(const T& t) {
  { t.info() } -> std::convertible_to<const trace_info&>;
  requires std::ranges::input_range<decltype(t.events())>;
  requires std::ranges::input_range<decltype(t.spans())>;
  requires std::convertible_to<std::ranges::range_reference_t<decltype(t.events())>,
                               const engine_event&>;
};

/// Owns everything; satisfies decoded_trace.
struct materialized_trace {
  trace_info meta;
  std::vector<engine_event> hw;       ///< hardware events
  std::vector<engine_event> derived;  ///< layers, MCU, functions, subnets

  const trace_info& info() const noexcept { return meta; }
  const std::vector<engine_event>& events() const noexcept { return hw; }
  const std::vector<engine_event>& spans() const noexcept { return derived; }
};

static_assert(decoded_trace<materialized_trace>);

/// Copies any decoded trace into memory (events in its order).
template <decoded_trace T>
materialized_trace materialize(const T& t) {
  materialized_trace m;
  m.meta = t.info();
  if constexpr (std::ranges::sized_range<decltype(t.events())>)
    m.hw.reserve(std::ranges::size(t.events()));
  for (const engine_event& e : t.events()) m.hw.push_back(e);
  for (const engine_event& e : t.spans()) m.derived.push_back(e);
  return m;
}

}  // namespace tpuprof
