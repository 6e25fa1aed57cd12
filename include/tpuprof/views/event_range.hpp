/// event_range: the concept every tpuprof view and aggregation accepts, and
/// track_key, the (device, unit, engine) identity of an event queue.
#pragma once

#include <compare>
#include <concepts>
#include <cstdint>
#include <ranges>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>

namespace tpuprof {

/// One event queue: an engine of one core (or CDMA port) of one device.
struct track_key {
  std::uint8_t device = 0;
  std::uint8_t unit = 0;  ///< core, or CDMA port
  engine eng = engine::tiu;

  friend constexpr bool operator==(const track_key&, const track_key&) noexcept = default;
  friend constexpr auto operator<=>(const track_key&, const track_key&) noexcept = default;
  /// Packed form (device << 16 | unit << 8 | engine), for hashing and sorting.
  constexpr std::uint32_t packed() const noexcept {
    return static_cast<std::uint32_t>(device) << 16 | static_cast<std::uint32_t>(unit) << 8 |
           static_cast<std::uint32_t>(eng);
  }
};

/// The queue an event belongs to.
constexpr track_key track_of(const engine_event& e) noexcept {
  return {e.device, e.unit, e.engine};
}

}  // namespace tpuprof
