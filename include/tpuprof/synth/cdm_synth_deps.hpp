/// cdm_synth_deps: `--deps` for the SG2260-family generator. After the commands are drawn,
/// each core's TIU and GDMA data commands are interleaved into one issue order; a command
/// waits, with probability 1/2, for the last command of the other engine issued before it (so
/// every dependency points backwards and no engine deadlocks). TIU, GDMA and SDMA are then
/// scheduled in order (dep_schedule.hpp) from the drawn durations, scaled per engine; init
/// records, VSDMA sends and CDMA ports keep their times. Mode 2 writes the dependencies into
/// the register images (TIU bits 17..37, DMA bits 64..84: enable bit 20 + 20-bit id).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <tpuprof/synth/cdm_synth_draw.hpp>
#include <tpuprof/synth/dep_schedule.hpp>
#include <tpuprof/synth/inject.hpp>

namespace tpuprof::synth::detail {

/// --inject serial-dma: whether issue position `at` (share of the core's TIU and GDMA issue
/// order) is in one of the three windows of 15 % at phase `window` (< 0: none). On the issue
/// order, so that the TIU and GDMA commands of a window are issued together.
inline bool in_serial_window(double at, double window) {
  return window >= 0 && std::fmod(at + window, 1.0 / 3) < 0.15;
}

/// --inject: whether `g` (engine `e`) waits for `other_last` although the draw said no:
/// serial-dma windows wait for the other engine's last command, a TIU command for a starved-tiu
/// load issued just before it.
inline bool forced_dep(const core_gen&, const gen_cmd& g, int e, const gen_cmd* other_last) {
  if (g.inj == fault::serial_dma) return true;
  return e == 0 && other_last && other_last->inj == fault::starved_tiu;
}

/// The schedule of one core (issue order and dependencies drawn from `rng`), at `scale`.
/// `buffered`: serial-dma's reference program (cdm_synth_options::inject_reference).
/// `window`: serial-dma's phase (gen_state::serial_window; < 0: none).
inline void schedule_core(core_gen& cg, std::mt19937_64 rng, const dep_options& o, bool keys,
                          bool buffered = false, double window = -1) {
  auto uni = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  std::vector<sched_cmd> prog;
  std::vector<std::pair<int, std::size_t>> at;  // (engine, index) of each program entry
  std::array<std::int64_t, 3> free{};
  std::array<std::size_t, 3> next{};
  for (int e = 0; e < 3; ++e) {
    auto& v = cg.eng[e];
    while (next[e] < v.size() && v[next[e]].dropped) ++next[e];
    free[e] = next[e] > 0 ? v[next[e] - 1].end : cg.anchor;
  }
  std::array<std::int64_t, 3> last{-1, -1, -1};  // program index of each engine's last command
  std::int64_t tiu_before_last = -1;             // program index of the TIU command before
  std::int64_t last_send = -1;                   // program index of the last TIU send_msg
  auto at_cmd = [&](std::int64_t i) -> gen_cmd& {
    const auto& [e, k] = at[static_cast<std::size_t>(i)];
    return cg.eng[e][k];
  };
  std::vector<std::size_t> pieces_before(cg.eng[1].size() + 1, 0);  // --inject small-dma
  for (std::size_t i = 0; i < cg.eng[1].size(); ++i)
    pieces_before[i + 1] = pieces_before[i] + (cg.eng[1][i].piece ? 1 : 0);
  const double issued_total = static_cast<double>(cg.eng[0].size() + cg.eng[1].size());
  std::size_t issued = 0;  // TIU and GDMA commands added so far
  auto add = [&](int e) {
    auto& g = cg.eng[e][next[e]];
    if (e < 2 && !g.sys && !g.dropped &&
        in_serial_window(static_cast<double>(issued) / issued_total, window))
      g.inj = fault::serial_dma;
    if (e < 2) ++issued;
    const bool first = last[e] < 0;
    sched_cmd c{static_cast<engine>(e),
                static_cast<std::uint8_t>(e),
                g.end - g.start,
                first     ? g.start - free[e]
                : g.piece ? 1
                          : uni(1, 30),
                -1,
                0,
                0,
                g.stall};
    const int other = e == 0 ? 1 : 0;
    g.dep_eng = -1;
    const bool can = e < 2 && !g.sys && last[other] >= 0 && !g.piece;
    bool dep = can && uni(0, 1) == 0;
    if (can && !dep) dep = forced_dep(cg, g, e, last[other] >= 0 ? &at_cmd(last[other]) : nullptr);
    if (!dep && g.inj == fault::serial_dma) g.inj = fault::none;  // nothing to wait for yet
    if (dep) {
      c.dep = last[other];
      if (buffered && e == 1 && g.inj == fault::serial_dma) c.dep = tiu_before_last;
    }
    if (c.dep >= 0) {
      if (e == 0) at_cmd(c.dep).waited = at_cmd(c.dep).inj == fault::starved_tiu;
      g.dep_eng = other;
      g.dep_idx = at[static_cast<std::size_t>(c.dep)].second;
    }
    g.sync_idx = -1;
    if (e == 1 && g.sys && g.eu == 4 && last_send >= 0) {  // a sys_wait waits for the send
      c.dep = last_send;
      g.sync_idx = static_cast<std::int64_t>(at[static_cast<std::size_t>(last_send)].second);
    }
    if (e == 0 && g.sys && g.eu == 8) last_send = static_cast<std::int64_t>(prog.size());
    if (e == 0) tiu_before_last = last[0];
    last[e] = static_cast<std::int64_t>(prog.size());
    prog.push_back(c);
    at.emplace_back(e, next[e]++);
  };
  auto left = [&](int e) { return cg.eng[e].size() - next[e]; };
  auto heads = [&](int e) {  // left, small-dma pieces not counted (they follow their head)
    return e != 1 ? left(e) : left(1) - (pieces_before.back() - pieces_before[next[1]]);
  };
  while (heads(0) + heads(1) > 0) {  // TIU and GDMA interleaved evenly
    const auto lt = static_cast<std::int64_t>(heads(0)), lg = static_cast<std::int64_t>(heads(1));
    const int e = uni(1, lt + lg) <= lt ? 0 : 1;
    add(e);
    while (e == 1 && left(1) > 0 && cg.eng[1][next[1]].piece) add(1);
  }
  while (left(2) > 0) add(2);
  schedule(prog, free, o);
  for (std::size_t i = 0; i < prog.size(); ++i) {
    auto& g = cg.eng[at[i].first][at[i].second];
    if (keys) g.seq = prog[i].begin;
    g.start = prog[i].begin;
    g.end = prog[i].end;
  }
}

/// --deps: every core's TIU, GDMA and SDMA commands rescheduled (no-op when off).
inline void schedule_deps(gen_state& gs) {
  if (!gs.o.deps.enabled) return;
  dep_options unscaled = gs.o.deps;
  unscaled.scale = {1.0, 1.0, 1.0, 1.0};
  for (unsigned c = 0; c < gs.ncores; ++c) {
    const std::mt19937_64 rng(gs.o.seed ^ 0x646570735F736368ull ^ (std::uint64_t{c} << 48));
    core_gen keyed = gs.cores[c];
    const bool buffered = gs.o.inject == fault::serial_dma && gs.o.inject_reference;
    const double w = gs.serial_window;
    schedule_core(keyed, rng, unscaled, true, buffered, w);  // the dispatch order, every scale
    auto& cg = gs.cores[c];
    for (int e = 0; e < 3; ++e)
      for (std::size_t i = 0; i < cg.eng[e].size(); ++i) cg.eng[e][i].seq = keyed.eng[e][i].seq;
    schedule_core(cg, rng, gs.o.deps, false, buffered, w);
  }
}

}  // namespace tpuprof::synth::detail
