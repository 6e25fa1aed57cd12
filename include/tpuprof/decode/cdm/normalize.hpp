/// cdm_normalize: repairs of raw PMU record lists before matching: 16-bit id
/// unwrap, 32-bit cycle unwrap, out-of-order repair (SDMA/CDMA), and the
/// cross-core alignment and zero shift applied after matching.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <tpuprof/decode/cdm/pmu.hpp>

namespace tpuprof::cdm {

inline constexpr std::int64_t cycle_modulus = std::int64_t{1} << 32;

/// Adds 65536 each time an id jumps from above 65000 to below 1000 (the
/// vendor rule). Returns the number of wraps.
inline std::uint64_t unwrap_ids(std::vector<pmu_record>& r) noexcept {
  std::uint64_t delta = 0, last = 0, wraps = 0;
  for (auto& x : r) {
    if (last > 65000 && x.id < 1000) {
      delta += 65536;
      ++wraps;
    }
    last = x.id;
    x.id += delta;
  }
  return wraps;
}

/// Unwraps 32-bit start/end cycles. A wrap is a backwards jump of the start of
/// more than half the counter range relative to the previous start; the
/// vendor's rule (next start < previous end) also fires on legal overlaps of
/// pipelined or dual-thread records and adds a spurious 2^32 there (defect B.1),
/// and tpu-mlir adds 2^32-1. On monotone data all three agree. An end below its
/// start gets +2^32. Returns the number of wraps (start and end).
inline std::uint64_t unwrap_cycles(std::vector<pmu_record>& r) noexcept {
  std::int64_t delta = 0, last_start = 0;
  std::uint64_t wraps = 0;
  bool first = true;
  for (auto& x : r) {
    std::int64_t s = x.start + delta;
    if (!first && s + cycle_modulus / 2 < last_start) {
      delta += cycle_modulus;
      s += cycle_modulus;
      ++wraps;
    }
    first = false;
    x.end += delta;
    x.start = s;
    if (x.end < x.start) {
      x.end += cycle_modulus;
      ++wraps;
    }
    last_start = x.start;
  }
  return wraps;
}

/// bigTpuProfile adjust_send_retire_order on raw cycles (SDMA, CDMA): swaps a
/// record with its successor when the successor was issued first. Returns swaps.
inline std::uint64_t adjust_send_retire_order(std::vector<pmu_record>& r) noexcept {
  std::uint64_t swaps = 0;
  for (std::size_t i = 1; i + 1 < r.size(); ++i) {
    const auto& p = r[i - 1];
    const auto& c = r[i];
    const auto& f = r[i + 1];
    const std::int64_t gc = c.start - p.end, gf = f.start - p.end;
    bool swap = gf < gc && gc > 0 && gf > 0;
    if (gc < 0 && gf > 0 && f.start - f.end > 0) swap = true;
    if (swap) {
      std::swap(r[i], r[i + 1]);
      ++swaps;
    }
  }
  return swaps;
}

/// bigTpuProfile adjust_command_order: swaps adjacent records whose ids are
/// out of order by one. Returns swaps.
inline std::uint64_t adjust_command_order(std::vector<pmu_record>& r) noexcept {
  std::uint64_t swaps = 0;
  const std::size_t n = r.size();
  for (std::size_t i = 1; i < n; ++i) {
    if (r[i].id >= r[i - 1].id) continue;
    if (i >= 2 && r[i].id - r[i - 2].id == 1) {
      std::swap(r[i], r[i - 1]);
      ++swaps;
    } else if (i + 1 < n && r[i + 1].id - r[i - 1].id == 1) {
      std::swap(r[i], r[i + 1]);
      ++swaps;
    }
  }
  return swaps;
}

/// tpu-mlir's SDMA repair on the bmodel path: one forward pass; swap when the
/// id goes back and the previous record is on thread 1 or one id ahead.
inline std::uint64_t adjust_sdma_order_bmodel(std::vector<pmu_record>& r) noexcept {
  std::uint64_t swaps = 0;
  for (std::size_t i = 1; i < r.size(); ++i) {
    const auto& pre = r[i - 1];
    const auto& m = r[i];
    if (m.id < pre.id &&
        ((pre.flags & pmu_record::thread_one) || (pre.id - m.id == 1 && m.id != 0))) {
      std::swap(r[i], r[i - 1]);
      ++swaps;
    }
  }
  return swaps;
}

/// Subtracts `delta` cycles from every record.
inline void shift_cycles(std::vector<pmu_record>& r, std::int64_t delta) noexcept {
  if (delta == 0) return;
  for (auto& x : r) {
    x.start -= delta;
    x.end -= delta;
  }
}

}  // namespace tpuprof::cdm
