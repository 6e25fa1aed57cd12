/// algo::advise context and candidates: what the rules read (the graph, idle
/// causes, ceilings, operands, the compiler's estimate) and what each rule
/// proposes (the commands it blames, their time, and the fix to replay).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/algo/advise/fix_replay.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/chip_ceilings.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::algo::advise {

/// Tunables of the rules (defaults documented in docs/analysis.md).
struct rule_options {
  double outlier = 4;         ///< a wait counts when longer than outlier x the queue's median
  double min_excess_ns = 50;  ///< and longer than the median by at least this
  double low_uarch = 0.5;     ///< uArch rate below this x the op's median rate
  double slow_dma = 0.5;      ///< DMA bandwidth below this x the plateau
  double imbalance = 1.1;     ///< busiest core above this x the mean of the others
  double over_estimate = 2;   ///< measured above this x the compiler's estimate
  double bank_conflict_factor = 0.5;  ///< duration of a conflicting command once fixed
  unsigned min_run = 4;  ///< serial-dma without layers, small-dma: consecutive commands
};

/// What the rules read. `operands` (node -> its memory operands) may be empty;
/// `estimate_ns` (layer -> the compiler's estimate of its busy time) may be empty.
struct context {
  const dependency_graph* g = nullptr;
  const name_table* names = nullptr;
  std::vector<queue_idle> idle;
  chip_ceilings ceilings;
  std::function<std::span<const regs::mem_operand>(std::uint32_t)> operands;
  std::map<std::int32_t, double> estimate_ns;
  rule_options opt;
};

/// One rule's proposal: the fix, the blamed commands with the ns each accounts
/// for, and the bucket (time the rule looked at; recoverable never exceeds it).
struct candidate {
  candidate() = default;
  explicit candidate(std::string_view r) : rule(r) {}
  std::string_view rule;
  fix f;
  std::vector<std::pair<std::uint32_t, double>> evidence;
  double bucket_ns = 0;
  std::string what;  ///< measured facts for the message ("plateau 60.1 GB/s", ...)
};

namespace detail {

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

/// "12.3 us" (ns below 1 us, ms above 1 ms): durations in messages.
inline std::string fmt_ns(double ns) {
  char b[32];
  if (ns < 1e3)
    std::snprintf(b, sizeof b, "%.0f ns", ns);
  else if (ns < 1e6)
    std::snprintf(b, sizeof b, "%.1f us", ns / 1e3);
  else
    std::snprintf(b, sizeof b, "%.2f ms", ns / 1e6);
  return b;
}

inline bool is_dma(engine e) noexcept {
  return e == engine::gdma || e == engine::sdma || e == engine::cdma;
}

/// Loads fill local memory (or L2); stores drain it.
inline bool is_load(direction d) noexcept {
  return d == direction::s2l || d == direction::m2l || d == direction::c2l || d == direction::s2m;
}
inline bool is_store(direction d) noexcept {
  return d == direction::l2s || d == direction::l2m || d == direction::m2s;
}

}  // namespace detail
}  // namespace tpuprof::algo::advise
