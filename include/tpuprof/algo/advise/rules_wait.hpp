/// algo::advise rules on waits: `serial-dma` (DMA and TIU wait for each other
/// in turn: no overlap),
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

/// `serial-dma`: a load that depends on TIU command X while the TIU command
/// right after X depends on this load or a later one of its queue: load and
/// compute take turns, neither runs ahead (a load of layer L that waits for
/// layer L-1's compute instead of an older one). Stores waiting for the
/// compute that produced their data are the normal case. Fixed (double-buffered),
/// the load waits for the compute before X's layer instead (without layers: the
/// TIU command before X, and only loads in runs of min_run count).
inline std::vector<candidate> serial_dma_rule(const context& c) {
  const dependency_graph& g = *c.g;
  candidate k{"serial-dma"};
  auto same_queue = [&](std::uint32_t a, std::uint32_t b) {
    const engine_event &x = g.events[a], &y = g.events[b];
    return x.engine == y.engine && x.unit == y.unit && x.device == y.device;
  };
  // Loads that take turns with the compute, in queue order (a run = consecutive such loads).
  std::vector<std::uint32_t> turn(g.size(), no_node);  // load -> the TIU command it waits for
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    const engine_event& e = g.events[n];
    if (!detail::is_dma(e.engine) || (e.layer_id >= 0 && !detail::is_load(e.dir()))) continue;
    const std::uint32_t x = g.usable_dep(n);
    if (x == no_node || g.events[x].engine != engine::tiu) continue;
    const std::uint32_t y = x + 1;  // the TIU command after x
    if (y >= g.size() || g.prev[y] != x) continue;
    const std::uint32_t w = g.usable_dep(y);
    if (w != no_node && w >= n && same_queue(w, n)) turn[n] = x;
  }
  // Without layers a buffer's reuse distance is unknown: only a lasting alternation
  // (min_run loads of a queue in a row, stores of a layer between them not counted) is a
  // fault. Both passes step over the same commands, so every command of a run gets its length.
  std::vector<std::uint32_t> run(g.size(), 0);
  auto before_in_run = [&](std::uint32_t n) {
    std::uint32_t p = g.prev[n];
    while (p != no_node && turn[p] == no_node && g.events[p].layer_id >= 0 &&
           !detail::is_load(g.events[p].dir()))
      p = g.prev[p];
    return p != no_node && turn[p] != no_node ? p : no_node;
  };
  for (std::uint32_t n = 0; n < g.size(); ++n)
    if (turn[n] != no_node) {
      const std::uint32_t p = before_in_run(n);
      run[n] = 1 + (p != no_node ? run[p] : 0);
    }
  for (std::uint32_t n = g.size(); n-- > 0;)  // a run's length to all its commands
    if (turn[n] != no_node)
      if (const std::uint32_t p = before_in_run(n); p != no_node) run[p] = std::max(run[p], run[n]);
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    const std::uint32_t x = turn[n];
    if (x == no_node) continue;
    const engine_event& e = g.events[n];
    const bool layers = g.events[x].layer_id >= 0;
    if (!layers && run[n] < c.opt.min_run) continue;
    // Double-buffered, the load waits for the compute before X's layer (before X without layers).
    std::uint32_t before = g.prev[x];
    if (layers) {
      before = x;
      while (before != no_node && g.events[before].layer_id == g.events[x].layer_id)
        before = g.prev[before];
    }
    const double wait = std::max(0.0, g.events[x + 1].begin_ns - g.events[x].end_ns);  // TIU idle
    k.f.repoint.emplace_back(n, before);
    k.evidence.emplace_back(n, wait);
    k.evidence.emplace_back(x, 0);  // listed, after the loads
    k.bucket_ns += g.events[x + 1].begin_ns - g.events[x].end_ns + e.dur_ns();
  }
  std::vector<candidate> out;
  if (!k.f.empty()) out.push_back(std::move(k));
  return out;
}

/// `dispatch`: the part of an idle interval after what its command waited for
/// had ended (all of it when it waited for nothing): the issuer was late. It
/// counts when an outlier of its queue; the excess over the queue's median is cut.
inline std::vector<candidate> dispatch_rule(const context& c) {
  const dependency_graph& g = *c.g;
  candidate k{"dispatch"};
  auto late = [&](const idle_interval& iv) {
    const double ready =
        iv.on == no_node ? iv.begin_ns : std::max(iv.begin_ns, g.events[iv.on].end_ns);
    return iv.end_ns - ready;
  };
  for (const queue_idle& q : c.idle) {
    std::vector<double> gaps;
    for (const idle_interval& iv : q.intervals)
      if (iv.cause != idle_cause::edge && iv.cause != idle_cause::unknown && iv.next != no_node)
        gaps.push_back(late(iv));
    const double med = detail::median(gaps);
    for (const idle_interval& iv : q.intervals) {
      if (iv.cause == idle_cause::edge || iv.cause == idle_cause::unknown || iv.next == no_node)
        continue;
      const double d = late(iv), excess = d - med;
      if (!(d > c.opt.outlier * med) || excess < c.opt.min_excess_ns) continue;
      k.f.cut.emplace_back(iv.next, excess);
      k.evidence.emplace_back(iv.next, excess);
      k.bucket_ns += d;
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
  double others = 0, mean = 0;
  for (auto it = busy.begin(); it != busy.end(); ++it) {
    if (it != top) others += it->second;
    mean += it->second;
  }
  others /= static_cast<double>(busy.size() - 1);
  mean /= static_cast<double>(busy.size());
  if (!(top->second > c.opt.imbalance * others) || !(others > 0)) return {};
  // The fix moves work, it does not remove it: every core's commands scaled to the mean.
  candidate k{"core-imbalance"};
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    const engine_event& e = g.events[n];
    auto it = busy.find({e.device, e.unit});
    if (e.engine == engine::cdma || it == busy.end() || !(it->second > 0)) continue;
    const double f = mean / it->second;
    k.f.factor.emplace_back(n, f);
    if (it != top) continue;
    k.evidence.emplace_back(n, e.dur_ns() * (1 - f));
    k.bucket_ns += e.dur_ns() * (1 - f);
  }
  k.what = "core " + std::to_string(top->first.second) + " TIU busy " +
           detail::fmt_ns(top->second) + ", other cores " + detail::fmt_ns(others) + " on average";
  return {std::move(k)};
}

}  // namespace tpuprof::algo::advise
