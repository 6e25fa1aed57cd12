/// operand_table: the memory operands of a decoded trace's events, copied so
/// they outlive the decoder (materialize() keeps only the events).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include <tpuprof/algo/memory_map.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// Memory operands per event, looked up by the event's identity (device,
/// core, engine, group, cmd id, begin cycle), so it serves the events of a
/// materialized_trace, also after merge_devices. An operand_source, and a
/// region_source with the regions of every source appended.
class operand_table {
 public:
  operand_table() = default;
  /// The operands of `events` per `src`, as if the events were on `device`.
  template <event_range R, operand_source P>
  operand_table(R&& events, const P& src, std::uint8_t device = 0) {
    append(events, src, device);
  }

  /// Adds the operands of `events` per `src` (a dump decoded alone, whose
  /// events merge_devices will put on `device`), and its regions if it names any.
  template <event_range R, operand_source P>
  void append(R&& events, const P& src, std::uint8_t device = 0) {
    for (const engine_event& e : events) {
      const std::size_t first = ops_.size();
      for (const regs::mem_operand& m : src.operands(e)) ops_.push_back(m);
      if (ops_.size() == first) continue;
      engine_event k = e;
      k.device = device;
      index_.insert_or_assign(key_of(k), span_ref{first, ops_.size() - first});
    }
    if constexpr (region_source<P>)
      for (const regs::memory_region& r : src.memory_regions()) regions_.push_back(r);
  }

  /// Appends another table (as if its appends had followed this table's):
  /// for dumps decoded in parallel, merged in device order.
  /// (A template only so that TUs which never merge do not compile it: the
  /// umbrella's compile budget, tools/compile_budget.sh.)
  template <class Table = operand_table>
  void merge(Table&& o) {
    const std::size_t shift = ops_.size();
    ops_.insert(ops_.end(), o.ops_.begin(), o.ops_.end());
    for (const auto& [k, v] : o.index_)
      index_.insert_or_assign(k, span_ref{v.first + shift, v.count});
    regions_.insert(regions_.end(), o.regions_.begin(), o.regions_.end());
    o = operand_table{};
  }

  /// The operands of `e` (empty when none are known).
  std::span<const regs::mem_operand> operands(const engine_event& e) const {
    auto it = index_.find(key_of(e));
    if (it == index_.end()) return {};
    return std::span<const regs::mem_operand>(ops_).subspan(it->second.first, it->second.count);
  }
  const std::vector<regs::memory_region>& memory_regions() const noexcept { return regions_; }

  std::size_t size() const noexcept { return ops_.size(); }  ///< operands held
  bool empty() const noexcept { return ops_.empty(); }

 private:
  struct key {
    std::uint64_t begin_cycle;
    std::uint32_t cmd_id;
    std::uint32_t track;  // track_key::packed()
    std::uint16_t group;
    friend bool operator==(const key&, const key&) = default;
  };
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept {
      std::uint64_t h = k.begin_cycle * 0x9E3779B97F4A7C15ull;
      h ^= (std::uint64_t{k.cmd_id} << 32 | std::uint64_t{k.track} << 8 | k.group) +
           0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };
  struct span_ref {
    std::size_t first, count;
  };
  static key key_of(const engine_event& e) noexcept {
    return {e.begin_cycle, e.cmd_id, track_of(e).packed(), e.group};
  }

  std::vector<regs::mem_operand> ops_;
  std::unordered_map<key, span_ref, key_hash> index_;
  std::vector<regs::memory_region> regions_;
};

static_assert(region_source<operand_table>);

}  // namespace tpuprof
