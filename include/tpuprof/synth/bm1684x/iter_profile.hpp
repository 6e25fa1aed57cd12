/// iter0.profile of a synthetic BM1684X dump: the SUMMARY and command blocks, the TIU and
/// GDMA PMU records on free-running counters near 2^32, and the MCU records.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/synth/bm1684x/options.hpp>
#include <tpuprof/synth/bm1684x/program.hpp>
#include <tpuprof/synth/dump_writer.hpp>

namespace tpuprof::synth::bm1684x_detail {

/// Raw counter values at each engine's first command (independent origins: the clocks are
/// not synchronized) and that command's intended time.
struct counter_origins {
  std::uint32_t tiu, gdma;
  std::uint64_t tiu_t0, gdma_t0;
};

/// Moves the first wrap of an engine's counter into the gap after the record it would fall
/// in (commands of one engine are >= 1 cycle apart); false when [begin, end] has no wrap.
inline bool wrap_in_gap(std::uint32_t& origin, std::uint64_t t0, std::uint64_t begin,
                        std::uint64_t end) {
  const std::uint64_t rb = origin + (begin - t0), re = origin + (end - t0);
  if ((rb >> 32) == (re >> 32)) return false;
  origin = static_cast<std::uint32_t>(0x100000000ull - (end + 1 - t0));
  return true;
}

/// Counter origins near 2^32 (so large runs wrap), unless asked otherwise with no record
/// straddling a wrap.
template <class Rnd>
counter_origins place_origins(const program& p, const bm1684x_options& o, Rnd& rnd) {
  counter_origins c;
  c.tiu = static_cast<std::uint32_t>(0x100000000ull - o.cycles_before_wrap - rnd(0, 1000));
  c.gdma = static_cast<std::uint32_t>(0x100000000ull - o.cycles_before_wrap + rnd(0, 1000));
  c.tiu_t0 = p.tiu.empty() ? 0 : p.tiu.front().begin;
  c.gdma_t0 = p.fw.empty() ? p.gdma.front().begin : p.fw.front().begin;
  if (!o.wrap_inside_record) {
    for (const auto& t : p.tiu)
      if (wrap_in_gap(c.tiu, c.tiu_t0, t.begin, t.end)) break;
    bool moved = false;
    for (const auto& r : p.fw)
      if (!moved) moved = wrap_in_gap(c.gdma, c.gdma_t0, r.begin, r.end);
    for (std::size_t k = 0; k < p.gdma.size() && !moved; ++k)
      moved = wrap_in_gap(c.gdma, c.gdma_t0, p.gdma[k].begin, p.gdma[k].end);
    for (std::size_t k = 0; k < p.tail.size() && !moved; ++k)
      moved = wrap_in_gap(c.gdma, c.gdma_t0, p.tail[k].begin, p.tail[k].end);
  }
  return c;
}

/// SUMMARY (1) and command-buffer (8) blocks.
inline void write_summary_blocks(const program& p, const bm1684x_options& o, byte_sink& it) {
  byte_sink s;
  s.u32(0);
  s.u32(0);
  s.u32(0);
  s.u64(1764051392744510);
  s.u64(1764051392744510 + 1000 + std::max(p.tiu_free, p.gdma_free) / o.tpu_freq_mhz);
  s.u64(0);
  it.block(1, s.data);
  byte_sink c;
  c.u64(0x12425e000);
  c.u64(0);
  c.u64(0x12425c000);
  c.u64(0);
  c.u32(1);
  c.u32(static_cast<std::uint32_t>(p.gdma.size() + 1));
  c.u32(static_cast<std::uint32_t>(p.tiu.size()));
  it.block(8, c.data);
}

/// TIU PMU records (3): 32 bytes each.
inline void write_tiu_pmu(const program& p, const counter_origins& org, byte_sink& it) {
  byte_sink b;
  for (std::size_t k = 0; k < p.tiu.size(); ++k) {
    const auto& c = p.tiu[k];
    b.u32(static_cast<std::uint32_t>(org.tiu + (c.begin - org.tiu_t0)));
    b.u32(static_cast<std::uint32_t>(org.tiu + (c.end - org.tiu_t0)));
    const std::uint64_t load = c.end - c.begin + 1;
    b.u64(((c.bd_id - 1) & 0xFFFFu) | (load << 16));
    b.u32(static_cast<std::uint32_t>(load));
    b.u32(static_cast<std::uint32_t>(load));
    b.u32(static_cast<std::uint32_t>(load));
    b.u32((c.bd_id - 1) & 0xFFFFu);
  }
  it.block(3, b.data);
}

/// GDMA PMU records (4): 192 bytes each, byte counters by direction.
inline void write_gdma_pmu(const program& p, const counter_origins& org, byte_sink& it) {
  byte_sink b;
  auto rec = [&](std::uint64_t begin, std::uint64_t end, std::uint32_t inst, std::uint64_t bytes,
                 direction d) {
    std::uint32_t f[48] = {};
    f[0] = static_cast<std::uint32_t>(org.gdma + (begin - org.gdma_t0));
    f[1] = static_cast<std::uint32_t>(org.gdma + (end - org.gdma_t0));
    f[2] = inst & 0xFFFFFu;
    const auto n = static_cast<std::uint32_t>(bytes);
    if (d == direction::l2s) {
      f[0x2C / 4] = n;  // gif_ar
      f[0x0C / 4] = n;  // d0_aw
      f[0x10 / 4] = n;  // d0_wr
    } else {            // s2l
      f[0x14 / 4] = n;  // d0_ar
      f[0x24 / 4] = n;  // gif_aw
      f[0x28 / 4] = n;  // gif_wr
    }
    b.put(f, sizeof f);
  };
  for (const auto& r : p.fw) rec(r.begin, r.end, 0, r.bytes, direction::s2l);
  for (const auto& c : p.gdma) rec(c.begin, c.end, c.gdma_id - 1, c.bytes, c.dir);
  for (std::size_t k = 0; k < p.tail.size(); ++k)
    rec(p.tail[k].begin, p.tail[k].end, static_cast<std::uint32_t>(k), p.tail[k].bytes,
        direction::s2l);
  it.block(4, b.data);
}

/// MCU records (5): the init record, the firmware NODE_SET and the tail's NODE_SETs.
inline void write_mcu(const program& p, const bm1684x_options& o, byte_sink& it) {
  byte_sink b;
  const std::uint64_t mcu0 = 21382603606345;
  b.u32(0);
  b.u32(0xFFFFFFFFu);
  b.u64(0);
  b.u64(mcu0 - 3743);
  b.u64(40);  // init record: 40 ns per MCU tick
  if (o.firmware_records) {
    b.u32(1);
    b.u32(1);  // NODE_SET, version 1, engine GDMA, func GENERAL, gdma_id 1
    b.u64((std::uint64_t{1} << 60) | (std::uint64_t{3} << 43) | (std::uint64_t{1} << 40) |
          (std::uint64_t{1} << 20));
    b.u64(mcu0);
    b.u64(mcu0 + mon_start / 40);
  }
  for (std::size_t k = 0; k < p.tail.size(); ++k) {  // NODE_SETs: SYS gdma_id 1, GENERAL gdma_id 2
    b.u32(static_cast<std::uint32_t>(2 + k));
    b.u32(1);
    b.u64((std::uint64_t{1} << 60) | (std::uint64_t{k == 0 ? 6u : 3u} << 43) |
          (std::uint64_t{1} << 40) | (std::uint64_t{k + 1} << 20));
    const std::uint64_t t0 = mcu0 + p.tail[k].begin / 40;
    b.u64(t0 - 20);
    b.u64(t0);
  }
  it.block(5, b.data);
}

/// The whole iter0.profile.
inline std::vector<std::byte> iter_profile(const program& p, const bm1684x_options& o,
                                           const counter_origins& org) {
  byte_sink it;
  write_summary_blocks(p, o, it);
  write_tiu_pmu(p, org, it);
  write_gdma_pmu(p, org, it);
  write_mcu(p, o, it);
  return it.data;
}

}  // namespace tpuprof::synth::bm1684x_detail
