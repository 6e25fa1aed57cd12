/// bmprofile_decoder<Chip>: bmprofile_data-N dumps (BM1684X family) to lazy
/// ranges of engine events, reproducing tpu-mlir's time mode (format-bm1684x.md
/// §6) except for the documented fixes in docs/chips/bm1684x.md.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <range/v3/view/facade.hpp>

#include <tpuprof/decode/bmprofile/blocks.hpp>
#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/commands.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/net_stat.hpp>
#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof {

/// Overrides for what the dump says (or lacks).
struct decode_options {
  std::optional<double> tiu_freq_mhz;  ///< replaces tpu_freq / the chip default for TIU
  std::optional<double> dma_freq_mhz;  ///< likewise for DMA engines
};

namespace bmprofile {

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
};

/// trunc toward zero like Python's int(), saturating instead of UB on absurd values.
inline std::int64_t to_i64(double v) noexcept {
  if (!(v == v)) return 0;
  if (v >= 9.0e18) return std::int64_t{9'000'000'000'000'000'000};
  if (v <= -9.0e18) return -std::int64_t{9'000'000'000'000'000'000};
  return static_cast<std::int64_t>(v);
}

inline std::int64_t sat_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

/// (a - b) * ns / 1000 as the vendor computes it (integer product, one
/// division), falling back to doubles where the product would overflow.
inline double mcu_us(std::uint64_t a, std::uint64_t b, std::uint64_t ns) noexcept {
  const auto d = static_cast<std::int64_t>(a - b);
  std::int64_t prod;
  if (ns <= 0x7FFFFFFFu && !__builtin_mul_overflow(d, static_cast<std::int64_t>(ns), &prod))
    return static_cast<double>(prod) / 1000.0;
  return static_cast<double>(d) * static_cast<double>(ns) / 1000.0;
}

/// Sequential state for id unwrap and cycle rebasing (the vendor's loop).
struct rebase_state {
  std::size_t k = 0;
  double fixed = 0;
  std::uint32_t last_s = 0, last_e = 0, prev_id = 0;
  std::uint64_t id_delta = 0;

  /// Applies record k's raw values (call for k = 0, 1, 2, ... in order).
  /// `raw_id_bits`: width of the PMU id field (16 TIU, 20 GDMA on BM1684X).
  template <unsigned IdWidth>
  void arrive(std::uint32_t raw_s, std::uint32_t raw_e, std::uint32_t raw_id,
              unsigned raw_id_bits) noexcept {
    if (k > 0) {
      if constexpr (IdWidth > 16) {
        // An id that fell by more than half its range wrapped. (The vendor adds
        // 65536 when an id falls from > 65000 to < 1000, also for 20-bit GDMA
        // ids, where that is a firmware record after command 65000, not a wrap.)
        if (prev_id > raw_id && prev_id - raw_id > (1u << (raw_id_bits - 1)))
          id_delta += std::uint64_t{1} << raw_id_bits;
      }
      // A start that went backwards is a wrap. (The vendor also treats an end
      // smaller than the previous end as a wrap, which is wrong for overlaps.)
      if (raw_s < last_s) fixed += 4294967296.0;
    }
    last_s = raw_s;
    last_e = raw_e;
    prev_id = raw_id;
  }
  /// trunc(double(raw - first) + fixed), as tpu-mlir computes it.
  std::int64_t rebase(std::uint32_t raw, std::uint32_t first) const noexcept {
    return bmprofile::to_i64(static_cast<double>(std::int64_t{raw} - std::int64_t{first}) + fixed);
  }
};

}  // namespace bmprofile

/// Decoder for bmprofile_data-N directories (or the same files in memory).
/// Construction reads global.profile, every iter<N>.profile and the command
/// files, pairs PMU records with commands (a u32 per record), and keeps the
/// PMU blocks mapped: events() decodes records on the fly.
template <bmprofile::bmprofile_chip Chip>
class bmprofile_decoder {
 public:
  using chip = Chip;

  /// Throws decode_error for missing/corrupt files or a dump of another chip.
  explicit bmprofile_decoder(io::dump_files files, decode_options opt = {})
      : files_(std::move(files)) {
    load(opt);
  }
  bmprofile_decoder(const bmprofile_decoder&) = delete;
  bmprofile_decoder& operator=(const bmprofile_decoder&) = delete;
  bmprofile_decoder(bmprofile_decoder&&) = default;

  const trace_info& info() const noexcept { return info_; }
  const bmprofile::global_profile& global() const noexcept { return global_; }
  const std::vector<bmprofile::iter_blocks>& iterations() const noexcept { return iters_; }
  /// The compiler's estimate (net_stat.sim), when the dump has one.
  const std::optional<bmprofile::net_stat>& net_stat() const noexcept { return net_stat_; }
  /// DYN_EXTRA entries (MCU strings, issued descriptors) of iteration `it`.
  const std::vector<bmprofile::dyn_extra_entry>& dyn_extra(std::size_t it) const {
    return dyn_extra_.at(it);
  }

  class event_view;
  /// Every hardware event: all TIU events, then all GDMA events.
  event_view events() const { return event_view(this, 0, lists_.size()); }
  /// The events of one engine (tiu or gdma) of core 0.
  event_view events(engine e) const {
    std::size_t b = lists_.size(), en = lists_.size();
    for (std::size_t i = 0; i < lists_.size(); ++i)
      if (lists_[i].eng == e) {
        if (b == lists_.size()) b = i;
        en = i + 1;
      }
    return b == lists_.size() ? event_view(this, 0, 0) : event_view(this, b, en);
  }
  /// Derived rows: MCU records, layer spans, subnet spans.
  const std::vector<engine_event>& spans() const noexcept { return spans_; }

