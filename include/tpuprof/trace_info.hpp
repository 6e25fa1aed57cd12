/// trace_info: what a decoder knows about a whole dump (chip, clocks, tracks,
/// names, diagnostics). Sinks and views read it next to the event range.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/diagnostics.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/names.hpp>

namespace tpuprof {

/// One event queue: an engine of one core (or CDMA port) of one device.
struct track {
  std::uint8_t device = 0;
  std::uint8_t unit = 0;  ///< core, or CDMA port
  engine eng = engine::tiu;
  double freq_mhz = 1000;     ///< clock of this queue's cycle counter
  std::uint64_t records = 0;  ///< raw PMU records read (before trimming)
  std::uint64_t events = 0;   ///< events the decoder yields on this track

  friend bool operator==(const track& a, const track& b) noexcept {
    return a.device == b.device && a.unit == b.unit && a.eng == b.eng;
  }
};

/// Stable order for track trees: device, then core, then engine.
inline bool track_less(const track& a, const track& b) noexcept {
  if (a.device != b.device) return a.device < b.device;
  bool ac = a.eng == engine::cdma, bc = b.eng == engine::cdma;
  if (ac != bc) return bc;  // CDMA ports after all cores
  if (a.unit != b.unit) return a.unit < b.unit;
  return a.eng < b.eng;
}

/// Everything about a decoded dump except the events themselves.
struct trace_info {
  std::string chip;    ///< "BM1684X", "SG2260", ...
  std::string source;  ///< directory or memory label
  unsigned devices = 1;
  unsigned cores = 1;
  std::string mode;           ///< e.g. "static", "mode 1 (condensed commands)"
  std::vector<track> tracks;  ///< every queue with events, in track_less order
  name_table names;           ///< text of engine_event::op / ::function ids
  decode_diagnostics diagnostics;
  /// Free-form facts for `info` (net name, tpu_freq, max_record_num, ...).
  std::vector<std::pair<std::string, std::string>> properties;
  /// Time span of hardware events on the common timeline, ns.
  double begin_ns = 0;
  double end_ns = 0;

  const track* find_track(std::uint8_t device, std::uint8_t unit, engine e) const noexcept {
    for (const auto& t : tracks)
      if (t.device == device && t.unit == unit && t.eng == e) return &t;
    return nullptr;
  }
  std::string_view property(std::string_view key) const noexcept {
    for (const auto& [k, v] : properties)
      if (k == key) return v;
    return {};
  }
  void sort_tracks() { std::stable_sort(tracks.begin(), tracks.end(), track_less); }
};

}  // namespace tpuprof
