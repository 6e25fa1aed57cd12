/// Engine kinds: the hardware queues that PMU records come from, plus the
/// software rows (MCU, layer, kernel function, subnet) that decoders derive.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tpuprof {

/// Kept small (one byte) because it sits in every engine_event.
enum class engine : std::uint8_t {
  tiu = 0,              ///< tensor compute unit (BD/BDC)
  gdma = 1,             ///< general DMA, per core
  sdma = 2,             ///< system DMA, per core (SG2260 family)
  cdma = 3,             ///< chip-to-chip DMA, per port (SG2260 family)
  mcu = 4,              ///< firmware (MCU) records: node set / wait
  layer = 5,            ///< compiler layer spans
  kernel_function = 6,  ///< firmware kernel-function spans (FUNC .. FUNC_END)
  subnet = 7,           ///< subnet / iteration markers
};

inline constexpr std::size_t engine_count = 8;

inline constexpr std::array<std::string_view, engine_count> engine_names{
    "TIU", "GDMA", "SDMA", "CDMA", "MCU", "LAYER", "FUNCTION", "SUBNET"};

/// Upper-case display name ("TIU", "GDMA", ...).
constexpr std::string_view name(engine e) noexcept {
  auto i = static_cast<std::size_t>(e);
  return i < engine_count ? engine_names[i] : std::string_view{"?"};
}

/// Parses "tiu", "GDMA", ... (case-insensitive); nullopt when unknown.
constexpr std::optional<engine> parse_engine(std::string_view s) noexcept {
  for (std::size_t i = 0; i < engine_count; ++i) {
    auto n = engine_names[i];
    if (n.size() != s.size()) continue;
    bool eq = true;
    for (std::size_t k = 0; k < n.size() && eq; ++k) {
      char c = s[k];
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      eq = c == n[k];
    }
    if (eq) return static_cast<engine>(i);
  }
  return std::nullopt;
}

/// True for queues whose events come from PMU records (one per hardware command).
constexpr bool is_hardware(engine e) noexcept {
  return e <= engine::cdma;
}

/// True for DMA queues (they move bytes).
constexpr bool is_dma(engine e) noexcept {
  return e == engine::gdma || e == engine::sdma || e == engine::cdma;
}

/// Transfer direction of a DMA command: source and destination memory kinds
/// (S = system DDR, L = local memory, M = L2 memory/SRAM, C = constant fill).
/// Four bits: stored packed in engine_event.
enum class direction : std::uint8_t {
  none = 0,  ///< not a transfer
  s2l,       ///< DDR -> local memory
  l2s,       ///< local memory -> DDR
  s2s,       ///< DDR -> DDR
  l2l,       ///< local -> local
  l2m,       ///< local -> L2
  c2s,       ///< constant -> DDR
  c2l,       ///< constant -> local
  unknown,   ///< a transfer whose direction is not known
  s2m,       ///< DDR -> L2
  m2s,       ///< L2 -> DDR
  m2l,       ///< L2 -> local
  m2m,       ///< L2 -> L2
  c2m,       ///< constant -> L2
};

inline constexpr std::size_t direction_count = 14;

/// Short names ("S2L"), as in BM1684X global.profile and summary tables.
inline constexpr std::array<std::string_view, direction_count> direction_names{
    "",    "S2L",     "L2S", "S2S", "L2L", "L2M", "C2S",
    "C2L", "UNKNOWN", "S2M", "M2S", "M2L", "M2M", "C2M"};

/// Long names ("DDR->LMEM"), as the SG2260 vendor tools print them.
inline constexpr std::array<std::string_view, direction_count> direction_long_names{
    "",          "DDR->LMEM",  "LMEM->DDR",   "DDR->DDR",  "LMEM->LMEM",
    "LMEM->L2M", "CONST->DDR", "CONST->LMEM", "UNKNOWN",   "DDR->L2M",
    "L2M->DDR",  "L2M->LMEM",  "L2M->L2M",    "CONST->L2M"};

constexpr std::string_view name(direction d) noexcept {
  auto i = static_cast<std::size_t>(d);
  return i < direction_count ? direction_names[i] : std::string_view{"?"};
}
constexpr std::string_view long_name(direction d) noexcept {
  auto i = static_cast<std::size_t>(d);
  return i < direction_count ? direction_long_names[i] : std::string_view{"?"};
}

}  // namespace tpuprof
