/// slice_marks: what the trace sinks add to some events' slices besides their
/// own fields: flow arrows between slices, a critical-path flag and the
/// advisor's finding they belong to, looked up by the event's identity
/// (sinks/critical_path_marks.hpp and the CLI's `convert --advise` fill them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::sinks {

/// The marks of one event's slice.
struct slice_mark {
  std::uint64_t flow_out = 0;  ///< id of a flow (arrow) that starts at this slice; 0 = none
  std::uint64_t flow_in = 0;   ///< id of a flow that ends at this slice; 0 = none
  bool critical = false;       ///< the command is on the critical path
  /// 1 + index of the finding (slice_marks::notes) the command is evidence
  /// of, the best-ranked one when several; 0 = none.
  std::uint32_t note = 0;
};

/// A finding of the advisor (algo/advisor.hpp) that marked slices point at;
/// the sinks also give each one a slice of its own, over its commands' extent.
struct slice_note {
  std::string id, rule, severity, message;
  double recoverable_ns = 0;
  double begin_ns = 0, end_ns = 0;  ///< the commands' extent, in the events' times
};

/// slice_mark per event, by the event's identity (device, core, engine,
/// group, cmd id, begin and end cycle): events of another decode of the same
/// dump at the same time base find theirs.
class slice_marks {
 public:
  /// The marks of `e`, created empty on first use.
  template <class Event = engine_event>
  slice_mark& at(const Event& e) {
    find_ = &find_in<Event>;
    return index_[key_of(e)];
  }
  /// The marks of `e`, or null.
  const slice_mark* find(const engine_event& e) const {
    return index_.empty() ? nullptr : find_(*this, e);
  }
  std::size_t size() const noexcept { return index_.size(); }
  bool empty() const noexcept { return index_.empty(); }
  /// The note of `m`, or null.
  const slice_note* note_of(const slice_mark& m) const noexcept {
    return m.note && m.note <= notes.size() ? &notes[m.note - 1] : nullptr;
  }

  std::vector<slice_note> notes;  ///< what slice_mark::note points at

 private:
  struct key {
    std::uint64_t begin_cycle, end_cycle;
    std::uint32_t cmd_id, track;  // track_key::packed()
    std::uint16_t group;
    friend bool operator==(const key&, const key&) = default;
  };
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept {
      std::uint64_t h = k.begin_cycle * 0x9E3779B97F4A7C15ull ^ k.end_cycle;
      h ^= (std::uint64_t{k.cmd_id} << 32 | std::uint64_t{k.track} << 8 | k.group) +
           0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };
  static key key_of(const engine_event& e) noexcept {
    return {e.begin_cycle, e.end_cycle, e.cmd_id, track_of(e).packed(), e.group};
  }
  template <class Event>
  static const slice_mark* find_in(const slice_marks& m, const engine_event& e) {
    auto it = m.index_.find(key_of(e));
    return it == m.index_.end() ? nullptr : &it->second;
  }
  std::unordered_map<key, slice_mark, key_hash> index_;
  /// The lookup, set by at(): through a pointer so that the sinks, which only
  /// read marks, do not compile the map's lookup in every TU that includes
  /// them (tools/compile_budget.sh); only the code that fills marks does.
  const slice_mark* (*find_)(const slice_marks&, const engine_event&) = nullptr;
};

}  // namespace tpuprof::sinks
