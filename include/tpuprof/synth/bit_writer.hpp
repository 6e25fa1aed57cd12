/// bit_writer: writing register fields into zero-initialized command descriptors (what every
/// generator that encodes real commands needs).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <tpuprof/regs/reg_table.hpp>

namespace tpuprof::synth {

/// ORs `v` (truncated to the field's width) into a zero-initialized descriptor.
inline void put(std::byte* d, regs::reg_field f, std::uint64_t v) noexcept {
  if (f.width < 64) v &= (std::uint64_t{1} << f.width) - 1;
  unsigned bit = f.lo, left = f.width;
  while (left) {
    const unsigned off = bit % 8, take = std::min(8 - off, left);
    d[bit / 8] |= static_cast<std::byte>((v & ((1u << take) - 1)) << off);
    v >>= take;
    bit += take;
    left -= take;
  }
}

constexpr std::uint64_t align_up(std::uint64_t x, std::uint64_t a) noexcept {
  return a ? (x + a - 1) / a * a : x;
}

}  // namespace tpuprof::synth
