/// ops_math: the integer arithmetic of the vendors' shape and ops formulas
/// (Python ints, so 128-bit here, saturated on the way out), shared by every
/// chip's instruction decoder.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace tpuprof::regs::detail {

__extension__ using i128 = __int128;

constexpr i128 align_up(i128 x, i128 a) noexcept {
  return a > 0 ? (x + a - 1) / a * a : x;
}
constexpr i128 div_up(i128 x, i128 a) noexcept {
  return a > 0 ? (x + a - 1) / a : 0;
}
constexpr std::int64_t sat64(i128 v) noexcept {
  constexpr i128 hi = std::numeric_limits<std::int64_t>::max();
  constexpr i128 lo = std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(v > hi ? hi : v < lo ? lo : v);
}
/// A byte count: negative -> 0, saturated at INT64_MAX.
constexpr std::uint64_t clamp_size(i128 v) noexcept {
  if (v <= 0) return 0;
  constexpr i128 hi = static_cast<i128>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::uint64_t>(v > hi ? hi : v);
}

/// uArch rate = alg / arch; NaN when either is unknown or arch is 0.
template <class A, class B>
float ops_ratio(const std::optional<A>& alg, const std::optional<B>& arch) noexcept {
  if (!alg || !arch || *arch == 0) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(static_cast<double>(*alg) / static_cast<double>(*arch));
}

}  // namespace tpuprof::regs::detail
