/// algo::advise rules on waits: `starved-tiu` (TIU waits for one DMA),
/// `serial-dma` (TIU waits while loads and stores run one after the other),
/// `dispatch` (a queue waits for its issuer), `core-imbalance` (one core does
/// more than the others). A wait counts when it is an outlier of its queue
/// (longer than outlier x the median wait); the excess over the median is the
/// fix (the command starts that much earlier).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <tpuprof/algo/advise/context.hpp>

namespace tpuprof::algo::advise {

namespace detail {

/// [first, last) of the track of node n (events are grouped by track).
inline std::pair<std::uint32_t, std::uint32_t> track_of_node(
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tracks, std::uint32_t n) {
  auto it = std::upper_bound(tracks.begin(), tracks.end(), n,
                             [](std::uint32_t v, const auto& r) { return v < r.first; });
  return *(it - 1);
}

/// Whether the DMA queue of `on` ran both a load and a store during [a, b).
inline bool serial_during(const dependency_graph& g,
                          const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tracks,
                          std::uint32_t on, double a, double b) {
  const auto [lo, hi] = track_of_node(tracks, on);
  bool load = false, store = false;
  unsigned count = 0;
  for (std::uint32_t i = on + 1; i > lo; --i) {  // back from `on` to the gap's start
    const engine_event& e = g.events[i - 1];
    if (e.end_ns <= a) break;
    ++count;
    load |= is_load(e.dir());
    store |= is_store(e.dir());
  }
  for (std::uint32_t i = on + 1; i < hi && g.events[i].begin_ns < b; ++i) {
    ++count;
    load |= is_load(g.events[i].dir());
    store |= is_store(g.events[i].dir());
  }
  return count >= 2 && load && store;
}

}  // namespace detail

/// `starved-tiu` and `serial-dma`: outlier waits of TIU queues for a DMA.
inline std::vector<candidate> tiu_wait_rules(const context& c) {
  const dependency_graph& g = *c.g;
  const auto tracks = algo::detail::track_ranges(g.events);
  candidate starved{"starved-tiu"}, serial{"serial-dma"};
  for (const queue_idle& q : c.idle) {
    if (q.track.eng != engine::tiu) continue;
    std::vector<double> waits;
    for (const idle_interval& iv : q.intervals)
      if (iv.cause != idle_cause::edge && iv.cause != idle_cause::unknown)
        waits.push_back(iv.dur_ns());
    const double med = detail::median(waits);
    for (const idle_interval& iv : q.intervals) {
      if (iv.cause != idle_cause::dependency && iv.cause != idle_cause::sync) continue;
      if (iv.on == no_node || !detail::is_dma(g.events[iv.on].engine)) continue;
      const double excess = iv.dur_ns() - med;
      if (!(iv.dur_ns() > c.opt.outlier * med) || excess < c.opt.min_excess_ns) continue;
      candidate& k =
          detail::serial_during(g, tracks, iv.on, iv.begin_ns, iv.end_ns) ? serial : starved;
      k.f.cut.emplace_back(iv.next, excess);
      k.evidence.emplace_back(iv.on, excess);
      k.evidence.emplace_back(iv.next, excess);
      k.bucket_ns += iv.dur_ns();
    }
    starved.what = serial.what = "median TIU wait " + detail::fmt_ns(med);
  }
  std::vector<candidate> out;
  if (!starved.f.empty()) out.push_back(std::move(starved));
  if (!serial.f.empty()) out.push_back(std::move(serial));
  return out;
}

/// `dispatch`: outlier waits of any queue for nothing but its issuer.
inline std::vector<candidate> dispatch_rule(const context& c) {
  candidate k{"dispatch"};
  for (const queue_idle& q : c.idle) {
    std::vector<double> gaps;
    for (const idle_interval& iv : q.intervals)
      if (iv.cause == idle_cause::dispatch) gaps.push_back(iv.dur_ns());
    const double med = detail::median(gaps);
    for (const idle_interval& iv : q.intervals) {
      if (iv.cause != idle_cause::dispatch || iv.next == no_node) continue;
      const double excess = iv.dur_ns() - med;
      if (!(iv.dur_ns() > c.opt.outlier * med) || excess < c.opt.min_excess_ns) continue;
      k.f.cut.emplace_back(iv.next, excess);
      k.evidence.emplace_back(iv.next, excess);
      k.bucket_ns += iv.dur_ns();
    }
  }
  std::vector<candidate> out;
  if (!k.f.empty()) out.push_back(std::move(k));
  return out;
}

/// `core-imbalance`: the busiest core's commands scaled down to the mean busy
/// time of the other cores (TIU, GDMA, SDMA; CDMA ports are not cores).
inline std::vector<candidate> core_imbalance_rule(const context& c) {
  const dependency_graph& g = *c.g;
  std::map<std::pair<std::uint8_t, std::uint8_t>, double> busy;  // (device, core) -> TIU busy
  for (const engine_event& e : g.events)
    if (e.engine == engine::tiu) busy[{e.device, e.unit}] += e.dur_ns();
  if (busy.size() < 2) return {};
  auto top = busy.begin();
  for (auto it = busy.begin(); it != busy.end(); ++it)
    if (it->second > top->second) top = it;
  double others = 0;
  for (auto it = busy.begin(); it != busy.end(); ++it)
    if (it != top) others += it->second;
  others /= static_cast<double>(busy.size() - 1);
  if (!(top->second > c.opt.imbalance * others) || !(others > 0)) return {};
  candidate k{"core-imbalance"};
  const double f = others / top->second;
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    const engine_event& e = g.events[n];
    if (e.engine == engine::cdma || e.device != top->first.first || e.unit != top->first.second)
      continue;
    k.f.factor.emplace_back(n, f);
    k.evidence.emplace_back(n, e.dur_ns() * (1 - f));
    k.bucket_ns += e.dur_ns() * (1 - f);
  }
  k.what = "core " + std::to_string(top->first.second) + " TIU busy " +
           detail::fmt_ns(top->second) + ", other cores " + detail::fmt_ns(others) + " on average";
  return {std::move(k)};
}

}  // namespace tpuprof::algo::advise
