/// PMU records of bmprofile dumps: the per-iteration, per-engine record lists, what each
/// record is paired with, and record k to an engine_event (format notes §5.4, §6).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <tpuprof/decode/bmprofile/blocks.hpp>
#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/time.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::bmprofile {

/// Reference from a PMU record to what it was paired with.
inline constexpr std::uint32_t no_pair = 0xFFFFFFFFu;
inline constexpr std::uint32_t dyn_pair_bit = 0x80000000u;

/// Per static node: uArch rate (TIU) and descriptor direction, NaN / none if unknown.
struct node_facts {
  name_id op = 0;
  name_id op_type = 0;
  std::int32_t layer_id = -1;
  float uarch_rate = std::numeric_limits<float>::quiet_NaN();
  direction dir = direction::none;
};

/// MCU record with its times relative to the subnet start (µs).
struct dyn_event {
  dyn_record rec;
  double begin_us = 0;
  double end_us = 0;
};

/// The PMU records of one engine in one iteration, plus everything needed to
/// turn record k into an event without looking at other records.
struct pmu_list {
  engine eng = engine::tiu;
  std::uint8_t core = 0;
  std::uint16_t iteration = 0;
  io::byte_reader bytes;
  std::size_t count = 0;
  std::size_t record_size = 0;
  std::uint32_t first_raw = 0;    ///< raw start of record 0 (rebasing origin)
  double fixed0 = 0;              ///< monitor start in this engine's cycles
  std::int64_t shift = 0;         ///< TIU↔GDMA alignment, cycles
  std::uint64_t base_cycles = 0;  ///< subnet start on the common timeline, cycles
  double freq_mhz = 1000;
  std::vector<std::uint32_t> pair;  ///< per record: static node index, dyn index|bit, or no_pair
  const subnet_info* subnet = nullptr;
  const std::vector<node_info>* nodes = nullptr;
  const std::vector<const regs::instruction*>* node_ins = nullptr;  ///< per static node, or null
  /// What events need from each node's decoded command, packed (the
  /// instructions themselves are large; reading them per event is slow).
  const std::vector<node_facts>* facts = nullptr;
  const std::vector<dyn_event>* dyns = nullptr;  ///< NODE_SETs of this engine
  /// Events made at load time (position-paired chips, indexed_events.hpp); empty otherwise.
  std::vector<engine_event> events;
};

/// (engine, group, cmd_id, begin_cycle) of a statically paired event -> its command.
using command_lookup =
    std::map<std::tuple<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>,
             const regs::instruction*>;

/// The command_lookup key of an event: the engine with the core in its high bits (position-paired
/// chips have several cores with their own command lists), iteration, cmd_id, begin cycle.
inline std::tuple<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t> command_key(
    const engine_event& e) noexcept {
  return {static_cast<std::uint8_t>(static_cast<unsigned>(e.engine) | (e.unit & 0xFu) << 4u),
          e.group, e.cmd_id, e.begin_cycle};
}

/// Interned names of the chip's bd_func / gdma_func tables.
template <bmprofile_chip Chip>
struct func_ids {
  std::array<name_id, Chip::bd_func_names.size()> bd{};
  std::array<name_id, Chip::gdma_func_names.size()> gdma{};

  void intern(name_table& names) {
    for (std::size_t i = 0; i < Chip::bd_func_names.size(); ++i)
      bd[i] = names.intern(Chip::bd_func_names[i]);
    for (std::size_t i = 0; i < Chip::gdma_func_names.size(); ++i)
      gdma[i] = names.intern(Chip::gdma_func_names[i]);
  }
  /// The function name of an MCU NODE_SET id (0 for version-0 ids).
  name_id of_dyn(engine eng, std::uint64_t id) const {
    const auto& L = Chip::node_set;
    if (io::bits(id, L.version_lo, 4) == 0) return 0;
    auto f = static_cast<std::size_t>(io::bits(id, L.func_lo, L.func_width));
    if (eng == engine::tiu) return f < Chip::bd_func_names.size() ? bd[f] : name_id{0};
    return f < Chip::gdma_func_names.size() ? gdma[f] : name_id{0};
  }
};

