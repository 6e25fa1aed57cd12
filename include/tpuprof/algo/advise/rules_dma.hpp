/// algo::advise rules on DMA bandwidth, from the capture's own bandwidth curve
/// (median bandwidth per power-of-two size, per DMA engine): `small-dma`
/// (transfers below the knee of the curve, where bandwidth collapses) and
/// `starved-tiu` (transfers above the knee that run far slower than the
/// transfers of their size: strided / gathered reads that starve the TIU).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <tpuprof/algo/advise/context.hpp>

namespace tpuprof::algo::advise {

namespace detail {

/// The bandwidth curve of one DMA engine.
struct dma_curve {
  std::vector<std::uint32_t> nodes;   ///< transfers with bytes and a duration
  std::map<unsigned, double> median;  ///< log2(bytes) bucket -> median GB/s
  double plateau = 0;                 ///< median GB/s of the largest tenth
  unsigned knee = 0;                  ///< first bucket whose median reaches plateau / 2
};

inline unsigned size_bucket(std::uint64_t bytes) noexcept {
  return static_cast<unsigned>(std::bit_width(bytes));
}

inline dma_curve curve_of(const dependency_graph& g, engine en) {
  dma_curve cv;
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    const engine_event& e = g.events[n];
    if (e.engine == en && e.has_bytes() && e.bytes > 0 && e.dur_ns() > 0) cv.nodes.push_back(n);
  }
  if (cv.nodes.size() < 20) return cv;
  std::map<unsigned, std::vector<double>> by;
  for (std::uint32_t n : cv.nodes)
    by[size_bucket(g.events[n].bytes)].push_back(g.events[n].bandwidth_gbps());
  for (auto& [b, v] : by) cv.median[b] = median(std::move(v));
  std::vector<std::uint32_t> big = cv.nodes;
  const std::size_t top = std::max<std::size_t>(big.size() / 10, 1);
  std::nth_element(
      big.begin(), big.begin() + static_cast<std::ptrdiff_t>(top - 1), big.end(),
      [&](std::uint32_t a, std::uint32_t b) { return g.events[a].bytes > g.events[b].bytes; });
  std::vector<double> bw;
  for (std::size_t i = 0; i < top; ++i) bw.push_back(g.events[big[i]].bandwidth_gbps());
  cv.plateau = median(std::move(bw));
  cv.knee = by.rbegin()->first;
  for (const auto& [b, m] : cv.median)
    if (m >= cv.plateau / 2) {
      cv.knee = b;
      break;
    }
  return cv;
}

}  // namespace detail

/// Expected GB/s of a transfer of bucket b: median of buckets b-1..b+1.
inline double expected_bw(const detail::dma_curve& cv, unsigned b) {
  double sum = 0;
  int n = 0;
  for (unsigned k = b ? b - 1 : 0; k <= b + 1; ++k)
    if (auto it = cv.median.find(k); it != cv.median.end()) {
      sum += it->second;
      ++n;
    }
  return n ? sum / n : cv.plateau;
}

/// `small-dma` and `starved-tiu` over every DMA engine. small-dma: runs of at
/// least min_run back-to-back transfers of one size below the knee of the
/// curve; fixed, each run is one transfer of its total bytes at the curve's
/// bandwidth for that size. starved-tiu: other transfers slower than slow_dma /
/// 2 x the curve at their size; fixed, faster by the median slowdown of those
/// transfers (their common cause, e.g. a stride).
inline std::vector<candidate> dma_rules(const context& c) {
  const dependency_graph& g = *c.g;
  candidate small{"small-dma"}, slow{"starved-tiu"};
  for (engine en : {engine::gdma, engine::sdma, engine::cdma}) {
    const detail::dma_curve cv = detail::curve_of(g, en);
    if (!(cv.plateau > 0)) continue;
    std::vector<std::uint8_t> in_run(g.size(), 0);
    auto tiny = [&](std::uint32_t n) {
      const engine_event& e = g.events[n];
      return e.engine == en && e.has_bytes() && e.bytes > 0 && e.dur_ns() > 0 &&
             detail::size_bucket(e.bytes) < cv.knee;
    };
    for (std::uint32_t n = 0;
         n < g.size();) {  // runs: same queue, same size (the last may be less)
      if (!tiny(n)) {
        ++n;
        continue;
      }
      std::uint32_t m = n + 1;
      while (m < g.size() && g.prev[m] == m - 1 && tiny(m) &&
             (g.events[m].bytes == g.events[n].bytes ||
              (g.events[m].bytes < g.events[n].bytes &&
               (m + 1 == g.size() || !tiny(m + 1) || g.events[m + 1].bytes != g.events[n].bytes))))
        ++m;
      if (m - n >= c.opt.min_run) {
        double bytes = 0, dur = 0;
        for (std::uint32_t i = n; i < m; ++i) {
          bytes += static_cast<double>(g.events[i].bytes);
          dur += g.events[i].dur_ns();
          in_run[i] = 1;
        }
        const double merged =
            bytes / expected_bw(cv, detail::size_bucket(static_cast<std::uint64_t>(bytes)));
        if (merged < dur) {
          for (std::uint32_t i = n; i < m; ++i) {
            small.f.factor.emplace_back(i, merged / dur);
            small.evidence.emplace_back(i, g.events[i].dur_ns() * (1 - merged / dur));
          }
          small.bucket_ns += dur - merged;
        }
      }
      n = m;
    }
    std::vector<std::pair<std::uint32_t, double>> slowed;  // node, slowdown
    for (std::uint32_t n : cv.nodes) {
      if (in_run[n]) continue;
      const engine_event& e = g.events[n];
      const double want = expected_bw(cv, detail::size_bucket(e.bytes)), bw = e.bandwidth_gbps();
      if (bw < c.opt.slow_dma / 2 * want) slowed.emplace_back(n, want / bw);
    }
    std::vector<double> k;
    for (auto [n, s] : slowed) k.push_back(s);
    const double slowdown = detail::median(std::move(k));
    for (auto [n, s] : slowed) {
      const double f = 1 / slowdown, d = g.events[n].dur_ns();
      slow.f.factor.emplace_back(n, f);
      slow.evidence.emplace_back(n, d * (1 - f));
      slow.bucket_ns += d * (1 - f);
    }
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s plateau %.1f GB/s, knee %llu B",
                  std::string(name(en)).c_str(), cv.plateau, 1ull << (cv.knee ? cv.knee - 1 : 0));
    small.what += (small.what.empty() ? "" : "; ") + std::string(buf);
    if (!slowed.empty()) {
      std::snprintf(buf, sizeof buf, "%s: %zu transfers %.1fx slower than their size's median",
                    std::string(name(en)).c_str(), slowed.size(), slowdown);
      slow.what += (slow.what.empty() ? "" : "; ") + std::string(buf);
    }
  }
  std::vector<candidate> out;
  if (!small.f.empty()) out.push_back(std::move(small));
  if (!slow.f.empty()) out.push_back(std::move(slow));
  return out;
}

}  // namespace tpuprof::algo::advise
