/// algo::advise rules on single commands: `lane-underuse` (conv / matmul whose
/// lane dimension is not a multiple of the NPU lanes: lanes idle in the last pass),
/// `low-uarch` (other ops likewise), `bank-conflict` (a TIU command reads and
/// writes the same local-memory bank), `over-estimate` (layers slower than the
/// compiler's estimate).
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
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

inline bool is_conv_op(std::string_view op) {
  std::string s(op);
  for (char& ch : s) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  return s.find("conv") != std::string::npos;
}

}  // namespace detail

/// Whether uArch rate `r` is c / align_up(c, lanes) for a channel count c that
/// is not a multiple of the lanes (the lanes past c idle in the last pass).
inline bool lanes_explain(double r, unsigned lanes) {
  if (lanes == 0 || !(r > 0) || !(r < 1)) return false;
  for (unsigned m = 1; m <= 8; ++m) {
    const double ch = r * lanes * m;
    const double k = std::round(ch);
    if (std::abs(ch - k) < 1e-3 && k > lanes * (m - 1) && k < lanes * m) return true;
  }
  return false;
}

/// The share of the lanes a cube command keeps busy: its result's lane dimension
/// d (output channels, matrix rows) over align_up(d, lanes), times its input's
/// on chips whose convs pad the input channels to the lanes too. The other
/// losses in the uArch rate (execution-unit and cube alignment of the other
/// dimensions) are not the lanes'. nullopt when the operands do not say.
inline std::optional<double> lane_fill(std::span<const regs::mem_operand> ops, unsigned lanes,
                                       bool input_lanes) {
  if (lanes == 0) return std::nullopt;
  double fill = 1;
  bool out = false, in = !input_lanes;
  for (const regs::mem_operand& o : ops) {
    if (o.kind != regs::mem_kind::local || o.index != 0 || o.lane_dim == 0) continue;
    if (o.write ? out : in) continue;
    (o.write ? out : in) = true;
    const double d = o.lane_dim;
    fill *= d / static_cast<double>((o.lane_dim + lanes - 1) / lanes * lanes);
  }
  if (!out) return std::nullopt;
  return fill;
}

/// `lane-underuse`: conv / matmul commands whose lanes idle (lane_fill < 1, or,
/// without operands, a uArch rate the lane count explains); fixed, they take
/// duration x fill (all lanes used; the other alignment losses stay).
/// `low-uarch`: other TIU commands below low_uarch x the median rate of their
/// op; fixed, at the median rate.
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
    const bool cube = c.names && e.op != 0 && detail::is_cube_op((*c.names)[e.op]);
    std::optional<double> fill;
    if (cube && c.operands) {
      const bool conv = detail::is_conv_op((*c.names)[e.op]);
      fill = lane_fill(c.operands(n), c.ceilings.lanes, conv && c.ceilings.conv_input_lanes);
    }
    if (cube && !fill && lanes_explain(e.uarch_rate, c.ceilings.lanes)) fill = e.uarch_rate;
    double f = 1;
    candidate* k = nullptr;
    if (fill && *fill < 1) {
      f = *fill;
      k = &lanes;
    } else if (e.uarch_rate < c.opt.low_uarch * typical[e.op]) {
      f = e.uarch_rate / typical[e.op];
      k = &low;
    } else {
      continue;
    }
    k->f.factor.emplace_back(n, f);
    k->evidence.emplace_back(n, e.dur_ns() * (1 - f));
    k->bucket_ns += e.dur_ns() * (1 - f);
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
