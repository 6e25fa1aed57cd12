/// `synth --inject RULE` for the SG2260-family generator (mode 2, --deps): which commands
/// carry the fault and how their durations change, drawn from the fault's own random stream
/// (a clean dump draws nothing from it and is unchanged). The dependency program
/// (cdm_synth_deps.hpp) forces the fault's dependencies and stalls; the register images
/// (cdm_tiu_images.hpp) carry its channels and addresses. docs/analysis.md, "Fault injection".
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <tpuprof/decode/cdm/format.hpp>
#include <tpuprof/synth/bit_writer.hpp>
#include <tpuprof/synth/cdm_synth_draw.hpp>
#include <tpuprof/synth/inject.hpp>

namespace tpuprof::synth::detail {

/// small-dma: GDMA data commands of <= 32 KiB, one in two, become pieces of <= 256 bytes of
/// small_dma_cycles each (the first keeps the command's place; the rest follow it). Before
/// the PMU ids are given.
inline void inject_split(gen_state& gs, std::mt19937_64& rng) {
  namespace P = inject_params;
  for (auto& cg : gs.cores) {
    std::vector<gen_cmd> out;
    for (const auto& g : cg.eng[1]) {
      const bool small =
          !g.sys && !g.dropped && g.bytes <= P::small_dma_bytes * P::small_dma_pieces;
      if (!small || rng() % 2 != 0) {
        out.push_back(g);
        continue;
      }
      std::int64_t t = g.start;
      for (std::uint64_t done = 0; done < g.bytes; done += P::small_dma_bytes) {
        gen_cmd p = g;
        p.bytes = std::min(P::small_dma_bytes, g.bytes - done);
        p.start = t;
        p.end = t + P::small_dma_cycles;
        p.piece = done > 0;
        p.inj = fault::small_dma;
        t = p.end + 1;
        out.push_back(p);
      }
    }
    cg.eng[1] = std::move(out);
  }
}

/// Whether a data command (not sys, not dropped) can carry a fault.
inline bool data_cmd(const gen_cmd& g) noexcept {
  return !g.sys && !g.dropped;
}

/// Duration of `g` times `f` (at least 1 cycle).
inline void stretch(gen_cmd& g, double f) {
  g.end =
      g.start + std::max<std::int64_t>(1, std::llround(static_cast<double>(g.end - g.start) * f));
}

/// Every fault but small-dma: marks the commands, changes their durations (after the PMU ids,
/// before the dependency schedule).
inline void inject_mark(gen_state& gs, std::mt19937_64& rng) {
  namespace P = inject_params;
  const fault f = gs.o.inject;
  auto one_in = [&](unsigned n) { return rng() % n == 0; };
  const unsigned heavy = static_cast<unsigned>(rng() % gs.ncores);
  // serial-dma: the phase of three windows of 15 % of each core's TIU and GDMA issue order
  const double window = static_cast<double>(rng() % 1000) / 1000.0 * 0.2;
  if (f == fault::serial_dma) gs.serial_window = window;  // marked by cdm_synth_deps.hpp
  for (unsigned c = 0; c < gs.ncores; ++c) {
    auto& cg = gs.cores[c];
    for (int e = 0; e < 3; ++e) {
      auto& v = cg.eng[e];
      for (std::size_t i = 0; i < v.size(); ++i) {
        auto& g = v[i];
        if (!data_cmd(g)) continue;
        switch (f) {
          case fault::starved_tiu:
            if (e == 1 && one_in(32)) {
              g.inj = f;
              stretch(g, static_cast<double>(P::slow_dma_factor));
            }
            break;
          case fault::lane_underuse:
            if (e == 0 && (g.tsk == 0 || g.tsk == 2) && (g.tsk != 0 || g.eu == 0) &&
                (g.tsk != 2 || g.eu == 4 || g.eu == 5)) {
              g.inj = f;
              g.lane_c = 64 * (rng() % 2) + 16 + rng() % 33;
              stretch(g, static_cast<double>(synth::align_up(g.lane_c, std::uint64_t{P::lanes})) /
                             static_cast<double>(g.lane_c));
            }
            break;
          case fault::bank_conflict:
            if (e == 0 && cdm_images::has_shapes(g.tsk, g.eu) && one_in(3)) {
              g.inj = f;
              stretch(g, static_cast<double>(P::bank_conflict_factor));
            }
            break;
          case fault::core_imbalance:  // the same total work, a share moved to one core
            g.inj = c == heavy ? f : fault::none;
            stretch(g, c == heavy ? 1 + P::imbalance_share
                                  : 1 - P::imbalance_share / std::max(1u, gs.ncores - 1));
            break;
          case fault::dispatch:
            if (e < 2 && one_in(128)) {
              g.inj = f;
              g.stall = static_cast<std::int64_t>(20000 + rng() % 30001);
            }
            break;
          default:
            break;
        }
      }
    }
  }
}

/// The touched commands (decoded cmd_id: PMU id + 1), after the schedule.
inline inject_record inject_collect(const gen_state& gs) {
  inject_record r;
  for (unsigned c = 0; c < gs.ncores; ++c)
    for (int e = 0; e < 3; ++e)
      for (const auto& g : gs.cores[c].eng[e]) {
        if (g.inj == fault::none || (g.inj == fault::starved_tiu && !g.waited)) continue;
        if (g.inj == fault::core_imbalance) continue;
        r.commands.push_back({static_cast<std::uint8_t>(c), static_cast<engine>(e),
                              static_cast<std::uint32_t>(g.id + 1)});
      }
  if (gs.o.inject == fault::core_imbalance)
    for (unsigned c = 0; c < gs.ncores; ++c)
      for (const auto& g : gs.cores[c].eng[0])
        if (g.inj == fault::core_imbalance) {
          r.cores.push_back(c);
          break;
        }
  return r;
}

}  // namespace tpuprof::synth::detail