  /// The decoded descriptor of a hardware event from events(); nullptr when
  /// the record has no static command or the chip has no descriptor tables.
  const regs::instruction* command(const engine_event& e) const {
    auto it =
        cmd_index_.find({static_cast<std::uint8_t>(e.engine), e.group, e.cmd_id, e.begin_cycle});
    return it == cmd_index_.end() ? nullptr : it->second;
  }
  /// Memory ranges an event's command reads and writes (empty when unknown):
  /// what tpu_profile.py draws in its LOCAL / GLOBAL MEM charts.
  std::span<const regs::mem_operand> operands(const engine_event& e) const {
    const auto* c = command(e);
    return c ? std::span<const regs::mem_operand>(c->memory) : std::span<const regs::mem_operand>{};
  }
  /// Named address ranges for the memory charts: the local memory banks
  /// ("BANK[i]", offsets inside a lane) and the device buffers global.profile
  /// lists ("neuron_mem", "coeff", ...), as tpu_profile.py partitions them.
  std::vector<regs::memory_region> memory_regions() const {
    std::vector<regs::memory_region> out;
    if constexpr (requires {
                    Chip::local_bank_size;
                    Chip::local_banks;
                  })
      for (unsigned i = 0; i < Chip::local_banks; ++i)
        out.push_back({regs::mem_kind::local, i * Chip::local_bank_size, Chip::local_bank_size,
                       "BANK[" + std::to_string(i) + "]"});
    for (const auto& m : global_.mem_blocks)
      if (m.size) out.push_back({regs::mem_kind::ddr, m.addr, m.size, m.desc});
    return out;
  }
  /// Every decoded command of a subnet and engine (tiu or gdma), in buffer
  /// order; empty when the command file is absent.
  const std::vector<regs::instruction>& commands(std::int64_t subnet_id, engine e) const {
    static const std::vector<regs::instruction> none;
    const auto& m = e == engine::tiu ? tiu_cmds_ : gdma_cmds_;
    auto it = m.find(subnet_id);
    return it == m.end() ? none : it->second;
  }

  /// The event of record k of list li (what the view yields).
  engine_event make_event(std::size_t li, const bmprofile::rebase_state& st) const {
    const auto& l = lists_[li];
    const std::byte* p = l.bytes.bytes().data() + st.k * l.record_size;
    const auto raw_s = io::load_le<std::uint32_t>(p);
    auto raw_e = io::load_le<std::uint32_t>(p + 4);
    engine_event e;
    e.engine = l.eng;
    e.unit = l.core;
    e.group = l.iteration;
    // an end that wrapped while its start did not: +2^32 (the vendor leaves it)
    const std::int64_t s = bmprofile::sat_add(st.rebase(raw_s, l.first_raw), l.shift);
    const std::int64_t en = bmprofile::sat_add(
        raw_e < raw_s
            ? bmprofile::to_i64(
                  static_cast<double>(std::int64_t{raw_e} + 4294967296 - l.first_raw) + st.fixed)
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
      e.set_dir(dma_direction(p));
    }
    e.cmd_id = static_cast<std::uint32_t>(raw_id + st.id_delta);
    const std::uint32_t pr = l.pair[st.k];
    if (pr != bmprofile::no_pair) {
      e.set_flag(engine_event::flag_matched);
      if ((pr & bmprofile::dyn_pair_bit) == 0) {
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
        const auto& d = (*l.dyns)[pr & ~bmprofile::dyn_pair_bit].rec;
        e.op_type = dyn_func_name(l.eng, d.id);
      }
    }
    if (raw_s == 0xFFFFFFFFu || raw_e == 0xFFFFFFFFu) e.set_flag(engine_event::flag_invalid);
    return e;
  }

  /// Lazy range over a span of PMU lists; a forward range (multi-pass).
  class event_view : public ranges::view_facade<event_view, ranges::finite> {
    friend ranges::range_access;
    const bmprofile_decoder* d_ = nullptr;
    std::size_t begin_ = 0, end_ = 0;

    struct cursor {
      const bmprofile_decoder* d = nullptr;
      std::size_t li = 0, end = 0;
      bmprofile::rebase_state st;

      engine_event read() const { return d->make_event(li, st); }
      bool equal(ranges::default_sentinel_t) const { return li >= end; }
      bool equal(const cursor& o) const { return li == o.li && st.k == o.st.k; }
      void next() {
        ++st.k;
        settle();
      }
      /// Moves to the next non-empty list if needed and applies the record.
      void settle() {
        while (li < end && st.k >= d->lists_[li].count) {
          ++li;
          st = {};
          if (li < end) st.fixed = d->lists_[li].fixed0;
        }
        if (li < end) {
          const auto& l = d->lists_[li];
          const std::byte* p = l.bytes.bytes().data() + st.k * l.record_size;
          st.template arrive<Chip::id_width>(io::load_le<std::uint32_t>(p),
                                             io::load_le<std::uint32_t>(p + 4), raw_id(l, p),
                                             id_bits(l));
        }
      }
    };
    cursor begin_cursor() const {
      cursor c{d_, begin_, end_, {}};
      if (begin_ < end_) c.st.fixed = d_->lists_[begin_].fixed0;
      c.settle();  // skips empty lists, applies record 0
      return c;
    }

   public:
    event_view() = default;
    event_view(const bmprofile_decoder* d, std::size_t b, std::size_t e)
        : d_(d), begin_(b), end_(e) {}
    /// Number of events (cheap: sums the list sizes).
    std::size_t size() const noexcept {
      std::size_t n = 0;
      for (std::size_t i = begin_; i < end_; ++i) n += d_->lists_[i].count;
      return n;
    }
  };

