/// The events a correct decoder must yield for a synthetic BM1684X dump. Rebasing follows
/// the vendor's double arithmetic literally: fixed = monitor_start_us / period (+ 2^32 per
/// wrap, added one at a time), cycle = trunc(double(raw - first) + fixed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/synth/bm1684x/iter_profile.hpp>
#include <tpuprof/synth/bm1684x/options.hpp>
#include <tpuprof/synth/bm1684x/program.hpp>

namespace tpuprof::synth::bm1684x_detail {

/// Interns into a plain vector of names ([0] = "").
struct name_list {
  std::vector<std::string>& names;
  name_id operator()(const std::string& s) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == s) return static_cast<name_id>(i);
    names.push_back(s);
    return static_cast<name_id>(names.size() - 1);
  }
};

/// Cycle of a raw counter value `origin + rel` of a record that started at `start_rel`.
struct expected_clock {
  double fixed0;
  std::int64_t rebase(std::uint32_t origin, std::uint64_t rel, std::uint64_t start_rel) const {
    const std::uint64_t raw = std::uint64_t{origin} + rel;
    const std::uint64_t wraps = (std::uint64_t{origin} + start_rel) >> 32;
    double fixed = fixed0;
    for (std::uint64_t w = 0; w < wraps; ++w) fixed += 4294967296.0;
    const auto ip =
        static_cast<std::int64_t>(raw - (wraps << 32)) - static_cast<std::int64_t>(origin);
    return static_cast<std::int64_t>(static_cast<double>(ip) + fixed);
  }
};

/// Expected GDMA events: firmware records, the static stream, the firmware tail.
inline std::vector<engine_event> expected_gdma(const program& p, const counter_origins& org,
                                               const expected_clock& clk, const name_list& intern) {
  const name_id tensor = intern("dma.tensor"), tensor_t = intern("TENSOR"),
                general_t = intern("GENERAL");
  std::vector<engine_event> out;
  auto add = [&](std::uint64_t b, std::uint64_t e, std::uint32_t id, std::uint64_t bytes,
                 direction d, name_id op, name_id type, std::int32_t layer) {
    engine_event ev;
    ev.engine = engine::gdma;
    ev.begin_cycle =
        static_cast<std::uint64_t>(clk.rebase(org.gdma, b - org.gdma_t0, b - org.gdma_t0));
    ev.end_cycle =
        static_cast<std::uint64_t>(clk.rebase(org.gdma, e - org.gdma_t0, b - org.gdma_t0));
    ev.cmd_id = id;
    ev.bytes = bytes;
    ev.set_flag(engine_event::flag_has_bytes);
    ev.set_flag(engine_event::flag_matched);
    ev.set_dir(d);
    ev.op = op;
    ev.op_type = type;
    ev.layer_id = layer;
    out.push_back(ev);
  };
  for (const auto& r : p.fw) add(r.begin, r.end, 0, r.bytes, direction::s2l, 0, general_t, -1);
  for (const auto& c : p.gdma)
    add(c.begin, c.end, c.gdma_id - 1, c.bytes, c.dir, tensor, tensor_t, c.layer_id);
  for (std::size_t k = 0; k < p.tail.size(); ++k)
    add(p.tail[k].begin, p.tail[k].end, static_cast<std::uint32_t>(k), p.tail[k].bytes,
        direction::s2l, 0, k == 0 ? intern("SYS") : general_t, -1);
  return out;
}

/// Expected TIU events, shifted so that the first TIU command waiting on a GDMA command
/// (bd_id = g.bd_id + 1, gdma_id = g.gdma_id) starts when that GDMA ends.
inline std::vector<engine_event> expected_tiu(const program& p, const counter_origins& org,
                                              const expected_clock& clk, double period,
                                              const std::vector<engine_event>& gdma_ev,
                                              const name_list& intern) {
  std::int64_t shift = 0;
  for (std::size_t k = 0; k < p.gdma.size() && shift == 0; ++k)
    for (const auto& b : p.tiu)
      if (b.bd_id == p.gdma[k].bd_id + 1 && b.gdma_id == p.gdma[k].gdma_id) {
        const auto t = static_cast<std::int64_t>(
            static_cast<double>(gdma_ev[p.fw.size() + k].end_cycle) * period / period);
        shift = t - clk.rebase(org.tiu, b.begin - org.tiu_t0, b.begin - org.tiu_t0);
        break;
      }
  std::vector<engine_event> out;
  for (const auto& c : p.tiu) {
    engine_event ev;
    ev.engine = engine::tiu;
    ev.begin_cycle = static_cast<std::uint64_t>(
        clk.rebase(org.tiu, c.begin - org.tiu_t0, c.begin - org.tiu_t0) + shift);
    ev.end_cycle = static_cast<std::uint64_t>(
        clk.rebase(org.tiu, c.end - org.tiu_t0, c.begin - org.tiu_t0) + shift);
    ev.cmd_id = c.bd_id - 1;
    ev.set_flag(engine_event::flag_matched);
    ev.op = intern(c.kind->op);
    ev.op_type = intern(c.kind->type);
    ev.layer_id = c.layer_id;
    ev.uarch_rate = c.rate;
    out.push_back(ev);
  }
  return out;
}

/// Every expected hardware event, TIU then GDMA, with ns times.
inline std::vector<engine_event> expected_events(const program& p, const bm1684x_options& o,
                                                 const counter_origins& org,
                                                 std::vector<std::string>& names) {
  const double period = 1.0 / o.tpu_freq_mhz;
  const double mon_us =
      static_cast<double>(static_cast<std::int64_t>(mon_start / 40) * 40) / 1000.0;
  const expected_clock clk{o.firmware_records ? mon_us / period : 0.0};
  const name_list intern{names};
  const auto gdma_ev = expected_gdma(p, org, clk, intern);
  const auto tiu_ev = expected_tiu(p, org, clk, period, gdma_ev, intern);
  std::vector<engine_event> out;
  for (const auto* v : {&tiu_ev, &gdma_ev})
    for (auto ev : *v) {
      ev.begin_ns = static_cast<double>(ev.begin_cycle) * 1000.0 / o.tpu_freq_mhz;
      ev.end_ns = static_cast<double>(ev.end_cycle) * 1000.0 / o.tpu_freq_mhz;
      out.push_back(ev);
    }
  return out;
}

}  // namespace tpuprof::synth::bm1684x_detail
