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

/// A run of consecutive events of one engine in a trace's events(): events
/// are grouped by track, so a trace has a few runs per track, not per event.
struct engine_run {
  std::uint32_t first = 0, last = 0;  ///< [first, last) in events()
  std::uint32_t before = 0;           ///< events of the same engine in earlier runs
};

/// The events of one engine of a trace, in the trace's order: a sized
/// random-access view over the engine's runs (no copies, no per-event index:
/// the trace stays at 64 bytes per event). A range-v3 view, so range-v3 and
/// tpuprof pipes take it as an rvalue.
class engine_events : public ranges::view_facade<engine_events, ranges::finite> {
  friend ranges::range_access;
  /// Position = rank r among the engine's events, plus the run holding it.
  struct cursor {
    const engine_event* base = nullptr;
    const engine_run* runs = nullptr;  ///< first run
    const engine_run* run = nullptr;   ///< run holding r (runs + n: past the end)
    std::size_t n = 0;                 ///< runs
    std::ptrdiff_t r = 0;
    static std::ptrdiff_t length(const engine_run& x) noexcept { return x.last - x.first; }
    const engine_event& read() const noexcept { return base[run->first + (r - run->before)]; }
    bool equal(const cursor& o) const noexcept { return r == o.r; }
    /// Moves `run` to the run holding r (few runs per track: short walks).
    void settle() noexcept {
      const engine_run* end = runs + n;
      while (run != end && r >= std::ptrdiff_t{run->before} + length(*run)) ++run;
      while (run != runs && (run == end || r < std::ptrdiff_t{run->before})) --run;
      if (run != end && r >= std::ptrdiff_t{run->before} + length(*run)) run = end;
    }
    void next() noexcept {
      ++r;
      if (r >= std::ptrdiff_t{run->before} + length(*run)) ++run;
    }
    void prev() noexcept {
      --r;
      settle();
    }
    void advance(std::ptrdiff_t k) noexcept {
      r += k;
      settle();
    }
    std::ptrdiff_t distance_to(const cursor& o) const noexcept { return o.r - r; }
  };
  cursor begin_cursor() const noexcept {
    return {base_, runs_.data(), runs_.data(), runs_.size(), 0};
  }
  cursor end_cursor() const noexcept {
    return {base_, runs_.data(), runs_.data() + runs_.size(), runs_.size(),
            static_cast<std::ptrdiff_t>(size())};
  }

  const engine_event* base_ = nullptr;
  std::span<const engine_run> runs_;

 public:
  engine_events() = default;
  engine_events(const engine_event* base, std::span<const engine_run> runs) noexcept
      : base_(base), runs_(runs) {}
  std::size_t size() const noexcept {
    if (runs_.empty()) return 0;
    return std::size_t{runs_.back().before} + (runs_.back().last - runs_.back().first);
  }
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
    return engine_events(t_.hw.data(), std::span<const engine_run>(runs_).subspan(
                                           first_[i], first_[i + 1] - first_[i]));
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
  /// Indexes the events by engine as runs of consecutive events (stable:
  /// events() order within an engine).
  void index_engines() {
    if (t_.hw.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("tpuprof::trace: more than 2^32 events");
    const auto n = static_cast<std::uint32_t>(t_.hw.size());
    const engine_event* hw = t_.hw.data();
    // Two passes over the runs (count, then place): no temporary list.
    first_.fill(0);
    for (std::uint32_t k = 0, j = 0; k < n; k = j) {
      for (j = k + 1; j < n && hw[j].engine == hw[k].engine;) ++j;
      ++first_[static_cast<std::size_t>(hw[k].engine) + 1];
    }
    for (std::size_t i = 1; i <= engine_count; ++i) first_[i] += first_[i - 1];
    runs_.assign(first_[engine_count], engine_run{});
    auto next = first_;
    std::array<std::uint32_t, engine_count> before{};
    for (std::uint32_t k = 0, j = 0; k < n; k = j) {
      for (j = k + 1; j < n && hw[j].engine == hw[k].engine;) ++j;
      const auto e = static_cast<std::size_t>(hw[k].engine);
      runs_[next[e]++] = {k, j, before[e]};
      before[e] += j - k;
    }
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
  std::vector<engine_run> runs_;                       ///< runs, grouped by engine
  std::array<std::size_t, engine_count + 1> first_{};  ///< engine e: runs [first_[e], first_[e+1])
};

static_assert(decoded_trace<trace>);
static_assert(region_source<trace>);
static_assert(std::ranges::random_access_range<engine_events>);
static_assert(std::ranges::sized_range<engine_events>);
static_assert(event_range<engine_events>);

}  // namespace tpuprof
