/// bmprofile_decoder<Chip>: bmprofile_data-N dumps to lazy ranges of engine events,
/// reproducing tpu-mlir's time mode (the chip's format notes §6) except for the documented
/// fixes in the chip's docs. The stages live in decode/bmprofile/: blocks, global profile,
/// command framing, the static program (program.hpp), MCU records (mcu.hpp), PMU records
/// (records.hpp), matching, TIU/GDMA alignment, time normalization, spans and properties.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <range/v3/view/facade.hpp>

#include <tpuprof/command_dep.hpp>
#include <tpuprof/decode/bmprofile/alignment.hpp>
#include <tpuprof/decode/bmprofile/blocks.hpp>
#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/indexed.hpp>
#include <tpuprof/decode/bmprofile/indexed_derived.hpp>
#include <tpuprof/decode/bmprofile/indexed_events.hpp>
#include <tpuprof/decode/bmprofile/matching.hpp>
#include <tpuprof/decode/bmprofile/mcu.hpp>
#include <tpuprof/decode/bmprofile/net_stat.hpp>
#include <tpuprof/decode/bmprofile/program.hpp>
#include <tpuprof/decode/bmprofile/properties.hpp>
#include <tpuprof/decode/bmprofile/records.hpp>
#include <tpuprof/decode/bmprofile/spans.hpp>
#include <tpuprof/decode/bmprofile/time.hpp>
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
    auto it = cmd_index_.find(bmprofile::command_key(e));
    return it == cmd_index_.end() ? nullptr : it->second;
  }
  /// Memory ranges an event's command reads and writes (empty when unknown):
  /// what tpu_profile.py draws in its LOCAL / GLOBAL MEM charts.
  std::span<const regs::mem_operand> operands(const engine_event& e) const {
    const auto* c = command(e);
    return c ? std::span<const regs::mem_operand>(c->memory) : std::span<const regs::mem_operand>{};
  }
  /// What an event's command waits for (cmd_id_dep of its descriptor: the
  /// other engine's 1-based id, 0 = none); known = false without a descriptor.
  command_dep dependency(const engine_event& e) const {
    command_dep d;
    const auto* c = command(e);
    if (!c) return d;
    d.known = true;
    d.self_id = c->cmd_id;
    d.wait_id = c->dep_id;
    d.on = e.engine == engine::tiu ? engine::gdma : engine::tiu;
    d.id_bits = static_cast<std::uint8_t>(Chip::id_width);
    d.role = c->sync;  // send / wait: the chip's message layout (chips/)
    d.msg_id = c->msg_id;
    return d;
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
    auto it = programs_.find(subnet_id);
    if (it == programs_.end()) return none;
    return e == engine::tiu ? it->second.tiu_cmds : it->second.gdma_cmds;
  }

  /// The event of record k of list li (what the view yields).
  engine_event make_event(std::size_t li, const bmprofile::rebase_state& st) const {
    return bmprofile::make_pmu_event<Chip>(lists_[li], st, func_ids_);
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
        if (li < end) bmprofile::pmu_arrive<Chip>(d->lists_[li], st);
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
  /// PMU buffer capacities from global.profile's memory lines (0 = unknown).
  struct capacities {
    std::uint64_t tiu = 0, gdma = 0;
  };

  void load(const decode_options& opt);
  void load_indexed(const bmprofile::clocks& clk);
  void read_iterations();
  void load_iteration(std::size_t it, const bmprofile::clocks& clk, double base_us, capacities cap,
                      std::vector<bmprofile::pmu_list>& tiu_lists,
                      std::vector<bmprofile::pmu_list>& gdma_lists);
  void check_arch();

  io::dump_files files_;
  trace_info info_;
  bmprofile::global_profile global_;
  std::vector<bmprofile::iter_blocks> iters_;
  std::optional<bmprofile::net_stat> net_stat_;
  std::vector<std::vector<bmprofile::dyn_extra_entry>> dyn_extra_;
  std::vector<bmprofile::pmu_list> lists_;
  std::vector<engine_event> spans_;
  /// Per subnet id: decoded commands, and per static node its command and facts (stable
  /// addresses: the lists point into them).
  std::map<std::int64_t, bmprofile::subnet_program> programs_;
  bmprofile::command_lookup cmd_index_;
  /// Position-paired chips: the decoded commands per core and engine (cmd_index_ points in).
  std::vector<std::vector<regs::instruction>> indexed_ins_;
  std::vector<std::unique_ptr<std::vector<bmprofile::dyn_event>>> dyn_store_;
  std::vector<std::unique_ptr<bmprofile::subnet_info>> synthetic_subnets_;
  std::vector<const bmprofile::subnet_info*> iter_subnet_;
  bmprofile::func_ids<Chip> func_ids_;
};

