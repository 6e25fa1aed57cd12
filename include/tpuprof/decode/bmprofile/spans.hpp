/// What the decoder derives from all events once the lists are built: the tracks, the
/// trace's time span, the command of every statically paired event, and the layer and
/// subnet rows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <tpuprof/decode/bmprofile/blocks.hpp>
#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/records.hpp>
#include <tpuprof/decode/bmprofile/time.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::bmprofile {

/// One track per engine with records, on that engine's clock.
inline void add_tracks(const std::vector<pmu_list>& lists, const clocks& clk, trace_info& info) {
  for (engine eng : {engine::tiu, engine::gdma}) {
    track t;
    t.eng = eng;
    t.freq_mhz = eng == engine::tiu ? clk.tiu_mhz : clk.dma_mhz;
    for (const auto& l : lists)
      if (l.eng == eng) t.records += l.count;
    if (!t.records) continue;
    t.events = t.records;
    info.tracks.push_back(t);
  }
}

/// Time extents gathered in one pass over the events.
struct event_extents {
  std::map<std::pair<std::size_t, std::int32_t>, std::pair<double, double>>
      layer_span;  ///< (iter, layer idx) -> [begin, end] ns
  std::vector<std::pair<double, double>> iter_span;
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
};

/// Walks every event once: extents of the trace, of each iteration and of each layer, and
/// the command of each statically paired event.
template <bmprofile_chip Chip>
event_extents scan_events(const std::vector<pmu_list>& lists, std::size_t iterations,
                          const func_ids<Chip>& fids, command_lookup& cmds) {
  event_extents x;
  x.iter_span.assign(iterations, {std::numeric_limits<double>::infinity(), 0});
  for (const auto& l : lists) {
    for_each_pmu_event<Chip>(l, fids, [&](std::size_t k, const engine_event& e) {
      x.lo = std::min(x.lo, e.begin_ns);
      x.hi = std::max(x.hi, e.end_ns);
      auto& is = x.iter_span[l.iteration];
      is.first = std::min(is.first, e.begin_ns);
      is.second = std::max(is.second, e.end_ns);
      const auto pr = l.pair[k];
      if (pr == no_pair || (pr & dyn_pair_bit)) return;
      if (const auto* ni = l.node_ins; ni && pr < ni->size() && (*ni)[pr])
        cmds.emplace(command_key(e), (*ni)[pr]);
      const auto layer = (*l.nodes)[pr].layer;
      if (layer < 0) return;
      auto [it, fresh] = x.layer_span.try_emplace({l.iteration, layer}, e.begin_ns, e.end_ns);
      if (!fresh) {
        it->second.first = std::min(it->second.first, e.begin_ns);
        it->second.second = std::max(it->second.second, e.end_ns);
      }
    });
  }
  return x;
}

/// Layer rows ("Conv2D(L)"), subnet rows ("Iter[i]"), then all derived rows grouped by
/// kind in time order (what lane assignment in sinks expects).
inline void add_layer_and_subnet_spans(const event_extents& x,
                                       const std::vector<const subnet_info*>& iter_subnet,
                                       const std::vector<iter_blocks>& iters,
                                       const std::vector<double>& base_us, double tiu_mhz,
                                       name_table& names, std::vector<engine_event>& spans) {
  for (const auto& [key, span] : x.layer_span) {
    const subnet_info* s = iter_subnet[key.first];
    if (!s) continue;
    const auto& layer = s->layers[static_cast<std::size_t>(key.second)];
    auto ev = span_event(engine::layer, span.first, span.second,
                         layer.layer_type + (layer.is_local ? "(L)" : "(G)"), tiu_mhz, names);
    ev.layer_id = layer.layer_id;
    ev.group = static_cast<std::uint16_t>(key.first);
    spans.push_back(ev);
  }
  for (std::size_t it = 0; it < iters.size(); ++it) {
    const double b = base_us[it] * 1000.0;
    const double e = x.iter_span[it].second > b ? x.iter_span[it].second : b;
    auto ev =
        span_event(engine::subnet, b, e,
                   "Iter[" + std::to_string(iters[it].summary.iteration) + "]", tiu_mhz, names);
    ev.group = static_cast<std::uint16_t>(it);
    ev.cmd_id = static_cast<std::uint32_t>(iters[it].summary.subnet_id);
    spans.push_back(ev);
  }
  std::stable_sort(spans.begin(), spans.end(), [](const engine_event& a, const engine_event& b) {
    if (a.engine != b.engine) return a.engine < b.engine;
    return a.begin_ns < b.begin_ns;
  });
}

}  // namespace tpuprof::bmprofile
