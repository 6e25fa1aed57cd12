/// Fault injection for the generators (`tpuprof synth --inject RULE`): a dependency-scheduled
/// dump with exactly one known performance fault, the ground truth that `tpuprof advise` is
/// scored against. The rule names are advise's finding names. The fault's cost is measured, not
/// modelled: span(faulted dump) - span(clean dump of the same seed and options; SG2260
/// serial-dma: of the same program double-buffered, inject_report::clean_span_ns).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>

namespace tpuprof::synth {

/// The faults a generator can inject (docs/analysis.md, "Fault injection").
enum class fault : std::uint8_t {
  none,
  starved_tiu,     ///< TIU waits for loads at 1/12 of the bandwidth (strided source)
  serial_dma,      ///< load / compute / store serialized: no prefetch in some layers
  lane_underuse,   ///< conv / matmul channels not a multiple of the 64 NPU lanes
  bank_conflict,   ///< a TIU command's output in the bank of its first input: 2x slower
  small_dma,       ///< loads split into many transfers of <= 256 bytes
  core_imbalance,  ///< multi-core: one core has much more work than the others
  dispatch,        ///< late issue: gaps where no engine has anything pending
};

inline constexpr std::array<std::string_view, 8> fault_names{
    "none",          "starved-tiu", "serial-dma",     "lane-underuse",
    "bank-conflict", "small-dma",   "core-imbalance", "dispatch"};

constexpr std::string_view fault_name(fault f) noexcept {
  return fault_names[static_cast<std::size_t>(f)];
}
/// The fault named `s` (advise's rule names); nullopt for an unknown name.
constexpr std::optional<fault> parse_fault(std::string_view s) noexcept {
  for (std::size_t i = 1; i < fault_names.size(); ++i)
    if (fault_names[i] == s) return static_cast<fault>(i);
  return std::nullopt;
}

/// Duration multipliers and sizes of the injected faults (what advise should recover).
namespace inject_params {
inline constexpr std::int64_t slow_dma_factor = 12;      ///< starved-tiu: load duration x12
inline constexpr std::int64_t bank_conflict_factor = 2;  ///< bank-conflict: TIU duration x2
inline constexpr std::uint64_t small_dma_bytes = 256;    ///< small-dma: bytes per piece at most
inline constexpr std::size_t small_dma_pieces = 128;   ///< small-dma: loads up to 32 KiB are split
inline constexpr std::int64_t small_dma_cycles = 300;  ///< small-dma: cycles per piece
inline constexpr double imbalance_share = 0.3;         ///< core-imbalance: heavy core's extra work
inline constexpr std::int64_t lanes = 64;              ///< NPU lanes (BM1684X and SG2260)
}  // namespace inject_params

/// A command the fault touched, as a decoder reports it (engine_event's core, engine, cmd_id).
struct injected_command {
  std::uint8_t core = 0;
  engine eng = engine::tiu;
  std::uint32_t cmd_id = 0;
  friend bool operator==(const injected_command&, const injected_command&) = default;
};

/// What a generator injected (filled by the generator with the fault applied).
struct inject_record {
  std::vector<std::int32_t> layers;  ///< layer ids (BM1684X); empty on SG2260
  std::vector<injected_command> commands;
  std::vector<unsigned> cores;  ///< core-imbalance: the heavy core
};

/// The ground-truth report (`--inject-report`, default DIR/inject.json).
struct inject_report {
  fault rule = fault::none;
  /// Span of the reference program: the clean dump of the same seed and options, or for
  /// SG2260 serial-dma the faulted program with its windows' loads double-buffered
  /// (cdm_synth_options::inject_reference).
  double clean_span_ns = 0, span_ns = 0;
  inject_record what;
  double cost_ns() const noexcept { return span_ns - clean_span_ns; }

  std::string to_json() const {
    auto num = [](double v) { return std::to_string(static_cast<long long>(v)); };
    std::string j = "{\"rule\": \"" + std::string(fault_name(rule)) +
                    "\", \"cost_ns\": " + num(cost_ns()) +
                    ", \"clean_span_ns\": " + num(clean_span_ns) +
                    ", \"span_ns\": " + num(span_ns) + ", \"layers\": [";
    for (std::size_t i = 0; i < what.layers.size(); ++i)
      j += (i ? ", " : "") + std::to_string(what.layers[i]);
    j += "], \"cores\": [";
    for (std::size_t i = 0; i < what.cores.size(); ++i)
      j += (i ? ", " : "") + std::to_string(what.cores[i]);
    j += "], \"commands\": [";
    for (std::size_t i = 0; i < what.commands.size(); ++i) {
      const auto& c = what.commands[i];
      j += std::string(i ? ", " : "") + "{\"core\": " + std::to_string(c.core) +
           ", \"engine\": \"" + std::string(name(c.eng)) +
           "\", \"cmd_id\": " + std::to_string(c.cmd_id) + "}";
    }
    return j + "]}\n";
  }
};

/// Span of hardware events in ns: last end - first start (0 when empty).
template <class Events>
double hw_span_ns(const Events& evs) {
  double lo = std::numeric_limits<double>::max(), hi = 0;
  for (const engine_event& e : evs) {
    lo = std::min(lo, e.begin_ns);
    hi = std::max(hi, e.end_ns);
  }
  return hi > lo ? hi - lo : 0.0;
}

}  // namespace tpuprof::synth
