/// Time normalization of bmprofile dumps: clocks, the host timeline of the subnet runs, the
/// vendor's integer/float conversions and the sequential rebasing of PMU cycle counters (the
/// format notes §6.2, §6.4).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/clock_check.hpp>
#include <tpuprof/decode/bmprofile/blocks.hpp>
#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>

namespace tpuprof::bmprofile {

/// trunc toward zero like Python's int(), saturating instead of UB on absurd values.
inline std::int64_t to_i64(double v) noexcept {
  if (!(v == v)) return 0;
  if (v >= 9.0e18) return std::int64_t{9'000'000'000'000'000'000};
  if (v <= -9.0e18) return -std::int64_t{9'000'000'000'000'000'000};
  return static_cast<std::int64_t>(v);
}

inline std::int64_t sat_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

/// (a - b) * ns / 1000 as the vendor computes it (integer product, one
/// division), falling back to doubles where the product would overflow.
inline double mcu_us(std::uint64_t a, std::uint64_t b, std::uint64_t ns) noexcept {
  const auto d = static_cast<std::int64_t>(a - b);
  std::int64_t prod;
  if (ns <= 0x7FFFFFFFu && !__builtin_mul_overflow(d, static_cast<std::int64_t>(ns), &prod))
    return static_cast<double>(prod) / 1000.0;
  return static_cast<double>(d) * static_cast<double>(ns) / 1000.0;
}

/// Sequential state for id unwrap and cycle rebasing (the vendor's loop).
struct rebase_state {
  std::size_t k = 0;
  double fixed = 0;
  std::uint32_t last_s = 0, last_e = 0, prev_id = 0;
  std::uint64_t id_delta = 0;

  /// Applies record k's raw values (call for k = 0, 1, 2, ... in order).
  /// `raw_id_bits`: width of the PMU id field (the chip's TIU and GDMA widths).
  template <unsigned IdWidth>
  void arrive(std::uint32_t raw_s, std::uint32_t raw_e, std::uint32_t raw_id,
              unsigned raw_id_bits) noexcept {
    if (k > 0) {
      if constexpr (IdWidth > 16) {
        // An id that fell by more than half its range wrapped. (The vendor adds
        // 65536 when an id falls from > 65000 to < 1000, also for 20-bit GDMA
        // ids, where that is a firmware record after command 65000, not a wrap.)
        if (prev_id > raw_id && prev_id - raw_id > (1u << (raw_id_bits - 1)))
          id_delta += std::uint64_t{1} << raw_id_bits;
      }
      // A start that went backwards is a wrap. (The vendor also treats an end
      // smaller than the previous end as a wrap, which is wrong for overlaps.)
      if (raw_s < last_s) fixed += 4294967296.0;
    }
    last_s = raw_s;
    last_e = raw_e;
    prev_id = raw_id;
  }
  /// trunc(double(raw - first) + fixed), as tpu-mlir computes it.
  std::int64_t rebase(std::uint32_t raw, std::uint32_t first) const noexcept {
    return bmprofile::to_i64(static_cast<double>(std::int64_t{raw} - std::int64_t{first}) + fixed);
  }
};

/// TIU and DMA clocks of a dump.
struct clocks {
  double tiu_mhz = 0, dma_mhz = 0;
};

/// The chip's clocks, replaced by tpu_freq from global.profile when the chip's period is
/// not fixed, then by the caller's overrides.
template <bmprofile_chip Chip>
clocks resolve_clocks(const global_profile& g, std::optional<double> tiu_override,
                      std::optional<double> dma_override, const std::string& label,
                      decode_diagnostics& diag) {
  clocks c{Chip::tiu_freq_mhz, Chip::dma_freq_mhz};
  if (!Chip::period_fixed) {
    if (g.tpu_freq_mhz && usable_clock_mhz(*g.tpu_freq_mhz)) {
      c.tiu_mhz = c.dma_mhz = *g.tpu_freq_mhz;
    } else if (!g.tpu_freq_mhz) {
      diag.add(diag::default_frequency, label + "/global.profile", decode_error::no_offset,
               "no tpu_freq line: using the chip default clock");
    } else {
      diag.add(diag::default_frequency, label + "/global.profile", g.tpu_freq_offset,
               *g.tpu_freq_mhz == 0 ? std::string("tpu_freq=0: using the chip default clock")
                                    : "tpu_freq " + clock_problem(*g.tpu_freq_mhz) +
                                          ": using the chip default clock");
    }
  }
  if (tiu_override && usable_clock_mhz(*tiu_override)) c.tiu_mhz = *tiu_override;
  if (dma_override && usable_clock_mhz(*dma_override)) c.dma_mhz = *dma_override;
  return c;
}

/// Start of each iteration on the host timeline (µs), gaps between subnet runs removed (§6.2).
inline std::vector<double> host_timeline(const std::vector<iter_blocks>& iters,
                                         decode_diagnostics& diag) {
  std::vector<double> base_us(iters.size(), 0.0);
  double shift = 0;
  const auto begin_time = iters[0].summary.begin_us;
  for (std::size_t i = 0; i < iters.size(); ++i) {
    if (i > 0)
      shift += static_cast<double>(iters[i].summary.begin_us) -
               static_cast<double>(iters[i - 1].summary.end_us);
    base_us[i] =
        static_cast<double>(iters[i].summary.begin_us) - static_cast<double>(begin_time) - shift;
    if (!iters[i].has_summary)
      diag.add(diag::other, iters[i].file, decode_error::no_offset,
               "no SUMMARY block: subnet placed at 0");
  }
  return base_us;
}

/// A derived row (MCU record, layer, subnet) from ns times; cycles on the TIU clock.
inline engine_event span_event(engine e, double b_ns, double e_ns, std::string_view op,
                               double tiu_mhz, name_table& names) {
  engine_event ev;
  ev.engine = e;
  ev.begin_ns = b_ns;
  ev.end_ns = e_ns;
  ev.begin_cycle = static_cast<std::uint64_t>(
      std::max<std::int64_t>(0, to_i64(std::floor(b_ns * tiu_mhz / 1000.0))));
  ev.end_cycle = static_cast<std::uint64_t>(
      std::max<std::int64_t>(0, to_i64(std::floor(e_ns * tiu_mhz / 1000.0))));
  ev.op = names.intern(op);
  return ev;
}

}  // namespace tpuprof::bmprofile