template <bmprofile::bmprofile_chip Chip>
void bmprofile_decoder<Chip>::check_arch() {
  const std::string& a = *global_.arch;
  bool ok = a == Chip::arch_name || a == std::to_string(Chip::arch_id);
  if constexpr (requires { Chip::arch_ids[0]; })
    for (auto id : Chip::arch_ids) ok = ok || a == std::to_string(id);
  if (!ok) {
    std::string reason = "arch=" + a + " is not " + std::string(Chip::name);
    if (a == "5" || a == "BM1690" || a == "8800" || a == "6" || a == "140814")
      reason +=
          " (an SG2260-family arch: open it without naming a chip, so that it is detected,"
          " or name an SG2260-family chip)";
    throw decode_error(files_.label() + "/global.profile", decode_error::no_offset, reason);
  }
}

/// Iteration files until the first missing index, their DYN_EXTRA entries and net_stat.sim.
template <bmprofile::bmprofile_chip Chip>
void bmprofile_decoder<Chip>::read_iterations() {
  auto& diag = info_.diagnostics;
  for (unsigned n = 0;; ++n) {
    auto r = files_.find("iter" + std::to_string(n) + ".profile");
    if (!r) break;
    iters_.push_back(bmprofile::read_iter_blocks(*r, diag));
  }
  if (iters_.empty())
    throw decode_error(files_.label() + "/iter0.profile", decode_error::no_offset, "missing file");
  for (const auto& ib : iters_)
    dyn_extra_.push_back(ib.dyn_extra.empty() ? std::vector<bmprofile::dyn_extra_entry>{}
                                              : bmprofile::read_dyn_extra(ib.dyn_extra[0], diag));
  if (auto r = files_.find("net_stat.sim")) net_stat_ = bmprofile::parse_net_stat(*r, diag);
}

template <bmprofile::bmprofile_chip Chip>
void bmprofile_decoder<Chip>::load(const decode_options& opt) {
  using namespace bmprofile;
  auto& diag = info_.diagnostics;
  info_.chip = std::string(Chip::name);
  info_.source = files_.label();
  info_.cores = Chip::core_count;
  func_ids_.intern(info_.names);

  global_ = parse_global_profile(files_.get("global.profile"), diag);
  if (global_.arch) check_arch();
  const clocks clk =
      resolve_clocks<Chip>(global_, opt.tiu_freq_mhz, opt.dma_freq_mhz, files_.label(), diag);
  // Buffer capacities from the memory lines, to detect overflow.
  capacities cap;
  for (const auto& m : global_.mem_blocks) {
    if (m.desc == "bdc_perf_monitor") cap.tiu = m.size / 32;
    if (m.desc == "gdma_perf_monitor") cap.gdma = m.size / 256;
  }
  read_iterations();
  if constexpr (bmprofile::indexed_chip<Chip>) {
    load_indexed(clk);
    return;
  }
  const std::vector<double> base_us = host_timeline(iters_, diag);

  std::vector<pmu_list> tiu_lists, gdma_lists;
  for (std::size_t it = 0; it < iters_.size(); ++it)
    load_iteration(it, clk, base_us[it], cap, tiu_lists, gdma_lists);
  for (auto& l : tiu_lists) lists_.push_back(std::move(l));
  for (auto& l : gdma_lists) lists_.push_back(std::move(l));

  add_tracks(lists_, clk, info_);
  const event_extents x = scan_events<Chip>(lists_, iters_.size(), func_ids_, cmd_index_);
  if (x.lo <= x.hi) {
    info_.begin_ns = x.lo;
    info_.end_ns = x.hi;
  }
  add_layer_and_subnet_spans(x, iter_subnet_, iters_, base_us, clk.tiu_mhz, info_.names, spans_);
  describe_trace(global_, iters_, net_stat_, lists_, files_.label(), info_);
}

