/// cdm_normalize: repairs of raw PMU record lists before matching: 16-bit id
/// unwrap, 32-bit cycle unwrap, out-of-order repair (SDMA/CDMA), and the
/// cross-core alignment and zero shift applied after matching.
#pragma once

#include <cstdint>

#include <tpuprof/decode/cdm/pmu.hpp>

namespace tpuprof::cdm {

inline constexpr std::int64_t cycle_modulus = std::int64_t{1} << 32;

/// Adds 65536 each time an id jumps from above 65000 to below 1000 (the
/// vendor rule). Returns the number of wraps.
inline std::uint64_t unwrap_ids(pmu_list r) noexcept {
  std::uint64_t delta = 0, last = 0, wraps = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    pmu_ref x = r[i];
    const std::uint64_t id = x.id();
    if (last > 65000 && id < 1000) {
      delta += 65536;
      ++wraps;
    }
    last = id;
    if (delta) x.set_id(id + delta);
  }
  return wraps;
}

/// Unwraps 32-bit start/end cycles. A wrap is a backwards jump of the start of
/// more than half the counter range relative to the previous start; the
/// vendor's rule (next start < previous end) also fires on legal overlaps of
/// pipelined or dual-thread records and adds a spurious 2^32 there (defect B.1),
/// and tpu-mlir adds 2^32-1. On monotone data all three agree. An end below its
/// start gets +2^32. Returns the number of wraps (start and end).
inline std::uint64_t unwrap_cycles(pmu_list r) noexcept {
  std::int64_t delta = 0, last_start = 0;
  std::uint64_t wraps = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    pmu_ref x = r[i];
    std::int64_t s = x.start() + delta;
    if (i > 0 && s + cycle_modulus / 2 < last_start) {
      delta += cycle_modulus;
      s += cycle_modulus;
      ++wraps;
    }
    std::int64_t e = x.end() + delta;
    if (e < s) {
      e += cycle_modulus;
      ++wraps;
    }
    x.set_start(s);
    x.set_end(e);
    last_start = s;
  }
  return wraps;
}

/// bigTpuProfile adjust_send_retire_order on raw cycles (SDMA, CDMA): swaps a
/// record with its successor when the successor was issued first. Returns swaps.
inline std::uint64_t adjust_send_retire_order(pmu_list r) noexcept {
  std::uint64_t swaps = 0;
  for (std::size_t i = 1; i + 1 < r.size(); ++i) {
    const pmu_ref p = r[i - 1], c = r[i], f = r[i + 1];
    const std::int64_t gc = c.start() - p.end(), gf = f.start() - p.end();
    bool swap = gf < gc && gc > 0 && gf > 0;
    if (gc < 0 && gf > 0 && f.start() - f.end() > 0) swap = true;
    if (swap) {
      r.swap(i, i + 1);
      ++swaps;
    }
  }
  return swaps;
}

/// bigTpuProfile adjust_command_order: swaps adjacent records whose ids are
/// out of order by one. Returns swaps.
inline std::uint64_t adjust_command_order(pmu_list r) noexcept {
  std::uint64_t swaps = 0;
  const std::size_t n = r.size();
  for (std::size_t i = 1; i < n; ++i) {
    const std::uint64_t id = r[i].id(), prev = r[i - 1].id();
    if (id >= prev) continue;
    if (i >= 2 && id - r[i - 2].id() == 1) {
      r.swap(i, i - 1);
      ++swaps;
    } else if (i + 1 < n && r[i + 1].id() - prev == 1) {
      r.swap(i, i + 1);
      ++swaps;
    }
  }
  return swaps;
}

/// tpu-mlir's SDMA repair on the bmodel path: one forward pass; swap when the
/// id goes back and the previous record is on thread 1 or one id ahead.
inline std::uint64_t adjust_sdma_order_bmodel(pmu_list r) noexcept {
  std::uint64_t swaps = 0;
  for (std::size_t i = 1; i < r.size(); ++i) {
    const pmu_ref pre = r[i - 1], m = r[i];
    const std::uint64_t pid = pre.id(), mid = m.id();
    if (mid < pid && ((pre.flags() & pmu_ref::thread_one) || (pid - mid == 1 && mid != 0))) {
      r.swap(i, i - 1);
      ++swaps;
    }
  }
  return swaps;
}

/// Subtracts `delta` cycles from every record: recorded in the list and applied
/// when its slots become events (nothing reads cycles after a shift but the
/// final alignment, which accounts for it).
inline void shift_cycles(pmu_list& r, std::int64_t delta) noexcept {
  r.shift += delta;
}

}  // namespace tpuprof::cdm