 private:
  static constexpr unsigned id_bits(const bmprofile::pmu_list& l) noexcept {
    return l.eng == engine::tiu ? 16u : Chip::gdma_inst_id_bits;
  }
  static std::uint32_t raw_id(const bmprofile::pmu_list& l, const std::byte* p) noexcept {
    const auto w = io::load_le<std::uint32_t>(p + 8);
    return l.eng == engine::tiu
               ? (w & 0xFFFFu)
               : static_cast<std::uint32_t>(io::bits(w, 0, Chip::gdma_inst_id_bits));
  }

  /// Direction from the PMU byte counters (§5.4): reads on DDR or local
  /// memory give the source, writes the destination; no reads = constant fill.
  static direction dma_direction(const std::byte* p) noexcept {
    const auto u = [p](std::size_t o) { return io::load_le<std::uint32_t>(p + o); };
    const bool from_ddr = (std::uint64_t{u(0x14)} + u(0x20)) != 0;
    const bool from_lmem = !from_ddr && u(0x2C) != 0;
    const bool to_ddr = (std::uint64_t{u(0x0C)} + u(0x18)) != 0;
    const bool to_lmem = !to_ddr && u(0x24) != 0;
    if (from_ddr) return to_ddr ? direction::s2s : to_lmem ? direction::s2l : direction::unknown;
    if (from_lmem) return to_ddr ? direction::l2s : to_lmem ? direction::l2l : direction::unknown;
    return to_ddr ? direction::c2s : to_lmem ? direction::c2l : direction::unknown;
  }

  name_id dyn_func_name(engine eng, std::uint64_t id) const {
    const auto& L = Chip::node_set;
    if (io::bits(id, L.version_lo, 4) == 0) return 0;
    auto f = static_cast<std::size_t>(io::bits(id, L.func_lo, L.func_width));
    if (eng == engine::tiu) return f < Chip::bd_func_names.size() ? bd_func_ids_[f] : name_id{0};
    return f < Chip::gdma_func_names.size() ? gdma_func_ids_[f] : name_id{0};
  }

  void load(const decode_options& opt);
  /// Full descriptor decoding where the chip provides it (Chip::decode_command).
  void decode_commands(const io::byte_reader& r, engine eng,
                       const std::vector<bmprofile::framed_command>& framed,
                       std::vector<regs::instruction>& out) {
    out.clear();
    if constexpr (requires(std::span<const std::byte> d, regs::instruction& i) {
                    Chip::decode_command(eng, d, i);
                  }) {
      out.resize(framed.size());
      std::uint64_t unsupported = 0;
      for (std::size_t k = 0; k < framed.size(); ++k) {
        const std::uint64_t off = framed[k].offset - r.base();
        if (off >= r.size()) continue;
        const auto st = Chip::decode_command(eng, r.bytes().subspan(off), out[k]);
        if (st != decltype(st)::ok) ++unsupported;
        if (st == decltype(st)::unknown_opcode || st == decltype(st)::truncated)
          out[k] = regs::instruction{};
      }
      if (unsupported)
        info_.diagnostics.add(diag::other, r.file(), r.base(),
                              std::string(name(eng)) +
                                  " descriptors the vendor's converters do not cover: no operands "
                                  "or ops for them",
                              unsupported);
    } else {
      (void)r;
      (void)eng;
      (void)framed;
    }
  }
  void check_arch();
  void add_list(bmprofile::pmu_list l) { lists_.push_back(std::move(l)); }

  io::dump_files files_;
  trace_info info_;
  bmprofile::global_profile global_;
  std::vector<bmprofile::iter_blocks> iters_;
  std::optional<bmprofile::net_stat> net_stat_;
  std::vector<std::vector<bmprofile::dyn_extra_entry>> dyn_extra_;
  std::vector<bmprofile::pmu_list> lists_;
  std::vector<engine_event> spans_;
  /// Per subnet id: op/func name ids per static node (stable addresses).
  /// Per subnet id: decoded commands in buffer order, and per static node.
  std::map<std::int64_t, std::vector<regs::instruction>> tiu_cmds_, gdma_cmds_;
  std::map<std::int64_t, std::vector<const regs::instruction*>> tiu_ins_, gdma_ins_;
  std::map<std::int64_t, std::vector<bmprofile::node_facts>> tiu_facts_, gdma_facts_;
  /// (engine, group, cmd_id, begin_cycle) of a statically paired event -> its command.
  std::map<std::tuple<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>,
           const regs::instruction*>
      cmd_index_;
  std::vector<std::unique_ptr<std::vector<bmprofile::dyn_event>>> dyn_store_;
  std::vector<std::unique_ptr<bmprofile::subnet_info>> synthetic_subnets_;
  std::vector<const bmprofile::subnet_info*> iter_subnet_;
  std::array<name_id, Chip::bd_func_names.size()> bd_func_ids_{};
  std::array<name_id, Chip::gdma_func_names.size()> gdma_func_ids_{};
};

template <bmprofile::bmprofile_chip Chip>
void bmprofile_decoder<Chip>::check_arch() {
  const std::string& a = *global_.arch;
  bool ok = a == Chip::arch_name || a == std::to_string(Chip::arch_id);
  if (!ok) {
    std::string reason = "arch=" + a + " is not " + std::string(Chip::name);
    if (a == "5" || a == "BM1690" || a == "8800" || a == "6" || a == "140814")
      reason += " (an SG2260-family dump: use the sg2260 decoder)";
    throw decode_error(files_.label() + "/global.profile", decode_error::no_offset, reason);
  }
}

