/// dependency_table: the dependency fields (command_dep) of a decoded trace's
/// events, copied so they outlive the decoder (materialize() keeps only events).
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include <tpuprof/command_dep.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// command_dep per event, looked up by the event's identity (device, core,
/// engine, group, cmd id, begin cycle) as operand_table does, so it serves the
/// events of a materialized_trace, also after merge_devices. A dependency_source.
class dependency_table {
 public:
  dependency_table() = default;

  /// Adds the dependency fields `src` knows for `events` (a dump decoded
  /// alone, whose events merge_devices will put on `device`).
  template <event_range R, dependency_source P>
  void append(R&& events, const P& src, std::uint8_t device = 0) {
    for (const engine_event& e : events) {
      const command_dep d = src.dependency(e);
      if (!d.known) continue;
      engine_event k = e;
      k.device = device;
      index_.insert_or_assign(key_of(k), d);
    }
  }

  /// Appends another table (as if its appends had followed this table's).
  /// (A template only so that TUs which never merge do not compile it: the
  /// umbrella's compile budget, tools/compile_budget.sh.)
  template <class Table = dependency_table>
  void merge(Table&& o) {
    for (const auto& [k, v] : o.index_) index_.insert_or_assign(k, v);
    o = dependency_table{};
  }

  /// The dependency fields of `e`; known = false when none were recorded.
  command_dep dependency(const engine_event& e) const {
    auto it = index_.find(key_of(e));
    return it == index_.end() ? command_dep{} : it->second;
  }

  std::size_t size() const noexcept { return index_.size(); }  ///< events with data
  bool empty() const noexcept { return index_.empty(); }

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
  static key key_of(const engine_event& e) noexcept {
    return {e.begin_cycle, e.cmd_id, track_of(e).packed(), e.group};
  }

  std::unordered_map<key, command_dep, key_hash> index_;
};

static_assert(dependency_source<dependency_table>);

}  // namespace tpuprof