/// Width of the PMU id field of a list's engine.
template <bmprofile_chip Chip>
constexpr unsigned pmu_id_bits(const pmu_list& l) noexcept {
  return l.eng == engine::tiu ? 16u : Chip::gdma_inst_id_bits;
}

/// The raw command id of the record at `p`.
template <bmprofile_chip Chip>
std::uint32_t pmu_raw_id(const pmu_list& l, const std::byte* p) noexcept {
  const auto w = io::load_le<std::uint32_t>(p + 8);
  return l.eng == engine::tiu ? (w & 0xFFFFu)
                              : static_cast<std::uint32_t>(io::bits(w, 0, Chip::gdma_inst_id_bits));
}

/// Applies record k of `l` to the rebasing state (st.k must be k).
template <bmprofile_chip Chip>
void pmu_arrive(const pmu_list& l, rebase_state& st) noexcept {
  if (!l.events.empty()) return;
  const std::byte* p = l.bytes.bytes().data() + st.k * l.record_size;
  st.template arrive<Chip::id_width>(io::load_le<std::uint32_t>(p),
                                     io::load_le<std::uint32_t>(p + 4), pmu_raw_id<Chip>(l, p),
                                     pmu_id_bits<Chip>(l));
}

/// Direction from the PMU byte counters (§5.4): reads on DDR or local
/// memory give the source, writes the destination; no reads = constant fill.
inline direction pmu_dma_direction(const std::byte* p) noexcept {
  const auto u = [p](std::size_t o) { return io::load_le<std::uint32_t>(p + o); };
  const bool from_ddr = (std::uint64_t{u(0x14)} + u(0x20)) != 0;
  const bool from_lmem = !from_ddr && u(0x2C) != 0;
  const bool to_ddr = (std::uint64_t{u(0x0C)} + u(0x18)) != 0;
  const bool to_lmem = !to_ddr && u(0x24) != 0;
  if (from_ddr) return to_ddr ? direction::s2s : to_lmem ? direction::s2l : direction::unknown;
  if (from_lmem) return to_ddr ? direction::l2s : to_lmem ? direction::l2l : direction::unknown;
  return to_ddr ? direction::c2s : to_lmem ? direction::c2l : direction::unknown;
}

/// What a record's pairing adds to its event: op names, layer and rate of a static node, or
/// the function of an MCU record.
template <bmprofile_chip Chip>
void apply_pair(const pmu_list& l, std::uint32_t pr, const func_ids<Chip>& fids, engine_event& e) {
  e.set_flag(engine_event::flag_matched);
  if ((pr & dyn_pair_bit) == 0) {
    if (l.facts && pr < l.facts->size()) {
      const auto& f = (*l.facts)[pr];
      e.op = f.op;
      e.op_type = f.op_type;
      e.layer_id = f.layer_id;
      e.uarch_rate = f.uarch_rate;
      // the PMU counters say what moved; the descriptor fills in when they cannot
      if ((e.dir() == direction::none || e.dir() == direction::unknown) &&
          f.dir != direction::none && f.dir != direction::unknown)
        e.set_dir(f.dir);
    }
  } else {
    const auto& d = (*l.dyns)[pr & ~dyn_pair_bit].rec;
    e.op_type = fids.of_dyn(l.eng, d.id);
  }
}

