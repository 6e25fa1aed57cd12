/// merge_devices: several decoded dumps (one per device or call) as one trace
/// whose events carry distinct device ids.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <tpuprof/decoded_trace.hpp>

namespace tpuprof {

/// Device d of the result is parts[d]; name ids are re-interned into one
/// table; diagnostics are summed; properties keep a "devN." prefix.
/// Throws std::invalid_argument past 256 devices (the event field is 8-bit).
inline materialized_trace merge_devices(std::vector<materialized_trace> parts) {
  if (parts.size() == 1) return std::move(parts.front());
  if (parts.size() > 256) throw std::invalid_argument("more than 256 devices");
  materialized_trace out;
  auto& m = out.meta;
  m.devices = static_cast<unsigned>(parts.size());
  bool first = true;
  std::size_t hw = 0, derived = 0;
  for (const auto& p : parts) {
    hw += p.hw.size();
    derived += p.derived.size();
  }
  out.hw.reserve(hw);  // one buffer, and each part freed once copied: no doubling
  out.derived.reserve(derived);
  for (std::size_t d = 0; d < parts.size(); ++d) {
    auto& p = parts[d];
    const auto dev = static_cast<std::uint8_t>(d);
    std::vector<name_id> remap(p.meta.names.size());
    for (std::size_t i = 0; i < remap.size(); ++i)
      remap[i] = m.names.intern(p.meta.names[static_cast<name_id>(i)]);
    auto fix = [&](engine_event e) {
      e.device = dev;
      e.op = remap[e.op];
      e.op_type = remap[e.op_type];
      e.function = remap[e.function];
      return e;
    };
    for (const auto& e : p.hw) out.hw.push_back(fix(e));
    for (const auto& e : p.derived) out.derived.push_back(fix(e));
    std::vector<engine_event>().swap(p.hw);
    std::vector<engine_event>().swap(p.derived);
    for (auto t : p.meta.tracks) {
      t.device = dev;
      m.tracks.push_back(t);
    }
    m.diagnostics.merge(p.meta.diagnostics);
    for (auto& [k, v] : p.meta.properties)
      m.properties.emplace_back("dev" + std::to_string(d) + "." + k, v);
    if (first || m.chip != p.meta.chip) m.chip = first ? p.meta.chip : m.chip + "," + p.meta.chip;
    m.cores = std::max(m.cores, p.meta.cores);
    m.mode = first ? p.meta.mode : m.mode;
    m.source = first ? p.meta.source : m.source + ";" + p.meta.source;
    m.begin_ns = first ? p.meta.begin_ns : std::min(m.begin_ns, p.meta.begin_ns);
    m.end_ns = first ? p.meta.end_ns : std::max(m.end_ns, p.meta.end_ns);
    first = false;
  }
  m.sort_tracks();
  // each part is grouped by track and time ordered; appending device after
  // device keeps the decoder contract (track_less orders by device first)
  return out;
}

}  // namespace tpuprof
