/// tpuprof::trace: what tpuprof::open returns, a decoded dump in memory with
/// the same API for every chip. Light entry header: no decoders, so code that
/// takes a trace (but does not open one) compiles fast.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <ranges>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <range/v3/view/facade.hpp>

#include <tpuprof/command_dep.hpp>
#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/operand_source.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/dependency_table.hpp>
#include <tpuprof/views/operand_table.hpp>

namespace tpuprof {

/// The events of one engine of a trace, in the trace's order: a sized
/// random-access view over a table of event indices (no copies). A range-v3
/// view, so range-v3 and tpuprof pipes take it as an rvalue.
class engine_events : public ranges::view_facade<engine_events, ranges::finite> {
  friend ranges::range_access;
  struct cursor {
    const engine_event* base = nullptr;
    const std::uint32_t* at = nullptr;
    const engine_event& read() const noexcept { return base[*at]; }
    bool equal(const cursor& o) const noexcept { return at == o.at; }
    void next() noexcept { ++at; }
    void prev() noexcept { --at; }
    void advance(std::ptrdiff_t n) noexcept { at += n; }
    std::ptrdiff_t distance_to(const cursor& o) const noexcept { return o.at - at; }
  };
  cursor begin_cursor() const noexcept { return {base_, index_.data()}; }
  cursor end_cursor() const noexcept { return {base_, index_.data() + index_.size()}; }

  const engine_event* base_ = nullptr;
  std::span<const std::uint32_t> index_;

 public:
  engine_events() = default;
  engine_events(const engine_event* base, std::span<const std::uint32_t> index) noexcept
      : base_(base), index_(index) {}
};

/// What open() returns: a decoded dump in memory, the same API for every chip.
/// A decoded_trace (every sink and view takes it) and a region_source (the
/// HTML report's memory charts, views::memory_map), with the operands kept
/// when open_options::keep_operands was set.
class trace {
 public:
  trace() : trace(materialized_trace{}) {}
  /// Takes a decoded dump (events grouped by track, time ordered within one)
  /// and, optionally, the operands of its events.
  explicit trace(materialized_trace t, operand_table ops = {}, dependency_table deps = {})
      : t_(std::move(t)), ops_(std::move(ops)) {
    index_engines();
    index_dependencies(deps);
  }
  trace(const trace& o) : t_(o.t_), ops_(o.ops_), deps_(o.deps_), has_deps_(o.has_deps_) {
    index_engines();
  }
  trace(trace&&) noexcept = default;  // vectors keep their buffers: views stay valid
  trace& operator=(const trace& o) { return *this = trace(o); }
  trace& operator=(trace&&) noexcept = default;

  /// Chip, source, devices, cores, tracks (clocks, record counts), names, span.
  const trace_info& info() const noexcept { return t_.meta; }
  /// What the decoder noticed (wraps, lost records, unmatched commands, notes).
  const decode_diagnostics& diagnostics() const noexcept { return t_.meta.diagnostics; }
  /// Every hardware event (TIU, GDMA, SDMA, CDMA): grouped by track in
  /// track_less order, time ordered within a track.
  const std::vector<engine_event>& events() const noexcept { return t_.hw; }
  /// The hardware events of engine `e` (all devices and cores), in events()
  /// order; empty for the derived engines (layer, mcu, ...: see spans()).
  engine_events events(engine e) const noexcept {
    const auto i = static_cast<std::size_t>(e);
    if (i >= engine_count) return {};
    return engine_events(
        t_.hw.data(),
        std::span<const std::uint32_t>(by_engine_).subspan(first_[i], first_[i + 1] - first_[i]));
  }
  /// Derived rows: layers, MCU records, kernel functions, subnets.
  const std::vector<engine_event>& spans() const noexcept { return t_.derived; }
  /// Memory ranges the command of `e` reads and writes; empty when unknown or
  /// when operands were not kept (open_options::keep_operands).
  std::span<const regs::mem_operand> operands(const engine_event& e) const {
    return ops_.operands(e);
  }
  /// Named address ranges (local memory banks, device buffers) of the dumps
  /// whose operands were kept.
  const std::vector<regs::memory_region>& memory_regions() const noexcept {
    return ops_.memory_regions();
  }
  /// True when at least one event has operands.
  bool has_operands() const noexcept { return !ops_.empty(); }
  /// What the command of events()[i] waits for, parallel to events(); empty
  /// unless open_options::dependencies was set. An entry with known = false
  /// means "no dependency data" for that event (e.g. SG2260 modes 0/1).
  std::span<const command_dep> dependencies() const noexcept { return deps_; }
  /// True when at least one event has dependency data.
  bool has_dependencies() const noexcept { return has_deps_; }

 private:
  /// Indexes the events by engine (stable: events() order within an engine).
  void index_engines() {
    if (t_.hw.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("tpuprof::trace: more than 2^32 events");
    first_.fill(0);
    for (const auto& e : t_.hw) ++first_[static_cast<std::size_t>(e.engine) + 1];
    for (std::size_t i = 1; i <= engine_count; ++i) first_[i] += first_[i - 1];
    by_engine_.assign(t_.hw.size(), 0);
    auto next = first_;
    for (std::uint32_t k = 0; k < t_.hw.size(); ++k)
      by_engine_[next[static_cast<std::size_t>(t_.hw[k].engine)]++] = k;
  }

  /// Resolves the table to one entry per event (events() order).
  void index_dependencies(const dependency_table& deps) {
    if (deps.empty()) return;
    deps_.resize(t_.hw.size());
    for (std::size_t k = 0; k < t_.hw.size(); ++k) {
      deps_[k] = deps.dependency(t_.hw[k]);
      has_deps_ = has_deps_ || deps_[k].known;
    }
  }

  materialized_trace t_;
  operand_table ops_;
  std::vector<command_dep> deps_;  ///< parallel to t_.hw, or empty
  bool has_deps_ = false;
  std::vector<std::uint32_t> by_engine_;               ///< event indices, grouped by engine
  std::array<std::size_t, engine_count + 1> first_{};  ///< engine e: [first_[e], first_[e+1])
};

static_assert(decoded_trace<trace>);
static_assert(region_source<trace>);
static_assert(std::ranges::random_access_range<engine_events>);
static_assert(std::ranges::sized_range<engine_events>);
static_assert(event_range<engine_events>);

}  // namespace tpuprof
