/// engine_event: the one record type that flows from decoders to views and sinks.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <ranges>

#include <tpuprof/engine.hpp>
#include <tpuprof/names.hpp>

namespace tpuprof {

/// One command on one engine queue (or one derived span: layer, function, MCU).
/// 64 bytes: sized for millions of events in memory; names are interned ids
/// (text in trace_info::names) so the struct stays flat.
struct engine_event {
  /// Cycles on the decoder's common timeline (after unwrap, alignment, shift).
  std::uint64_t begin_cycle = 0;
  std::uint64_t end_cycle = 0;
  /// Nanoseconds on the same timeline (cycle * 1000 / MHz of the engine clock).
  double begin_ns = 0;
  double end_ns = 0;
  /// Bytes moved (DMA); 0 for compute or when unknown (see has_bytes()).
  std::uint64_t bytes = 0;
  /// Hardware command id (unwrapped), as the vendor tools print it.
  std::uint32_t cmd_id = 0;
  /// Compiler layer id; -1 = none.
  std::int32_t layer_id = -1;
  /// alg ops / arch ops; NaN = unknown (never 0 for unknown).
  float uarch_rate = std::numeric_limits<float>::quiet_NaN();
  /// Op name (e.g. "arith.cast", "dma.tensor", "MM2_NN"); 0 = unknown.
  name_id op = 0;
  /// Op type / function class (e.g. "AR", "TENSOR", "mm/mm2"); 0 = unknown.
  name_id op_type = 0;
  /// Kernel function the command ran in (SG2260 FUNC records); 0 = none.
  name_id function = 0;
  /// Chip-specific: kernel-function instance (SG2260) or subnet index (BM1684X).
  std::uint16_t group = 0;
  std::uint8_t device = 0;
  /// Core for per-core engines; port for CDMA.
  std::uint8_t unit = 0;
  tpuprof::engine engine = tpuprof::engine::tiu;
  /// Low 4 bits: direction; high bits: flags below.
  std::uint8_t dir_flags = 0;

  static constexpr std::uint8_t flag_matched = 0x10;    ///< PMU record paired with a command
  static constexpr std::uint8_t flag_has_bytes = 0x20;  ///< `bytes` is known
  static constexpr std::uint8_t flag_invalid = 0x40;    ///< record carries 0xFFFFFFFF fields

  constexpr tpuprof::direction dir() const noexcept {
    return static_cast<tpuprof::direction>(dir_flags & 0x0F);
  }
  constexpr void set_dir(tpuprof::direction d) noexcept {
    dir_flags =
        static_cast<std::uint8_t>((dir_flags & 0xF0) | (static_cast<std::uint8_t>(d) & 0x0F));
  }
  constexpr bool matched() const noexcept { return (dir_flags & flag_matched) != 0; }
  constexpr bool has_bytes() const noexcept { return (dir_flags & flag_has_bytes) != 0; }
  constexpr void set_flag(std::uint8_t f, bool on = true) noexcept {
    dir_flags = static_cast<std::uint8_t>(on ? (dir_flags | f) : (dir_flags & ~f));
  }
  /// Duration in cycles of the engine clock.
  constexpr std::uint64_t cycles() const noexcept {
    return end_cycle >= begin_cycle ? end_cycle - begin_cycle : 0;
  }
  constexpr double dur_ns() const noexcept { return end_ns - begin_ns; }
  /// Bytes per ns = GB/s (10^9); NaN when unknown or zero duration.
  double bandwidth_gbps() const noexcept {
    double d = dur_ns();
    if (!has_bytes() || !(d > 0)) return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(bytes) / d;
  }
};

static_assert(sizeof(engine_event) == 64, "engine_event must stay 64 bytes");

/// Any input range whose elements read as `const engine_event&`: std::vector,
/// std::span, decoder views, range-v3 and std pipelines. Never constrained on
/// std::ranges::view (range-v3 0.12 views are not std views).
template <class R>
concept event_range = std::ranges::input_range<R> &&
                      std::convertible_to<std::ranges::range_reference_t<R>, const engine_event&>;

}  // namespace tpuprof
