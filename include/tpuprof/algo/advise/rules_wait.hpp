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

/// `serial-dma`: a load that waited for a TIU command to end (load after
/// compute: the load could not run ahead of the compute, no overlap; stores
/// waiting for the compute that produced their data are the normal case). The wait of
/// the DMA command beyond its queue's median wait is cut (it is prefetched).
inline std::vector<candidate> serial_dma_rule(const context& c) {
  const dependency_graph& g = *c.g;
  candidate k{"serial-dma"};
  for (const queue_idle& q : c.idle) {
    if (!detail::is_dma(q.track.eng)) continue;
    std::vector<double> waits;  // the queue's issue latency: its waits for nothing
    for (const idle_interval& iv : q.intervals)
      if (iv.cause == idle_cause::dispatch) waits.push_back(iv.dur_ns());
    const double med = detail::median(waits);
    for (const idle_interval& iv : q.intervals) {
      if (iv.cause != idle_cause::dependency && iv.cause != idle_cause::sync) continue;
      if (iv.on == no_node || g.events[iv.on].engine != engine::tiu ||
          !detail::is_load(g.events[iv.next].dir()))
        continue;
      const double wait = std::min(iv.end_ns, g.events[iv.on].end_ns) - iv.begin_ns;
      const double excess = wait - med;
      if (!(wait > c.opt.outlier * med) || excess < c.opt.min_excess_ns) continue;
      k.f.cut.emplace_back(iv.next, excess);
      k.evidence.emplace_back(iv.next, excess);
      k.evidence.emplace_back(iv.on, excess);
      k.bucket_ns += iv.dur_ns();
    }
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