template <bmprofile::bmprofile_chip Chip>
void bmprofile_decoder<Chip>::load(const decode_options& opt) {
  using namespace bmprofile;
  auto& diag = info_.diagnostics;
  info_.chip = std::string(Chip::name);
  info_.source = files_.label();
  info_.cores = Chip::core_count;
  for (std::size_t i = 0; i < Chip::bd_func_names.size(); ++i)
    bd_func_ids_[i] = info_.names.intern(Chip::bd_func_names[i]);
  for (std::size_t i = 0; i < Chip::gdma_func_names.size(); ++i)
    gdma_func_ids_[i] = info_.names.intern(Chip::gdma_func_names[i]);

  global_ = parse_global_profile(files_.get("global.profile"), diag);
  if (global_.arch) check_arch();

  // Clocks (µs per cycle as doubles, as the vendor computes them).
  double tiu_mhz = Chip::tiu_freq_mhz, dma_mhz = Chip::dma_freq_mhz;
  if (!Chip::period_fixed) {
    if (global_.tpu_freq_mhz && *global_.tpu_freq_mhz > 0) {
      tiu_mhz = dma_mhz = *global_.tpu_freq_mhz;
    } else {
      diag.add(diag::default_frequency, files_.label() + "/global.profile", decode_error::no_offset,
               global_.tpu_freq_mhz ? "tpu_freq=0: using the chip default clock"
                                    : "no tpu_freq line: using the chip default clock");
    }
  }
  if (opt.tiu_freq_mhz) tiu_mhz = *opt.tiu_freq_mhz;
  if (opt.dma_freq_mhz) dma_mhz = *opt.dma_freq_mhz;
  const double tiu_period = 1.0 / tiu_mhz, gdma_period = 1.0 / dma_mhz;

  // Buffer capacities from the memory lines, to detect overflow.
  std::uint64_t tiu_cap = 0, gdma_cap = 0;
  for (const auto& m : global_.mem_blocks) {
    if (m.desc == "bdc_perf_monitor") tiu_cap = m.size / 32;
    if (m.desc == "gdma_perf_monitor") gdma_cap = m.size / 256;
  }

  // Iteration files, until the first missing index.
  for (unsigned n = 0;; ++n) {
    auto r = files_.find("iter" + std::to_string(n) + ".profile");
    if (!r) break;
    iters_.push_back(read_iter_blocks(*r, diag));
  }
  if (iters_.empty())
    throw decode_error(files_.label() + "/iter0.profile", decode_error::no_offset, "missing file");
  for (const auto& ib : iters_)
    dyn_extra_.push_back(ib.dyn_extra.empty() ? std::vector<dyn_extra_entry>{}
                                              : read_dyn_extra(ib.dyn_extra[0], diag));
  if (auto r = files_.find("net_stat.sim")) net_stat_ = parse_net_stat(*r, diag);

  // Host timeline: gaps between subnet runs removed (§6.2).
  std::vector<double> base_us(iters_.size(), 0.0);
  {
    double shift = 0;
    const auto begin_time = iters_[0].summary.begin_us;
    for (std::size_t i = 0; i < iters_.size(); ++i) {
      if (i > 0)
        shift += static_cast<double>(iters_[i].summary.begin_us) -
                 static_cast<double>(iters_[i - 1].summary.end_us);
      base_us[i] =
          static_cast<double>(iters_[i].summary.begin_us) - static_cast<double>(begin_time) - shift;
      if (!iters_[i].has_summary)
        diag.add(diag::other, iters_[i].file, decode_error::no_offset,
                 "no SUMMARY block: subnet placed at 0");
    }
  }

  auto span_event = [&](engine e, double b_ns, double e_ns, std::string_view op) {
    engine_event ev;
    ev.engine = e;
    ev.begin_ns = b_ns;
    ev.end_ns = e_ns;
    ev.begin_cycle = static_cast<std::uint64_t>(
        std::max<std::int64_t>(0, to_i64(std::floor(b_ns * tiu_mhz / 1000.0))));
    ev.end_cycle = static_cast<std::uint64_t>(
        std::max<std::int64_t>(0, to_i64(std::floor(e_ns * tiu_mhz / 1000.0))));
    ev.op = info_.names.intern(op);
    return ev;
  };
  std::vector<pmu_list> tiu_lists, gdma_lists;
  for (std::size_t it = 0; it < iters_.size(); ++it) {
    const auto& ib = iters_[it];
    const std::string& file = ib.file;
    // Static commands of this subnet: node lines, or the framed commands.
    const subnet_info* subnet = global_.find_subnet(ib.summary.subnet_id);
    if (!subnet && global_.subnets.size() == 1 && !ib.has_summary) subnet = &global_.subnets[0];
    const std::int64_t sid = ib.summary.subnet_id;
    if (!tiu_facts_.count(sid)) {
      std::vector<framed_command> tiu_cmds, gdma_cmds;
      if (!ib.commands.empty()) {
        const auto& c = ib.commands[0];
        auto find_cmd = [&](std::uint64_t base, int eng) -> std::optional<io::byte_reader> {
          char buf[64];
          std::snprintf(buf, sizeof buf, "cmd_%llx_%d.dat", static_cast<unsigned long long>(base),
                        eng);
          if (auto r = files_.find(buf)) return r;
          std::snprintf(buf, sizeof buf, "cmd_%llx_0_%d.dat", static_cast<unsigned long long>(base),
                        eng);
          return files_.find(buf);
        };
        if (auto r = find_cmd(c.bd_base, 0)) {
          tiu_cmds = frame_commands<Chip>(*r, engine::tiu, c.bd_offset, c.bd_count, diag);
          decode_commands(*r, engine::tiu, tiu_cmds, tiu_cmds_[sid]);
        } else if (c.bd_count)
          diag.add(diag::missing_file, files_.label(), decode_error::no_offset,
                   "TIU command file missing: no op names");
        if (auto r = find_cmd(c.gdma_base, 1)) {
          gdma_cmds = frame_commands<Chip>(*r, engine::gdma, c.gdma_offset, c.gdma_count, diag);
          decode_commands(*r, engine::gdma, gdma_cmds, gdma_cmds_[sid]);
        } else if (c.gdma_count)
          diag.add(diag::missing_file, files_.label(), decode_error::no_offset,
                   "GDMA command file missing: no op names");
      }
      if (!subnet && (!tiu_cmds.empty() || !gdma_cmds.empty())) {
        // No node lines: the decoded commands are the static list.
        auto s = std::make_unique<subnet_info>();
        s->subnet_id = sid;
        for (const auto& f : tiu_cmds)
          s->tiu_nodes.push_back(
              {f.frame.cmd_id, f.frame.dep_id, static_cast<int>(f.frame.type), -1, -1});
        for (const auto& f : gdma_cmds)
          s->gdma_nodes.push_back(
              {f.frame.dep_id, f.frame.cmd_id, static_cast<int>(f.frame.type), -1, -1});
        synthetic_subnets_.push_back(std::move(s));
        subnet = synthetic_subnets_.back().get();
      }
      tiu_facts_[sid];  // marks the subnet as done, with or without static nodes
      gdma_facts_[sid];
      if (subnet) {
        auto attach = [&](const std::vector<node_info>& nodes,
                          const std::vector<framed_command>& cmds, bool tiu) {
          std::vector<name_id> ops, types;
          const auto& decoded = tiu ? tiu_cmds_[sid] : gdma_cmds_[sid];
          auto& ins = tiu ? tiu_ins_[sid] : gdma_ins_[sid];
          ins.assign(nodes.size(), nullptr);
          auto& facts = tiu ? tiu_facts_[sid] : gdma_facts_[sid];
          facts.assign(nodes.size(), {});
          for (std::size_t k = 0; k < nodes.size(); ++k)
            if (nodes[k].layer >= 0)
              facts[k].layer_id = subnet->layers[static_cast<std::size_t>(nodes[k].layer)].layer_id;
          for (std::size_t k = 0; k < nodes.size() && k < decoded.size(); ++k)
            if (decoded[k].table) {
              ins[k] = &decoded[k];
              if (tiu) facts[k].uarch_rate = decoded[k].uarch_rate();
              facts[k].dir = decoded[k].dir;
            }
          if (!cmds.empty() && cmds.size() != nodes.size())
            diag.add(diag::other, files_.label(), decode_error::no_offset,
                     std::string(tiu ? "TIU" : "GDMA") + ": " + std::to_string(cmds.size()) +
                         " commands framed for " + std::to_string(nodes.size()) + " node lines");
          ops.assign(nodes.size(), 0);
          types.assign(nodes.size(), 0);
          for (std::size_t k = 0; k < nodes.size(); ++k) {
            if (k < cmds.size()) ops[k] = info_.names.intern(cmds[k].frame.op);
            auto f = static_cast<std::size_t>(nodes[k].func);
            if (tiu) {
              if (f < Chip::bd_func_names.size() && !Chip::bd_func_names[f].empty())
                types[k] = bd_func_ids_[f];
              else
                diag.add(diag::unknown_enum, files_.label() + "/global.profile",
                         decode_error::no_offset,
                         "unknown bd_func " + std::to_string(nodes[k].func));
            } else {
              if (f < Chip::gdma_func_names.size())
                types[k] = gdma_func_ids_[f];
              else
                diag.add(diag::unknown_enum, files_.label() + "/global.profile",
                         decode_error::no_offset,
                         "unknown gdma_func " + std::to_string(nodes[k].func));
            }
          }
          for (std::size_t k = 0; k < nodes.size(); ++k) {
            facts[k].op = ops[k];
            facts[k].op_type = types[k];
          }
        };
        attach(subnet->tiu_nodes, tiu_cmds, true);
        attach(subnet->gdma_nodes, gdma_cmds, false);
      }
    }

    // MCU records (core 0) and the monitor start time (§6.3).
    auto dyn_bd = std::make_unique<std::vector<dyn_event>>();
    auto dyn_gdma = std::make_unique<std::vector<dyn_event>>();
    std::vector<dyn_event> all_dyn;
    double monitor_start_us = 0;
    if (!ib.dyn_data.empty()) {
      auto recs = read_dyn_records(ib.dyn_data[0], diag);
      if (!recs.empty()) {
        const std::uint64_t ns = recs[0].end;
        const std::uint64_t base = recs.size() >= 2 ? recs[1].begin : recs[0].begin;
        for (std::size_t i = 1; i < recs.size(); ++i) {
          const auto& r = recs[i];
          dyn_event d{r, 0, 0};
          d.begin_us = mcu_us(r.begin, base, ns);
          d.end_us = (r.end == 0 || r.end == ~std::uint64_t{0}) ? d.begin_us + 0.01
                                                                : mcu_us(r.end, base, ns);
          const auto type = r.type & 0xFFu;
          if (type == static_cast<std::uint32_t>(dyn_type::node_set)) {
            if (monitor_start_us == 0) monitor_start_us = d.end_us;
            const auto eng = io::bits(r.id, Chip::node_set.engine_lo, Chip::node_set.engine_width);
            if (eng == 0)
              dyn_bd->push_back(d);
            else if (eng == 1)
              dyn_gdma->push_back(d);
          }
          all_dyn.push_back(d);
        }
      }
    }

    // PMU lists of this iteration (core 0 = first block of each type).
    auto make_list = [&](engine eng, const std::vector<io::byte_reader>& blocks, std::size_t rsize,
                         double period) -> std::optional<pmu_list> {
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
          std::max<std::int64_t>(0, bmprofile::to_i64(std::round(base_us[it] * l.freq_mhz))));
      l.subnet = subnet;
      l.nodes = subnet ? (eng == engine::tiu ? &subnet->tiu_nodes : &subnet->gdma_nodes) : nullptr;
      l.node_ins = eng == engine::tiu ? &tiu_ins_[sid] : &gdma_ins_[sid];
      l.facts = eng == engine::tiu ? &tiu_facts_[sid] : &gdma_facts_[sid];
      l.dyns = eng == engine::tiu ? dyn_bd.get() : dyn_gdma.get();
      return l;
    };
    auto tl = make_list(engine::tiu, ib.monitor_bd, Chip::tiu_record_size, tiu_period);
    auto gl = make_list(engine::gdma, ib.monitor_gdma, Chip::gdma_record_size, gdma_period);

    // Id unwrap, wrap/invalid counting and matching (§6.4), per list.
    auto match = [&](pmu_list& l, std::uint64_t cap) {
      const std::size_t n = l.count;
      if (cap && n >= cap)
        diag.add(diag::buffer_full, file, l.bytes.base(),
                 std::string(name(l.eng)) + " PMU buffer full (" + std::to_string(n) +
                     " records): later commands lost");
      std::vector<std::uint64_t> ids(n);
      rebase_state st;
      std::uint64_t wraps = 0, idwraps = 0, invalid = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const std::byte* p = l.bytes.bytes().data() + k * l.record_size;
        const auto s = io::load_le<std::uint32_t>(p), e = io::load_le<std::uint32_t>(p + 4);
        st.k = k;
        const double before = st.fixed;
        const auto delta_before = st.id_delta;
        st.template arrive<Chip::id_width>(s, e, raw_id(l, p), id_bits(l));
        if (st.fixed != before) ++wraps;
        if (e < s) ++wraps;
        if (st.id_delta != delta_before) ++idwraps;
        if (s == 0xFFFFFFFFu || e == 0xFFFFFFFFu) ++invalid;
        ids[k] = raw_id(l, p) + st.id_delta;
      }
      if (wraps)
        diag.add(diag::cycle_wrap, file, l.bytes.base(),
                 std::string(name(l.eng)) + " cycle counter wrapped", wraps);
      if (idwraps)
        diag.add(diag::id_wrap, file, l.bytes.base(),
                 std::string(name(l.eng)) + " command id wrapped", idwraps);
      if (invalid)
        diag.add(diag::invalid_record, file, l.bytes.base(),
                 std::string(name(l.eng)) + " records not ended", invalid);

      l.pair.assign(n, no_pair);
      const std::uint64_t mask = (std::uint64_t{1} << Chip::id_width) - 1;
      auto next_id = [&](std::uint64_t x) { return (x + 1) & mask; };
      const auto& D = *l.dyns;
      auto dyn_id = [&](const dyn_event& d) {
        const auto& L = Chip::node_set;
        return l.eng == engine::tiu ? io::bits(d.rec.id, L.bd_lo, L.bd_width)
                                    : io::bits(d.rec.id, L.gdma_lo, L.gdma_width);
      };
      std::size_t c = 0, stop = 0;
      const bool has_static = l.nodes && !l.nodes->empty();
      if (has_static) {
        bool stopped = false;
        for (std::size_t k = 0; k < D.size() && c < n; ++k) {
          if (ids[c] == 0 && c > 0) {
            stop = k;
            stopped = true;
            break;
          }
          if (dyn_id(D[k]) == next_id(ids[c]))
            l.pair[c++] = dyn_pair_bit | static_cast<std::uint32_t>(k);
        }
        if (!stopped) stop = 0;
        const auto& S = *l.nodes;
        std::size_t matched_nodes = 0, sys_tail = 0;
        for (std::size_t k = 0; k < S.size(); ++k) {
          if (c >= n) break;
          const std::uint64_t nid = l.eng == engine::tiu ? S[k].bd_id : S[k].gdma_id;
          if (nid == next_id(ids[c])) {
            l.pair[c++] = static_cast<std::uint32_t>(k);
            ++matched_nodes;
          }
        }
        // the GDMA SYS end marker never gets a PMU record; not a loss
        if (l.eng == engine::gdma && !S.empty() && Chip::gdma_func_names.size() > 6 &&
            S.back().func == 6)
          sys_tail = 1;
        if (matched_nodes + sys_tail < S.size())
          diag.add(diag::unmatched_command, file, decode_error::no_offset,
                   std::to_string(S.size() - matched_nodes - sys_tail) + " static " +
                       std::string(name(l.eng)) + " commands have no PMU record",
                   S.size() - matched_nodes - sys_tail);
      }
      for (std::size_t k = stop; k < D.size() && c < n; ++k)
        if (dyn_id(D[k]) == next_id(ids[c]))
          l.pair[c++] = dyn_pair_bit | static_cast<std::uint32_t>(k);
      const auto unpaired =
          static_cast<std::uint64_t>(std::count(l.pair.begin(), l.pair.end(), no_pair));
      if (unpaired)
        diag.add(diag::unmatched_record, file, l.bytes.base(),
                 std::to_string(unpaired) + " " + std::string(name(l.eng)) +
                     " PMU records match no command",
                 unpaired);
    };
    if (tl) match(*tl, tiu_cap);
    if (gl) match(*gl, gdma_cap);

    // TIU↔GDMA alignment (§6.6): TIU command waiting on a GDMA starts when it ends.
    if (tl && gl && tl->count && gl->count) {
      // rebased start/end of record k of a list (walks forward from a cache).
      struct walker {
        const pmu_list* l;
        rebase_state st;
        bool started = false;
        void to(std::size_t k) {
          if (!started || k < st.k) {
            st = {};
            st.fixed = l->fixed0;
            started = true;
            apply(0);
          }
          while (st.k < k) {
            ++st.k;
            apply(st.k);
          }
        }
        void apply(std::size_t k) {
          const std::byte* p = l->bytes.bytes().data() + k * l->record_size;
          st.template arrive<Chip::id_width>(io::load_le<std::uint32_t>(p),
                                             io::load_le<std::uint32_t>(p + 4), raw_id(*l, p),
                                             id_bits(*l));
        }
        std::int64_t start(std::size_t k) {
          to(k);
          return st.rebase(io::load_le<std::uint32_t>(l->bytes.bytes().data() + k * l->record_size),
                           l->first_raw);
        }
        std::int64_t end(std::size_t k) {
          to(k);
          const std::byte* p = l->bytes.bytes().data() + k * l->record_size;
          const auto s = io::load_le<std::uint32_t>(p), e = io::load_le<std::uint32_t>(p + 4);
          if (e < s)
            return bmprofile::to_i64(
                static_cast<double>(std::int64_t{e} + 4294967296 - l->first_raw) + st.fixed);
          return st.rebase(e, l->first_raw);
        }
      };
      walker gw{&*gl, {}, false}, tw{&*tl, {}, false};
      // record index per paired static node / dyn record
      auto index_of = [](const pmu_list& l, bool dyn) {
        std::unordered_map<std::uint32_t, std::size_t> m;
        for (std::size_t k = 0; k < l.count; ++k) {
          const auto p = l.pair[k];
          if (p == no_pair) continue;
          if (((p & dyn_pair_bit) != 0) == dyn) m.emplace(p & ~dyn_pair_bit, k);
        }
        return m;
      };
      std::int64_t offset = 0;
      bool found = false;
      const bool statics = tl->nodes && gl->nodes && !tl->nodes->empty() && !gl->nodes->empty();
      if (statics) {
        auto gidx = index_of(*gl, false), tidx = index_of(*tl, false);
        // first TIU node (with a record) per (bd_id, gdma_id)
        std::unordered_map<std::uint64_t, std::size_t> first_tiu;
        for (std::size_t k = 0; k < tl->nodes->size(); ++k) {
          if (!tidx.count(static_cast<std::uint32_t>(k))) continue;
          const auto& b = (*tl->nodes)[k];
          first_tiu.emplace((std::uint64_t{b.bd_id} << 32) | b.gdma_id, k);
        }
        for (std::size_t gk = 0; gk < gl->nodes->size() && !found; ++gk) {
          auto gi = gidx.find(static_cast<std::uint32_t>(gk));
          if (gi == gidx.end()) continue;
          const auto& g = (*gl->nodes)[gk];
          auto bi = first_tiu.find((std::uint64_t{g.bd_id + 1} << 32) | g.gdma_id);
          if (bi == first_tiu.end()) continue;
          const auto t =
              bmprofile::to_i64(static_cast<double>(gw.end(gi->second)) * gdma_period / tiu_period);
          const std::int64_t o =
              bmprofile::sat_add(t, -tw.start(tidx[static_cast<std::uint32_t>(bi->second)]));
          if (o != 0) {
            offset = o;
            found = true;
          }
        }
      } else if (!dyn_bd->empty() && !dyn_gdma->empty()) {
        auto gidx = index_of(*gl, true), tidx = index_of(*tl, true);
        const auto& L = Chip::node_set;
        for (std::size_t gk = 0; gk < dyn_gdma->size() && !found; ++gk) {
          auto gi = gidx.find(static_cast<std::uint32_t>(gk));
          if (gi == gidx.end()) continue;
          const auto& g = (*dyn_gdma)[gk].rec;
          const auto gb = io::bits(g.id, L.bd_lo, L.bd_width),
                     gg = io::bits(g.id, L.gdma_lo, L.gdma_width);
          for (std::size_t bk = 0; bk < dyn_bd->size(); ++bk) {
            const auto& b = (*dyn_bd)[bk];
            auto ti = tidx.find(static_cast<std::uint32_t>(bk));
            if (ti == tidx.end() || io::bits(b.rec.id, L.bd_lo, L.bd_width) != gb + 1 ||
                io::bits(b.rec.id, L.gdma_lo, L.gdma_width) != gg)
              continue;
            const auto t = bmprofile::to_i64(static_cast<double>(gw.end(gi->second)) * gdma_period /
                                             tiu_period);
            const std::int64_t o =
                std::max<std::int64_t>(bmprofile::sat_add(t, -tw.start(ti->second)),
                                       bmprofile::to_i64(b.end_us / tiu_period));
            if (o != 0) {
              offset = o;
              found = true;
            }
            break;
          }
        }
      } else {
        diag.add(diag::other, file, decode_error::no_offset,
                 "no static or MCU commands: TIU and GDMA not aligned");
      }
      tl->shift = offset;
    }

    // Derived rows: MCU records.
    const double base_ns = base_us[it] * 1000.0;
    for (const auto& d : all_dyn) {
      const auto type = d.rec.type & 0xFFu;
      std::string op;
      switch (type) {
        case 0:
          op = "func";
          break;
        case 1:
          op = io::bits(d.rec.id, Chip::node_set.engine_lo, Chip::node_set.engine_width) == 0
                   ? "set_BD"
                   : "set_GDMA";
          break;
        case 2:
          op = "wait";
          break;
        case 3:
          op = "cdma";
          break;
        case 4:
          op = "gde";
          break;
        case 5:
          op = "sort";
          break;
        case 6:
          op = "nms";
          break;
        case 100:
          op = "custom";
          break;
        default:
          op = "type_" + std::to_string(type);
          diag.add(diag::unknown_enum, file, decode_error::no_offset,
                   "unknown MCU record type " + std::to_string(type));
      }
      auto ev =
          span_event(engine::mcu, base_ns + d.begin_us * 1000.0, base_ns + d.end_us * 1000.0, op);
      ev.group = static_cast<std::uint16_t>(it);
      ev.cmd_id = d.rec.profile_id;
      spans_.push_back(ev);
    }

    iter_subnet_.push_back(subnet);
    if (tl) tiu_lists.push_back(std::move(*tl));
    if (gl) gdma_lists.push_back(std::move(*gl));
    dyn_store_.push_back(std::move(dyn_bd));
    dyn_store_.push_back(std::move(dyn_gdma));
  }
  for (auto& l : tiu_lists) add_list(std::move(l));
  for (auto& l : gdma_lists) add_list(std::move(l));

  // Tracks, span of events, layer and subnet rows (one pass over the events).
  info_.mode = iters_[0].summary.extra ? "dynamic" : "static";
  std::map<std::pair<std::size_t, std::int32_t>, std::pair<double, double>>
      layer_span;  // (iter, layer idx)
  std::vector<std::pair<double, double>> iter_span(iters_.size(),
                                                   {std::numeric_limits<double>::infinity(), 0});
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (engine eng : {engine::tiu, engine::gdma}) {
    track t;
    t.eng = eng;
    t.freq_mhz = eng == engine::tiu ? tiu_mhz : dma_mhz;
    for (const auto& l : lists_)
      if (l.eng == eng) t.records += l.count;
    if (!t.records) continue;
    t.events = t.records;
    info_.tracks.push_back(t);
  }
  for (std::size_t li = 0; li < lists_.size(); ++li) {
    event_view v(this, li, li + 1);
    std::size_t k = 0;
    for (const engine_event& e : v) {
      lo = std::min(lo, e.begin_ns);
      hi = std::max(hi, e.end_ns);
      auto& is = iter_span[lists_[li].iteration];
      is.first = std::min(is.first, e.begin_ns);
      is.second = std::max(is.second, e.end_ns);
      const auto pr = lists_[li].pair[k++];
      if (pr == no_pair || (pr & dyn_pair_bit)) continue;
      if (const auto* ni = lists_[li].node_ins; ni && pr < ni->size() && (*ni)[pr])
        cmd_index_.emplace(
            std::tuple{static_cast<std::uint8_t>(e.engine), e.group, e.cmd_id, e.begin_cycle},
            (*ni)[pr]);
      const auto layer = (*lists_[li].nodes)[pr].layer;
      if (layer < 0) continue;
      auto [it, fresh] =
          layer_span.try_emplace({lists_[li].iteration, layer}, e.begin_ns, e.end_ns);
      if (!fresh) {
        it->second.first = std::min(it->second.first, e.begin_ns);
        it->second.second = std::max(it->second.second, e.end_ns);
      }
    }
  }
  if (lo <= hi) {
    info_.begin_ns = lo;
    info_.end_ns = hi;
  }
  for (const auto& [key, span] : layer_span) {
    const subnet_info* s = iter_subnet_[key.first];
    if (!s) continue;
    const auto& layer = s->layers[static_cast<std::size_t>(key.second)];
    auto ev = span_event(engine::layer, span.first, span.second,
                         layer.layer_type + (layer.is_local ? "(L)" : "(G)"));
    ev.layer_id = layer.layer_id;
    ev.group = static_cast<std::uint16_t>(key.first);
    spans_.push_back(ev);
  }
  for (std::size_t it = 0; it < iters_.size(); ++it) {
    const double b = base_us[it] * 1000.0;
    const double e = iter_span[it].second > b ? iter_span[it].second : b;
    auto ev = span_event(engine::subnet, b, e,
                         "Iter[" + std::to_string(iters_[it].summary.iteration) + "]");
    ev.group = static_cast<std::uint16_t>(it);
    ev.cmd_id = static_cast<std::uint32_t>(iters_[it].summary.subnet_id);
    spans_.push_back(ev);
  }
  // derived rows grouped by kind, in time order (what lane assignment in sinks expects)
  std::stable_sort(spans_.begin(), spans_.end(), [](const engine_event& a, const engine_event& b) {
    if (a.engine != b.engine) return a.engine < b.engine;
    return a.begin_ns < b.begin_ns;
  });
  info_.properties.emplace_back("net_name", global_.net_name);
  info_.properties.emplace_back("arch", global_.arch.value_or(""));
  info_.properties.emplace_back(
      "tpu_freq_mhz",
      global_.tpu_freq_mhz ? std::to_string(static_cast<long long>(*global_.tpu_freq_mhz)) : "");
  info_.properties.emplace_back("iterations", std::to_string(iters_.size()));
  info_.properties.emplace_back("subnets", std::to_string(global_.subnets.size()));
  info_.properties.emplace_back("tiu_shift_cycles",
                                lists_.empty() ? "0" : std::to_string(lists_.front().shift));
  if (net_stat_) {
    info_.properties.emplace_back(
        "net_stat_sim", std::to_string(net_stat_->tiu.size()) + " TIU + " +
                            std::to_string(net_stat_->gdma.size()) + " GDMA estimated commands");
    if (net_stat_->flops) info_.properties.emplace_back("flops", std::to_string(net_stat_->flops));
  }
  bool any_pmu = false;
  for (const auto& l : lists_) any_pmu = any_pmu || l.count > 0;
  if (!any_pmu) {
    info_.mode += net_stat_ ? ", no PMU data (net_stat.sim estimate available)" : ", no PMU data";
    diag.add(diag::empty_block, files_.label(), decode_error::no_offset,
             "no TIU or GDMA PMU records in any iteration");
  }
}

}  // namespace tpuprof