/// Position-paired chips: per-core command lists and records, one ns origin (indexed.hpp).
template <bmprofile::bmprofile_chip Chip>
void bmprofile_decoder<Chip>::load_indexed(const bmprofile::clocks& clk) {
  // a constexpr branch: explicit instantiations (compiled mode) instantiate this for every chip
  if constexpr (bmprofile::indexed_chip<Chip>) {
    bmprofile::check_core_ids<Chip>(global_, iters_, files_.label(), info_.diagnostics);
    auto cores = bmprofile::read_indexed_cores<Chip>(files_, iters_, info_.diagnostics);
    lists_ = bmprofile::indexed_lists<Chip>(cores, clk, files_.label(), info_);
    bmprofile::attach_layers(lists_, global_, iters_);
    bmprofile::index_commands<Chip>(cores, lists_, indexed_ins_, cmd_index_, files_.label(),
                                    info_.diagnostics);
    bmprofile::add_indexed_spans(lists_, global_, iters_, clk.tiu_mhz, info_.names, spans_);
  }
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const auto& l : lists_)
    for (const auto& e : l.events) {
      lo = std::min(lo, e.begin_ns);
      hi = std::max(hi, e.end_ns);
    }
  if (lo <= hi) {
    info_.begin_ns = lo;
    info_.end_ns = hi;
  }
  bmprofile::describe_trace(global_, iters_, net_stat_, lists_, files_.label(), info_);
}

/// One iteration: its subnet's static program (once per subnet), MCU records, PMU lists,
/// matching, TIU/GDMA alignment and MCU rows.
template <bmprofile::bmprofile_chip Chip>
void bmprofile_decoder<Chip>::load_iteration(std::size_t it, const bmprofile::clocks& clk,
                                             double base_us, capacities cap,
                                             std::vector<bmprofile::pmu_list>& tiu_lists,
                                             std::vector<bmprofile::pmu_list>& gdma_lists) {
  using namespace bmprofile;
  auto& diag = info_.diagnostics;
  const auto& ib = iters_[it];
  const std::string& file = ib.file;
  const subnet_info* subnet = global_.find_subnet(ib.summary.subnet_id);
  if (!subnet && global_.subnets.size() == 1 && !ib.has_summary) subnet = &global_.subnets[0];
  const std::int64_t sid = ib.summary.subnet_id;
  if (!programs_.count(sid))
    subnet = load_program<Chip>(files_, ib, subnet, programs_[sid], info_.names, func_ids_,
                                synthetic_subnets_, diag);
  const subnet_program& prog = programs_[sid];

  mcu_timeline mcu = read_mcu_timeline<Chip>(ib, diag);
  const double tiu_period = 1.0 / clk.tiu_mhz, gdma_period = 1.0 / clk.dma_mhz;
  auto bind = [&](pmu_list& l, bool tiu) {
    l.subnet = subnet;
    l.nodes = subnet ? (tiu ? &subnet->tiu_nodes : &subnet->gdma_nodes) : nullptr;
    l.node_ins = tiu ? &prog.tiu_ins : &prog.gdma_ins;
    l.facts = tiu ? &prog.tiu_facts : &prog.gdma_facts;
    l.dyns = tiu ? mcu.bd.get() : mcu.gdma.get();
  };
  auto tl = make_pmu_list(engine::tiu, it, ib.monitor_bd, Chip::tiu_record_size, tiu_period,
                          mcu.monitor_start_us, base_us, file, diag);
  if (tl) bind(*tl, true);
  auto gl = make_pmu_list(engine::gdma, it, ib.monitor_gdma, Chip::gdma_record_size, gdma_period,
                          mcu.monitor_start_us, base_us, file, diag);
  if (gl) bind(*gl, false);
  if (tl) match_records<Chip>(*tl, cap.tiu, file, diag);
  if (gl) match_records<Chip>(*gl, cap.gdma, file, diag);
  // Expected-vs-decoded: static commands of an engine whose MONITOR block is
  // absent (a corrupted block type, a file cut at a block boundary) are lost.
  if (subnet) {
    if (!tl) report_unmonitored<Chip>(engine::tiu, subnet->tiu_nodes, ib, diag);
    if (!gl) report_unmonitored<Chip>(engine::gdma, subnet->gdma_nodes, ib, diag);
  }
  if (tl && gl && tl->count && gl->count)
    tl->shift = tiu_shift<Chip>(*tl, *gl, *mcu.bd, *mcu.gdma, tiu_period, gdma_period, file, diag);
  add_mcu_spans<Chip>(mcu.all, base_us * 1000.0, it, clk.tiu_mhz, file, info_.names, diag, spans_);

  iter_subnet_.push_back(subnet);
  if (tl) tiu_lists.push_back(std::move(*tl));
  if (gl) gdma_lists.push_back(std::move(*gl));
  dyn_store_.push_back(std::move(mcu.bd));
  dyn_store_.push_back(std::move(mcu.gdma));
}

}  // namespace tpuprof