/// The event of record st.k of list `l`, after pmu_arrive for records 0..k.
template <bmprofile_chip Chip>
engine_event make_pmu_event(const pmu_list& l, const rebase_state& st, const func_ids<Chip>& fids) {
  if (!l.events.empty()) return l.events[st.k];
  const std::byte* p = l.bytes.bytes().data() + st.k * l.record_size;
  const auto raw_s = io::load_le<std::uint32_t>(p);
  auto raw_e = io::load_le<std::uint32_t>(p + 4);
  engine_event e;
  e.engine = l.eng;
  e.unit = l.core;
  e.group = l.iteration;
  // an end that wrapped while its start did not: +2^32 (the vendor leaves it)
  const std::int64_t s = sat_add(st.rebase(raw_s, l.first_raw), l.shift);
  const std::int64_t en = sat_add(
      raw_e < raw_s
          ? to_i64(static_cast<double>(std::int64_t{raw_e} + 4294967296 - l.first_raw) + st.fixed)
          : st.rebase(raw_e, l.first_raw),
      l.shift);
  e.begin_cycle = l.base_cycles + static_cast<std::uint64_t>(std::max<std::int64_t>(s, 0));
  e.end_cycle = l.base_cycles + static_cast<std::uint64_t>(std::max<std::int64_t>(en, 0));
  e.begin_ns = static_cast<double>(e.begin_cycle) * 1000.0 / l.freq_mhz;
  e.end_ns = static_cast<double>(e.end_cycle) * 1000.0 / l.freq_mhz;
  std::uint32_t raw_id;
  if (l.eng == engine::tiu) {
    raw_id = io::load_le<std::uint32_t>(p + 8) & 0xFFFFu;
  } else {
    raw_id = static_cast<std::uint32_t>(
        io::bits(io::load_le<std::uint32_t>(p + 8), 0, Chip::gdma_inst_id_bits));
    const auto d0_wr = io::load_le<std::uint32_t>(p + 0x10);
    const auto d1_wr = io::load_le<std::uint32_t>(p + 0x1C);
    const auto gif_wr = io::load_le<std::uint32_t>(p + 0x28);
    e.bytes = std::uint64_t{d0_wr} + d1_wr + gif_wr;
    e.set_flag(engine_event::flag_has_bytes);
    if (d0_wr == 0xFFFFFFFFu || d1_wr == 0xFFFFFFFFu || gif_wr == 0xFFFFFFFFu)
      e.set_flag(engine_event::flag_invalid);
    e.set_dir(pmu_dma_direction(p));
  }
  e.cmd_id = static_cast<std::uint32_t>(raw_id + st.id_delta);
  const std::uint32_t pr = l.pair[st.k];
  if (pr != no_pair) apply_pair<Chip>(l, pr, fids, e);
  if (raw_s == 0xFFFFFFFFu || raw_e == 0xFFFFFFFFu) e.set_flag(engine_event::flag_invalid);
  return e;
}

/// Calls f(k, event) for every record of `l` in order (the eager form of the event view).
template <bmprofile_chip Chip, class F>
void for_each_pmu_event(const pmu_list& l, const func_ids<Chip>& fids, F&& f) {
  rebase_state st;
  st.fixed = l.fixed0;
  for (std::size_t k = 0; k < l.count; ++k) {
    st.k = k;
    pmu_arrive<Chip>(l, st);
    f(k, make_pmu_event<Chip>(l, st, fids));
  }
}

/// The PMU list of one engine of iteration `it` (core 0 = the first block), without its
/// pairing; nullopt when the iteration has no block for the engine.
inline std::optional<pmu_list> make_pmu_list(engine eng, std::size_t it,
                                             const std::vector<io::byte_reader>& blocks,
                                             std::size_t rsize, double period,
                                             double monitor_start_us, double base_us,
                                             const std::string& file, decode_diagnostics& diag) {
  if (blocks.empty()) return std::nullopt;
  if (blocks.size() > 1)
    diag.add(diag::other, file, blocks[1].base(),
             std::to_string(blocks.size()) + " " + std::string(name(eng)) +
                 " monitor blocks: decoded as cores 0.." + std::to_string(blocks.size() - 1) +
                 "; only core 0 is used");
  pmu_list l;
  l.eng = eng;
  l.iteration = static_cast<std::uint16_t>(it);
  l.bytes = blocks[0];
  l.record_size = rsize;
  l.count = blocks[0].size() / rsize;
  if (blocks[0].size() % rsize)
    diag.add(diag::truncated_tail, file, blocks[0].base() + l.count * rsize,
             "partial " + std::string(name(eng)) + " PMU record ignored");
  l.freq_mhz = 1.0 / period;
  l.fixed0 = monitor_start_us / period;
  if (!(std::fabs(l.fixed0) < 1e15)) {
    diag.add(diag::other, file, decode_error::no_offset,
             "implausible MCU monitor start time ignored");
    l.fixed0 = 0;
  }
  l.first_raw = l.count ? io::load_le<std::uint32_t>(blocks[0].bytes().data()) : 0;
  l.base_cycles = static_cast<std::uint64_t>(
      std::max<std::int64_t>(0, to_i64(std::round(base_us * l.freq_mhz))));
  return l;
}

}  // namespace tpuprof::bmprofile
