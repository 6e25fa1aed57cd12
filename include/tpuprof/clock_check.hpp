/// usable_clock_mhz: the one range check for clock frequencies, whether they
/// come from a dump (`tpu_freq=`) or from the caller (options, CLI).
#pragma once

#include <cmath>
#include <string>

namespace tpuprof {

/// Clocks above this are not a TPU's (100 GHz); a larger value turns every
/// span into 0 ns, so it is treated as invalid, not as a clock.
inline constexpr double max_clock_mhz = 100000;

/// True for a finite clock in (0, max_clock_mhz] MHz.
inline bool usable_clock_mhz(double mhz) noexcept {
  return std::isfinite(mhz) && mhz > 0 && mhz <= max_clock_mhz;
}

/// Why `mhz` is not usable, for messages ("" when it is).
inline std::string clock_problem(double mhz) {
  if (std::isnan(mhz)) return "is not a number";
  if (!std::isfinite(mhz)) return "is infinite";
  if (mhz <= 0) return mhz == 0 ? "is 0" : "is negative";
  if (mhz > max_clock_mhz) return "is above 100000 MHz";
  return {};
}

}  // namespace tpuprof
