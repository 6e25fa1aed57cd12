/// iter0.profile of a synthetic position-paired dump: the SUMMARY block, one COMMAND block per
/// core, then per core its TIU and GDMA PMU records. The counters count one ns time base (plus
/// a per-core skew) in each engine's clock, 32 bits wide.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <tpuprof/synth/dump_writer.hpp>
#include <tpuprof/synth/indexed/layout.hpp>
#include <tpuprof/synth/indexed/options.hpp>
#include <tpuprof/synth/indexed/program.hpp>

namespace tpuprof::synth::indexed_detail {

/// The counters: raw(engine, core, t) is what a counter without wraps would read at intended
/// time t (ns); the record holds its low 32 bits.
struct counters {
  std::uint64_t epoch = 0;          ///< ns of the time base at t = 0
  std::vector<std::uint64_t> skew;  ///< per core, ns (core 0: 0)
  std::uint64_t mhz[2] = {0, 0};    ///< TIU, GDMA
  std::uint64_t raw(int e, unsigned c, std::uint64_t t) const {
    return (epoch + skew[c] + t) * mhz[e] / 1000;
  }
};

/// Per-core skews, and an epoch that puts the first wrap of the asked counter a third into the
/// run (none: a few hundred microseconds, as the real captures).
template <class Chip, class Rnd>
counters place_counters(const program& p, const indexed_options& o, Rnd& rnd) {
  counters k;
  k.mhz[0] = static_cast<std::uint64_t>(Chip::tiu_freq_mhz);
  k.mhz[1] = static_cast<std::uint64_t>(Chip::dma_freq_mhz);
  k.skew.push_back(0);
  for (unsigned c = 1; c < o.cores; ++c) k.skew.push_back(rnd(1000, 50000));
  if (o.cycle_wrap == 0) {
    k.epoch = rnd(100000, 300000);
  } else {
    const std::uint64_t f = k.mhz[o.cycle_wrap == 1 ? 0 : 1];
    const std::uint64_t wrap_ns = ((std::uint64_t{1} << 32) * 1000 + f - 1) / f;
    k.epoch = wrap_ns - p.end_ns / 3;
  }
  return k;
}

inline std::string cmd_file(std::uint64_t base, unsigned core, int eng) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "cmd_%llx_%u_%d.dat", static_cast<unsigned long long>(base), core,
                eng);
  return buf;
}

/// The whole iter0.profile.
template <class Chip>
std::vector<std::byte> iter_profile(const program& p, const counters& k) {
  using L = indexed_layout<Chip>;
  byte_sink it;
  byte_sink s;  // SUMMARY: subnet 0, begin / end in us
  s.u32(0);
  s.u32(0);
  s.u32(0);
  s.u64(1764052996410254);
  s.u64(1764052996410254 + 1000 + p.end_ns / 1000);
  s.u64(0);
  it.block(1, s.data);
  for (unsigned c = 0; c < p.cores.size(); ++c) {
    byte_sink b;
    b.u64(L::gdma_base + c * 0x100000ull);
    b.u64(0);
    b.u64(L::bd_base + c * 0x100000ull);
    b.u64(0);
    b.u32(1);
    b.u32(static_cast<std::uint32_t>(p.cores[c].gdma.size()));
    b.u32(static_cast<std::uint32_t>(p.cores[c].tiu.size()));
    it.block(8, b.data);
  }
  const auto u32 = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
  for (unsigned c = 0; c < p.cores.size(); ++c) {
    const auto& core = p.cores[c];
    byte_sink t;
    for (std::size_t i = 0; i < core.tiu.size(); ++i)
      L::tiu_record(t, u32(i), u32(k.raw(0, c, core.tiu[i].begin)),
                    u32(k.raw(0, c, core.tiu[i].end)));
    it.block(3, t.data);
    byte_sink g;
    const auto fw = [&](const std::vector<fw_rec>& v) {
      for (std::size_t i = 0; i < v.size(); ++i)
        L::gdma_record(g, u32(i), u32(k.raw(1, c, v[i].begin)), u32(k.raw(1, c, v[i].end)),
                       v[i].bytes, direction::s2s);
    };
    fw(core.fw_before);
    for (std::size_t i = 0; i + 1 < core.gdma.size(); ++i)  // the chain end has no record
      L::gdma_record(g, u32(i), u32(k.raw(1, c, core.gdma[i].begin)),
                     u32(k.raw(1, c, core.gdma[i].end)), core.gdma[i].bytes, core.gdma[i].dir);
    fw(core.fw_after);
    it.block(4, g.data);
  }
  return it.data;
}

}  // namespace tpuprof::synth::indexed_detail
