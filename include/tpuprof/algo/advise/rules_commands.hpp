/// algo::advise rules on single commands: `lane-underuse` (conv / matmul whose
/// uArch rate is far below its op's median: channels that leave NPU lanes idle),
/// `low-uarch` (other ops likewise), `bank-conflict` (a TIU command reads and
/// writes the same local-memory bank), `small-dma` (transfers whose bandwidth
/// collapses below the capture's own plateau), `over-estimate` (layers slower
/// than the compiler's estimate).
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/algo/advise/context.hpp>

namespace tpuprof::algo::advise {

namespace detail {

/// Conv / matmul-class ops (the cube): their lanes are the input channels.
inline bool is_cube_op(std::string_view op) {
  std::string s(op);
  for (char& ch : s) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  return s.find("conv") != std::string::npos || s.find("mm") != std::string::npos ||
         s.find("matmul") != std::string::npos;
}

}  // namespace detail

/// `lane-underuse` and `low-uarch`: TIU commands whose uArch rate is below
/// low_uarch x the median rate of their op; fixed, they run at the median rate.
inline std::vector<candidate> uarch_rules(const context& c) {
  const dependency_graph& g = *c.g;
  std::map<name_id, std::vector<double>> rates;
  for (const engine_event& e : g.events)
    if (e.engine == engine::tiu && std::isfinite(e.uarch_rate) && e.uarch_rate > 0)
      rates[e.op].push_back(e.uarch_rate);
  std::map<name_id, double> typical;
  for (auto& [op, v] : rates) typical[op] = detail::median(std::move(v));
  candidate lanes{"lane-underuse"}, low{"low-uarch"};
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    const engine_event& e = g.events[n];
    if (e.engine != engine::tiu || !std::isfinite(e.uarch_rate) || !(e.uarch_rate > 0)) continue;
    const double t = typical[e.op];
    if (!(e.uarch_rate < c.opt.low_uarch * t)) continue;
    const double f = e.uarch_rate / t;
    const bool cube = c.names && e.op != 0 && detail::is_cube_op((*c.names)[e.op]);
    candidate& k = cube ? lanes : low;
    k.f.factor.emplace_back(n, f);
    k.evidence.emplace_back(n, e.dur_ns() * (1 - f));
    k.bucket_ns += e.dur_ns() * (1 - f);
  }
  if (c.ceilings.lanes) lanes.what = std::to_string(c.ceilings.lanes) + " NPU lanes";
  std::vector<candidate> out;
  if (!lanes.f.empty()) out.push_back(std::move(lanes));
  if (!low.f.empty()) out.push_back(std::move(low));
  return out;
}

/// `bank-conflict`: a TIU command with an input and its output in the same
/// local-memory bank; fixed, it takes bank_conflict_factor of its time.
inline std::vector<candidate> bank_conflict_rule(const context& c) {
  const dependency_graph& g = *c.g;
  const unsigned bank = c.ceilings.bank_bytes();
  if (!c.operands || bank == 0) return {};
  candidate k{"bank-conflict"};
  const double f = c.opt.bank_conflict_factor;
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    if (g.events[n].engine != engine::tiu) continue;
    const auto ops = c.operands(n);
    std::uint32_t read_banks = 0, write_banks = 0;  // bit per bank (first 32)
    for (const regs::mem_operand& o : ops) {
      if (o.kind != regs::mem_kind::local || o.size == 0) continue;
      const std::uint64_t b = o.address / bank;
      if (b >= 32) continue;
      (o.write ? write_banks : read_banks) |= std::uint32_t{1} << b;
    }
    if (!(read_banks & write_banks)) continue;
    const double d = g.events[n].dur_ns();
    k.f.factor.emplace_back(n, f);
    k.evidence.emplace_back(n, d * (1 - f));
    k.bucket_ns += d * (1 - f);
  }
  k.what = std::to_string(bank / 1024) + " KiB banks";
  std::vector<candidate> out;
  if (!k.f.empty()) out.push_back(std::move(k));
  return out;
}

/// `small-dma`: per DMA engine, the plateau is the median bandwidth of the
/// largest tenth of the transfers (by bytes); transfers smaller than the
/// median size of that tenth and slower than slow_dma x plateau are fixed to
/// run at the plateau (merged into larger ones).
inline std::vector<candidate> small_dma_rule(const context& c) {
  const dependency_graph& g = *c.g;
  candidate k{"small-dma"};
  for (engine en : {engine::gdma, engine::sdma, engine::cdma}) {
    std::vector<std::uint32_t> v;
    for (std::uint32_t n = 0; n < g.size(); ++n) {
      const engine_event& e = g.events[n];
      if (e.engine == en && e.has_bytes() && e.bytes > 0 && e.dur_ns() > 0) v.push_back(n);
    }
    if (v.size() < 20) continue;
    std::sort(v.begin(), v.end(), [&](std::uint32_t a, std::uint32_t b) {
      return g.events[a].bytes > g.events[b].bytes;
    });
    const std::size_t top = std::max<std::size_t>(v.size() / 10, 1);
    std::vector<double> bw, sz;
    for (std::size_t i = 0; i < top; ++i) {
      bw.push_back(g.events[v[i]].bandwidth_gbps());
      sz.push_back(static_cast<double>(g.events[v[i]].bytes));
    }
    const double plateau = detail::median(bw), knee = detail::median(sz);
    if (!(plateau > 0)) continue;
    for (std::size_t i = top; i < v.size(); ++i) {
      const engine_event& e = g.events[v[i]];
      if (!(static_cast<double>(e.bytes) < knee) ||
          !(e.bandwidth_gbps() < c.opt.slow_dma * plateau))
        continue;
      const double ideal = static_cast<double>(e.bytes) / plateau;
      k.f.factor.emplace_back(v[i], ideal / e.dur_ns());
      k.evidence.emplace_back(v[i], e.dur_ns() - ideal);
      k.bucket_ns += e.dur_ns() - ideal;
    }
    char b[96];
    std::snprintf(b, sizeof b, "%s plateau %.1f GB/s above %.0f KiB", std::string(name(en)).c_str(),
                  plateau, knee / 1024);
    k.what += (k.what.empty() ? "" : "; ") + std::string(b);
  }
  std::vector<candidate> out;
  if (!k.f.empty()) out.push_back(std::move(k));
  return out;
}

/// `over-estimate`: layers whose busy time (TIU + DMA) is above over_estimate x
/// the compiler's estimate; fixed, they take the estimate.
inline std::vector<candidate> over_estimate_rule(const context& c) {
  if (c.estimate_ns.empty()) return {};
  const dependency_graph& g = *c.g;
  std::map<std::int32_t, double> busy;
  for (const engine_event& e : g.events)
    if (e.layer_id >= 0) busy[e.layer_id] += e.dur_ns();
  candidate k{"over-estimate"};
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    const engine_event& e = g.events[n];
    auto est = c.estimate_ns.find(e.layer_id);
    if (e.layer_id < 0 || est == c.estimate_ns.end() || !(est->second > 0)) continue;
    const double b = busy[e.layer_id];
    if (!(b > c.opt.over_estimate * est->second)) continue;
    const double f = est->second / b;
    k.f.factor.emplace_back(n, f);
    k.evidence.emplace_back(n, e.dur_ns() * (1 - f));
    k.bucket_ns += e.dur_ns() * (1 - f);
  }
  std::vector<candidate> out;
  if (!k.f.empty()) out.push_back(std::move(k));
  return out;
}

}  // namespace tpuprof::algo::advise
