/// cdm_decoder: decodes an SG2260-family dump (AKS, AKSV) into engine_events:
/// the operator path (DYN_DATA, modes 0/1/2, bigTpuProfile rules) and the
/// bmodel path (BLOCK_DES_*, tpu-mlir PerfAI rules). docs/chips/aks.md lists
/// every deliberate difference from the vendor tools.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tpuprof/decode/cdm/blocks.hpp>
#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/decode/cdm/commands.hpp>
#include <tpuprof/decode/cdm/dyn.hpp>
#include <tpuprof/decode/cdm/global.hpp>
#include <tpuprof/decode/cdm/matcher.hpp>
#include <tpuprof/decode/cdm/names.hpp>
#include <tpuprof/decode/cdm/normalize.hpp>
#include <tpuprof/decode/cdm/pmu.hpp>
#include <tpuprof/decode/regs/aks_isa.hpp>
#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::cdm {

/// Which rule set decodes a dump.
enum class capture_path : std::uint8_t {
  automatic,  ///< bmodel rules when global.profile has a `bmodel` line, or a core
              ///< file has BLOCK_DES_BDC/GDMA/SDMA and no DYN_DATA
  op,         ///< operator path (bigTpuProfile)
  bmodel,     ///< bmodel path (tpu-mlir PerfAI)
};

/// Decoder settings.
struct cdm_options {
  /// Clocks for ns; 0 = `tpu_freq` of global.profile if present, else the chip default.
  double tiu_freq_mhz = 0;
  double dma_freq_mhz = 0;
  std::uint8_t device = 0;
  capture_path path = capture_path::automatic;
  /// bmodel path: shift GDMA/SDMA so their 2nd init record ends with TIU's, as
  /// tpu-mlir does (its golden output depends on it; the counter is shared, so
  /// false gives the hardware's own phase).
  bool bmodel_rephase = true;
  /// Keep the decoded descriptor (operands, memory ranges, ops) of every TIU,
  /// GDMA and SDMA event that has one, for command() / operands(); about 0.5-1
  /// KiB per such event, so off by default. uArch rates are set either way
  /// (unless `uarch` is off; the kept instruction has its ops regardless).
  bool keep_instructions = false;
  /// Compute the uArch rate of every TIU command with a register image (mode 2,
  /// bmodel path): ~70 ns per TIU command, a quarter of a mode-2 decode. Off
  /// leaves uarch_rate NaN (for timeline-only uses of large dumps).
  bool uarch = true;
};

namespace detail {

/// Core id and CDMA port from file names: last digit group of
/// `cdmlib*.profile`; N of `cdma<digits>_N.profile`.
inline std::optional<unsigned> last_number(std::string_view s) {
  std::size_t end = s.size();
  while (end > 0 && !(s[end - 1] >= '0' && s[end - 1] <= '9')) --end;
  if (end == 0) return std::nullopt;
  std::size_t b = end;
  while (b > 0 && s[b - 1] >= '0' && s[b - 1] <= '9') --b;
  if (end - b > 6) return std::nullopt;
  unsigned v = 0;
  for (std::size_t i = b; i < end; ++i) v = v * 10 + static_cast<unsigned>(s[i] - '0');
  return v;
}

inline std::optional<unsigned> cdma_port_of(std::string_view n) {
  // cdma\d*_(\d+)\.profile
  if (!n.starts_with("cdma") || !n.ends_with(".profile")) return std::nullopt;
  std::string_view mid = n.substr(4, n.size() - 4 - 8);
  std::size_t i = 0;
  while (i < mid.size() && mid[i] >= '0' && mid[i] <= '9') ++i;
  if (i >= mid.size() || mid[i] != '_') return std::nullopt;
  std::string_view port = mid.substr(i + 1);
  if (port.empty() || port.size() > 6) return std::nullopt;
  unsigned v = 0;
  for (char ch : port) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + static_cast<unsigned>(ch - '0');
  }
  return v;
}

inline const char* engine_key(pmu_kind k) {
  switch (k) {
    case pmu_kind::tiu:
      return "tiu";
    case pmu_kind::gdma:
      return "gdma";
    case pmu_kind::sdma:
      return "sdma";
    default:
      return "cdma";
  }
}

}  // namespace detail

/// Decoder of one SG2260-family dump for chip `Chip` (chips::aks, chips::aksv).
/// Everything is decoded in the constructor; the object then owns the events
/// (64 B each, grouped by track in track_less order, time order within a track).
/// Per event: op = vendor "Function Name", op_type = "Function Type", function
/// = kernel function, group = func_scope_id (kernel-function instance; 0 with
/// function 0 when none), dir = vendor Direction, bytes = PMU byte counter. Throws decode_error for
/// input that cannot be decoded; data problems that lose nothing essential go to
/// info().diagnostics.
template <cdm_chip Chip>
class cdm_decoder {
 public:
  explicit cdm_decoder(const io::dump_files& files, cdm_options opt = {}) : opt_(opt) {
    decode(files);
  }

  const trace_info& info() const noexcept { return info_; }
  /// Hardware events (TIU, GDMA, SDMA per core; CDMA per port).
  const std::vector<engine_event>& events() const noexcept { return events_; }
  /// Kernel-function spans (engine::kernel_function, unit = core or CDMA port).
  const std::vector<engine_event>& spans() const noexcept { return spans_; }
  /// True when the bmodel rule set was used.
  bool bmodel_path() const noexcept { return bmodel_; }
  /// PMU cycle of the last record (before system-command removal), on the common timeline.
  std::int64_t pmu_tail_cycle() const noexcept { return tail_cycle_; }

  /// The decoded descriptor of a TIU, GDMA or SDMA event from events(); nullptr
  /// when the event has no register-level command (condensed nodes, unmatched
  /// records, CDMA) or cdm_options::keep_instructions was off.
  const regs::instruction* command(const engine_event& e) const {
    const ins_key k{static_cast<std::uint8_t>(e.engine), e.unit, e.cmd_id, e.begin_cycle, 0};
    auto it = std::lower_bound(ins_index_.begin(), ins_index_.end(), k, ins_less);
    if (it == ins_index_.end() || ins_less(k, *it)) return nullptr;
    return &instructions_[it->index];
  }
  /// Memory ranges an event's command reads and writes (empty when unknown).
  std::span<const regs::mem_operand> operands(const engine_event& e) const {
    const auto* c = command(e);
    return c ? std::span<const regs::mem_operand>(c->memory) : std::span<const regs::mem_operand>{};
  }

 private:
  using list = pmu_list;

  struct core_data {
    unsigned core = 0;
    std::string file;
    io::byte_reader bytes;       ///< the core file (descriptors are read back at emit time)
    list pmu[3];                 // tiu, gdma, sdma: windows of events_ while decoding
    io::byte_reader monitor[3];  // the MONITOR block of each engine (records read later)
    std::uint64_t raw_records[3] = {0, 0, 0};
    bool has_monitor[3] = {false, false, false};
    dyn_lists cmds;
    std::span<const cdm::command>
        cmd[3];  // tiu, gdma, sdma commands still to match (trimmed views)
    des_kv_map kv;
    std::map<std::tuple<std::uint32_t, std::uint32_t, cmd_engine>, std::vector<cdm::command>>
        kv_decoded;
    bool has_dyn = false, has_extra = false, has_des_blocks = false;
    std::optional<std::int64_t> anchor;
    std::vector<cdm::command> des_lists[3];  // bmodel: decoded BLOCK_DES_* commands
  };
  struct span_src {
    std::int64_t b, e;
    std::int32_t scope, batch;
    name_id func;
  };
  /// Order of kernel-function pieces: begin, then end.
  static bool span_less(const span_src& a, const span_src& b) noexcept {
    return a.b != b.b ? a.b < b.b : a.e < b.e;
  }
  struct port_data {
    unsigned port = 0;
    std::string file;
    list pmu;
    std::vector<io::byte_reader> monitor;  // MONITOR_CDMA blocks (records read later)
    std::uint64_t raw_records = 0;
    std::optional<unsigned> core;  // core whose SDMA it was aligned to
  };

  // ---------------------------------------------------------------- decode
  void decode(const io::dump_files& files) {
    info_.chip = std::string(Chip::name);
    info_.source = files.label();
    info_.cores = Chip::core_count;
    auto& dg = info_.diagnostics;

    const io::byte_reader gr = files.get("global.profile");
    global_ = parse_global_profile(gr);
    if (!global_.arch) throw decode_error(gr.file(), decode_error::no_offset, "no arch line");
    if (!matches_arch<Chip>(*global_.arch))
      throw decode_error(
          gr.file(), global_.arch_offset,
          "arch=" + std::to_string(*global_.arch) + " is not " + std::string(Chip::name));
    info_.properties.emplace_back("arch", std::to_string(*global_.arch));
    if (global_.max_record_num)
      info_.properties.emplace_back("max_record_num", std::to_string(global_.max_record_num));
    if (global_.tail_offset_ns)
      info_.properties.emplace_back("tail_offset_ns", std::to_string(*global_.tail_offset_ns));
    if (global_.tpu_freq_mhz)
      info_.properties.emplace_back("tpu_freq", std::to_string(*global_.tpu_freq_mhz));
    for (const auto& [k, v] : global_.record_counts) {
      if (global_.max_record_num && v >= global_.max_record_num)
        dg.add(diag::buffer_full, gr.file(), decode_error::no_offset,
               k + "_record=" + std::to_string(v) + " reached max_record_num: records lost");
      else if (v < 2)
        dg.add(diag::empty_block, gr.file(), decode_error::no_offset,
               k + "_record=" + std::to_string(v) + ": fewer than the 2 init records");
    }
    tiu_mhz_ = pick_freq(opt_.tiu_freq_mhz, Chip::tiu_freq_mhz);
    dma_mhz_ = pick_freq(opt_.dma_freq_mhz, Chip::dma_freq_mhz);

    // Core files: core id from the file name (the vendor uses the position in
    // the sorted list, which shifts every later core when one file is missing).
    std::vector<std::pair<unsigned, std::string_view>> core_files;
    std::vector<std::pair<unsigned, std::string_view>> port_files;
    for (auto n : files.names()) {
      if (n.starts_with("cdmlib") && n.ends_with(".profile")) {
        auto c = detail::last_number(n.substr(0, n.size() - 8));
        if (!c || *c >= Chip::core_count)
          throw decode_error(files.label() + "/" + std::string(n), decode_error::no_offset,
                             "core number out of range for " + std::string(Chip::name) + " (" +
                                 std::to_string(Chip::core_count) + " cores)");
        for (auto& [cc, nn] : core_files)
          if (cc == *c)
            throw decode_error(
                files.label() + "/" + std::string(n), decode_error::no_offset,
                "second file for core " + std::to_string(*c) + " (" + std::string(nn) + ")");
        core_files.emplace_back(*c, n);
      } else if (auto p = detail::cdma_port_of(n)) {
        if (*p >= Chip::cdma_port_count)
          throw decode_error(files.label() + "/" + std::string(n), decode_error::no_offset,
                             "CDMA port " + std::to_string(*p) + " exceeds the " +
                                 std::to_string(Chip::cdma_port_count) + " ports of " +
                                 std::string(Chip::name));
        port_files.emplace_back(*p, n);
      }
    }
    if (core_files.empty())
      throw decode_error(files.label(), decode_error::no_offset, "no cdmlib*.profile core file");
    std::sort(core_files.begin(), core_files.end());
    std::sort(port_files.begin(), port_files.end());
    report_missing_cores(files, core_files);

    cores_.reserve(core_files.size());
    for (auto& [c, n] : core_files) read_core(files, c, n);
    ports_.reserve(port_files.size());
    for (auto& [p, n] : port_files) read_port(files, p, n);
    read_records();

    bool has_des = false, has_dyn = false;
    for (auto& cd : cores_) {
      has_des = has_des || cd.has_des_blocks;
      has_dyn = has_dyn || cd.has_dyn;
    }
    bmodel_ = opt_.path == capture_path::bmodel ||
              (opt_.path == capture_path::automatic && (global_.bmodel || (has_des && !has_dyn)));
    if (bmodel_)
      run_bmodel();
    else
      run_operator();
    emit();
  }

  double pick_freq(double forced, double chip_default) {
    if (forced > 0) return forced;
    if (global_.tpu_freq_mhz && *global_.tpu_freq_mhz > 0) return *global_.tpu_freq_mhz;
    if (global_.tpu_freq_mhz)
      info_.diagnostics.add(diag::default_frequency, "global.profile", decode_error::no_offset,
                            "tpu_freq is 0: chip default used");
    return chip_default;
  }

  void report_missing_cores(const io::dump_files& files,
                            const std::vector<std::pair<unsigned, std::string_view>>& present) {
    // A core is expected when global.profile counts records for it, or when a
    // higher core has a file.
    unsigned expected = present.back().first + 1;
    for (const auto& [k, v] : global_.record_counts) {
      if (!k.starts_with("core")) continue;
      if (auto c = detail::last_number(k.substr(0, k.find('_'))); c && *c < Chip::core_count)
        expected = std::max(expected, *c + 1);
    }
    for (unsigned c = 0; c < expected; ++c) {
      bool found = false;
      for (const auto& p : present) found = found || p.first == c;
      if (!found)
        info_.diagnostics.add(diag::missing_file, files.label(), decode_error::no_offset,
                              "no core file for core " + std::to_string(c));
    }
  }

  void read_core(const io::dump_files& files, unsigned core, std::string_view name) {
    auto& dg = info_.diagnostics;
    core_data& cd = cores_.emplace_back();
    cd.core = core;
    const io::byte_reader f = files.get(name);
    cd.file = std::string(f.file());
    cd.bytes = f;
    const auto blocks = read_blocks(f);
    dyn_extra_items extra;
    for (const auto& b : blocks)
      if (b.type == block_type::dyn_extra) {
        extra.add(b.content, dg);
        cd.has_extra = true;
      }
    dyn_context ctx{
        &info_.names,         &tags_,    next_scope_, Chip::cdma_port_count, Chip::dyn_engines,
        Chip::rvt_wrap_limit, Chip::kind};
    cd.cmds.cdma.resize(Chip::cdma_port_count);
    // A complete capture has one command per PMU record: reserve that once so
    // the lists never grow (growing copies them and touches fresh memory
    // twice); pages reserved but not used are never touched.
    {
      std::size_t hint[3] = {0, 0, 0};
      for (const auto& b : blocks) {
        const int k = b.type == block_type::monitor_bd     ? 0
                      : b.type == block_type::monitor_gdma ? 1
                      : b.type == block_type::monitor_sdma ? 2
                                                           : -1;
        if (k >= 0 && hint[k] == 0) hint[k] = b.content.size() / record_size(pmu_kind(k));
      }
      cd.cmds.tiu.reserve(hint[0]);
      cd.cmds.gdma.reserve(hint[1]);
      cd.cmds.sdma.reserve(hint[2]);
    }
    for (const auto& b : blocks) {
      auto monitor = [&](int k, pmu_kind kind) {
        if (cd.has_monitor[k]) {
          dg.add(diag::skipped_block, cd.file, b.header_offset,
                 "second MONITOR block of one engine ignored (the vendor uses the first)");
          return;
        }
        cd.has_monitor[k] = true;
        cd.monitor[k] = b.content;
        if (std::size_t tail = b.content.size() % record_size(kind))
          dg.add(diag::truncated_tail, cd.file, b.content.base() + b.content.size() - tail,
                 "partial PMU record at the end of a MONITOR block");
        cd.raw_records[k] = b.content.size() / record_size(kind);
      };
      switch (b.type) {
        case block_type::monitor_bd:
          monitor(0, pmu_kind::tiu);
          break;
        case block_type::monitor_gdma:
          monitor(1, pmu_kind::gdma);
          break;
        case block_type::monitor_sdma:
          monitor(2, pmu_kind::sdma);
          break;
        case block_type::dyn_data:
          cd.has_dyn = true;
          walk_dyn_data(b.content, ctx, extra, cd.cmds, dg);
          break;
        case block_type::block_des_kv:
          read_des_kv(b.content, cd.kv, dg);
          break;
        case block_type::block_des_bdc:
        case block_type::block_des_gdma:
        case block_type::block_des_sdma: {
          cd.has_des_blocks = true;
          const int k = b.type == block_type::block_des_bdc    ? 0
                        : b.type == block_type::block_des_gdma ? 1
                                                               : 2;
          auto dec =
              decode_buffer(b.content, k == 0 ? cmd_engine::tiu : cmd_engine::dma, Chip::kind);
          if (!dec.error.empty()) dg.add(diag::unknown_enum, cd.file, dec.error_offset, dec.error);
          cd.des_lists[k].insert(cd.des_lists[k].end(), dec.cmds.begin(), dec.cmds.end());
          break;
        }
        case block_type::monitor_cdma:
          dg.add(diag::skipped_block, cd.file, b.header_offset,
                 "MONITOR_CDMA in a core file ignored (CDMA comes from cdma_*.profile)");
          break;
        case block_type::dyn_extra:
          break;
        default:
          dg.add(diag::skipped_block, cd.file, b.header_offset,
                 "block type " + std::to_string(static_cast<unsigned>(b.type)) + " not used");
      }
    }
    next_scope_ = ctx.next_scope;
    if (extra.consumed() < extra.size())
      dg.add(diag::unmatched_command, cd.file, decode_error::no_offset,
             std::to_string(extra.size() - extra.consumed()) + " DYN_EXTRA items without a node");
    for (int k = 0; k < 3; ++k)
      if (!cd.has_monitor[k])
        dg.add(diag::empty_block, cd.file, decode_error::no_offset,
               std::string("no MONITOR block for ") + detail::engine_key(pmu_kind(k)));
  }

  void read_port(const io::dump_files& files, unsigned port, std::string_view name) {
    port_data& pd = ports_.emplace_back();
    pd.port = port;
    const io::byte_reader f = files.get(name);
    pd.file = std::string(f.file());
    for (const auto& b : read_blocks(f)) {
      if (b.type != block_type::monitor_cdma) {
        info_.diagnostics.add(diag::skipped_block, pd.file, b.header_offset,
                              "only MONITOR_CDMA is used in a CDMA file");
        continue;
      }
      pd.monitor.push_back(b.content);
      if (std::size_t tail = b.content.size() % cdma_record_size)
        info_.diagnostics.add(diag::truncated_tail, pd.file,
                              b.content.base() + b.content.size() - tail,
                              "partial CDMA record at the end of a MONITOR_CDMA block");
      pd.raw_records += b.content.size() / cdma_record_size;
    }
  }

  /// Decodes every PMU record straight into the slots of events_, reserved once
  /// for all of them, in output order (cores, engines, then ports); each engine
  /// gets its window. The slots later become its events in place.
  void read_records() {
    std::size_t total = 0;
    for (const auto& cd : cores_)
      for (auto n : cd.raw_records) total += n;
    for (const auto& pd : ports_) total += pd.raw_records;
    events_.reserve(total);
    for (auto& cd : cores_)
      for (int k = 0; k < 3; ++k) {
        const std::size_t first = events_.size();
        if (cd.has_monitor[k]) read_pmu_records(cd.monitor[k], pmu_kind(k), events_);
        cd.pmu[k] = list(events_.data(), first, events_.size());
      }
    for (auto& pd : ports_) {
      const std::size_t first = events_.size();
      for (const auto& b : pd.monitor) read_pmu_records(b, pmu_kind::cdma, events_);
      pd.pmu = list(events_.data(), first, events_.size());
    }
  }

  void count(diag kind, std::uint64_t n, const std::string& file, std::string_view what) {
    if (n) info_.diagnostics.add(kind, file, decode_error::no_offset, std::string(what), n);
  }

  // ------------------------------------------------------------ operator path
  void run_operator() {
    auto& dg = info_.diagnostics;
    const unsigned init = Chip::init_cmd_num;
    for (auto& pd : ports_) {
      count(diag::id_wrap, unwrap_ids(pd.pmu), pd.file, "CDMA id wrap");
      count(diag::out_of_order, adjust_send_retire_order(pd.pmu), pd.file,
            "CDMA send/retire order repaired");
      count(diag::cycle_wrap, unwrap_cycles(pd.pmu), pd.file, "CDMA cycle wrap");
      count(diag::out_of_order, adjust_command_order(pd.pmu), pd.file, "CDMA id order repaired");
    }
    // Core that attaches CDMA when none carries CDMA commands: the last core
    // (the vendor says CORE_NUM-1 of the file order).
    const unsigned last_core = cores_.back().core;
    std::vector<bool> attached(ports_.size(), false);
    for (auto& cd : cores_) {
      for (int k = 0; k < 3; ++k) {
        auto& l = cd.pmu[k];
        count(diag::id_wrap, unwrap_ids(l), cd.file, "id wrap");
        if (k == 2)
          count(diag::out_of_order, adjust_send_retire_order(l), cd.file,
                "SDMA send/retire order repaired");
        count(diag::cycle_wrap, unwrap_cycles(l), cd.file, "cycle wrap");
        if (k == 2)
          count(diag::out_of_order, adjust_command_order(l), cd.file, "SDMA id order repaired");
      }
      if (cd.pmu[0].size() >= init && init > 0)
        cd.anchor = cd.pmu[0][init - 1].end();
      else
        dg.add(diag::other, cd.file, decode_error::no_offset,
               "fewer TIU records than init records: core not aligned");
      for (int k = 0; k < 3; ++k) cd.pmu[k].drop_front(init);
      cd.cmd[0] = drop_front(cd.cmds.tiu, init);
      cd.cmd[1] = drop_front(cd.cmds.gdma, init);
      cd.cmd[2] = drop_front(cd.cmds.sdma, init);

      auto resolver_for = [&cd, this](cmd_engine e) {
        return [&cd, this, e](const cdm::command& d) { return resolve_des(cd, d, e); };
      };
      if (cd.cmds.any_cdma() || cd.core == last_core) {
        for (std::size_t pi = 0; pi < ports_.size(); ++pi) {
          auto& pd = ports_[pi];
          if (attached[pi] || pd.pmu.size() <= 1) continue;
          attached[pi] = true;
          const std::int64_t wait_end = pd.pmu[0].end();
          std::int64_t offset = 0;
          if (!cd.pmu[2].empty())
            offset = wait_end - cd.pmu[2][0].end();
          else
            dg.add(diag::other, pd.file, decode_error::no_offset,
                   "no SDMA record to align CDMA with");
          pd.pmu.drop_front(init);
          const auto cmds = drop_front(cd.cmds.cdma[pd.port], init);
          shift_cycles(pd.pmu, offset);
          cd.pmu[2].drop_front(1);  // the VSDMA send of the C2C barrier
          cd.cmd[2] = drop_front(cd.cmd[2], 1);
          stats_[key(pmu_kind::cdma, pd.port)] =
              pair_sections(pd.pmu, cmds, true, resolver_for(cmd_engine::cdma));
          pd.core = cd.core;
        }
      }
      for (int k = 0; k < 3; ++k)
        stats_[key(pmu_kind(k), cd.core)] = pair_sections(
            cd.pmu[k], cd.cmd[k], true, resolver_for(k == 0 ? cmd_engine::tiu : cmd_engine::dma));
    }
    for (std::size_t pi = 0; pi < ports_.size(); ++pi)
      if (!attached[pi] && ports_[pi].pmu.size() > 1)
        dg.add(diag::other, ports_[pi].file, decode_error::no_offset,
               "CDMA port not attached to a core");
      else if (!attached[pi])
        ports_[pi].pmu.clear();

    align_and_shift();
    // System-command removal: CDMA first, then the core engines.
    bool remain = false;
    for (auto& pd : ports_) {
      omit_system_op(pd.pmu, cdma_sys_code, false);
      remain = remain || !pd.pmu.empty();
    }
    for (auto& cd : cores_) {
      omit_system_op(cd.pmu[0], tiu_sys_code, remain);
      omit_system_op(cd.pmu[1], dma_sys_code, remain);
      omit_system_op(cd.pmu[2], dma_sys_code, remain);
    }
    info_.mode = "mode 0 (PMU only)";
    for (auto& cd : cores_) {
      if (cd.has_dyn && info_.mode.starts_with("mode 0"))
        info_.mode = "mode 1 (condensed commands)";
      if (cd.has_dyn && cd.has_extra) info_.mode = "mode 2 (detailed commands)";
    }
  }

  /// `c` without its first `n` commands (a view: command lists are never copied).
  static std::span<const cdm::command> drop_front(std::span<const cdm::command> c, std::size_t n) {
    return c.subspan(std::min(n, c.size()));
  }

  static std::uint32_t key(pmu_kind k, unsigned unit) {
    return static_cast<std::uint32_t>(k) << 8 | unit;
  }

  /// Decoded commands of a DES reference (lazily, once per buffer and engine).
  const std::vector<cdm::command>* resolve_des(core_data& cd, const cdm::command& d, cmd_engine e) {
    const auto k = std::make_tuple(d.offset, d.cmd_num, e);
    if (auto it = cd.kv_decoded.find(k); it != cd.kv_decoded.end()) return &it->second;
    auto raw = cd.kv.find(std::make_pair(d.offset, d.cmd_num));
    if (raw == cd.kv.end()) return nullptr;
    auto dec = decode_buffer(raw->second, e, Chip::kind);
    if (!dec.error.empty())
      info_.diagnostics.add(diag::unknown_enum, cd.file, dec.error_offset, dec.error);
    return &cd.kv_decoded.emplace(k, std::move(dec.cmds)).first->second;
  }

  /// bigTpuProfile omit_system_commands.
  static bool is_sys(pmu_ref r, std::uint8_t code) {
    const cdm::command* c = r.cmd();
    return (c && c->tsk == code) || r.is_sys_labelled();
  }
  static void omit_system_op(list& r, std::uint8_t code, bool remain) {
    // Narrow the window [b, e), then keep it.
    std::size_t b = 0, e = r.size();
    for (;;) {
      const std::size_t n = e - b;
      if (n >= 3 && r[e - 1].id() - r[e - 2].id() == 1 && r[e - 2].id() <= r[e - 3].id() &&
          is_sys(r[e - 2], code)) {
        e -= 2;
      } else if (n >= 3 && r[b + 1].id() - r[b].id() == 1 && r[b + 2].id() <= r[b + 1].id() &&
                 is_sys(r[b], code)) {
        b += 2;
      } else {
        break;
      }
    }
    r.keep(b, e);
    if (!remain && r.size() <= 2) {  // drop the sys records, keeping the order of the rest
      std::size_t w = 0;
      for (std::size_t i = 0; i < r.size(); ++i)
        if (!is_sys(r[i], code)) {
          if (w != i) r.slot(w) = r.slot(i);
          ++w;
        }
      r.keep(0, w);
    }
  }

  /// Core alignment on the anchors, then the shift to zero (the minimum over
  /// all lists of the first record's start).
  void align_and_shift() {
    std::optional<std::int64_t> base;
    for (auto& cd : cores_)
      if (cd.anchor) {
        base = cd.anchor;
        break;
      }
    auto anchor_of = [&](unsigned core) -> std::int64_t {
      for (auto& cd : cores_)
        if (cd.core == core && cd.anchor && base) return *cd.anchor - *base;
      return 0;
    };
    for (auto& cd : cores_)
      for (auto& l : cd.pmu) shift_cycles(l, anchor_of(cd.core));
    for (auto& pd : ports_)
      if (pd.core) shift_cycles(pd.pmu, anchor_of(*pd.core));

    // Shifts are pending in each list (list::shift): subtract them here.
    std::optional<std::int64_t> first_min, global_min;
    auto scan = [&](const list l) {
      if (l.empty()) return;
      const std::int64_t first = l.front().start() - l.shift;
      first_min = first_min ? std::min(*first_min, first) : first;
      std::int64_t m = std::min(l.front().start(), l.front().end());
      for (std::size_t i = 1; i < l.size(); ++i) {
        const pmu_ref x = l[i];
        m = std::min(m, std::min(x.start(), x.end()));
      }
      m -= l.shift;
      global_min = global_min ? std::min(*global_min, m) : m;
    };
    for (auto& cd : cores_)
      for (auto& l : cd.pmu) scan(l);
    for (auto& pd : ports_) scan(pd.pmu);
    if (!first_min) return;
    std::int64_t t0 = *first_min;
    if (*global_min < t0) {
      info_.diagnostics.add(diag::other, info_.source, decode_error::no_offset,
                            "a record starts before the first record of every list: shifted by "
                            "the global minimum (the vendor tool aborts here)");
      t0 = *global_min;
    }
    tail_cycle_ = std::numeric_limits<std::int64_t>::min();
    for (auto& cd : cores_)
      for (auto& l : cd.pmu) {
        shift_cycles(l, t0);
        if (!l.empty()) tail_cycle_ = std::max(tail_cycle_, l.back().end() - l.shift);
      }
    for (auto& pd : ports_) {
      shift_cycles(pd.pmu, t0);
      if (!pd.pmu.empty()) tail_cycle_ = std::max(tail_cycle_, pd.pmu.back().end() - pd.pmu.shift);
    }
    info_.properties.emplace_back("pmu_tail_cycle", std::to_string(tail_cycle_));
  }

  // ------------------------------------------------------------ bmodel path
  void run_bmodel() {
    auto& dg = info_.diagnostics;
    const unsigned init = Chip::init_cmd_num;
    info_.mode = "bmodel";
    for (auto& cd : cores_) {
      for (int k = 0; k < 3; ++k) {
        auto& l = cd.pmu[k];
        count(diag::id_wrap, unwrap_ids(l), cd.file, "id wrap");
        count(diag::cycle_wrap, unwrap_cycles(l), cd.file, "cycle wrap");
        if (k == 2)
          count(diag::out_of_order, adjust_sdma_order_bmodel(l), cd.file, "SDMA order repaired");
      }
      if (cd.pmu[0].size() >= init && init > 0) {
        cd.anchor = cd.pmu[0][init - 1].end();
        if (opt_.bmodel_rephase)
          for (int k = 1; k < 3; ++k)
            if (cd.pmu[k].size() >= init)
              shift_cycles(cd.pmu[k], cd.pmu[k][init - 1].end() - *cd.anchor);
      } else {
        dg.add(diag::other, cd.file, decode_error::no_offset,
               "fewer TIU records than init records: core not aligned");
      }
      for (int k = 0; k < 3; ++k) {
        cd.pmu[k].drop_front(init);
        auto none = [](const cdm::command&) -> const std::vector<cdm::command>* { return nullptr; };
        stats_[key(pmu_kind(k), cd.core)] = pair_sections(cd.pmu[k], cd.des_lists[k], false, none);
        omit_system_bmodel(cd.pmu[k], k == 0 ? tiu_sys_code : dma_sys_code);
      }
    }
    align_and_shift_bmodel();
  }

  /// tpu-mlir's trimming of system commands at both ends of a list.
  static void omit_system_bmodel(list& r, std::uint8_t code) {
    auto sys = [&](pmu_ref x) { return x.cmd() && x.cmd()->tsk == code; };
    std::size_t e = r.size(), cut = r.size();
    while (e > 0 && sys(r[e - 1])) {
      --e;
      if (r[e].id() == 0) cut = e;
    }
    std::size_t b = 0;
    while (b < cut && sys(r[b])) ++b;
    r.keep(b, cut);
  }

  void align_and_shift_bmodel() {
    // Same arithmetic as the operator path; there are no CDMA ports.
    ports_.clear();
    align_and_shift();
  }

  // ----------------------------------------------------------------- output
  /// Turns the working slots into events in place: each list's records move
  /// down to the next free slot (never up, lists are laid out in output order)
  /// and become their engine_event there.
  void emit() {
    std::vector<track> tracks;
    std::vector<span_src> funcs;
    std::size_t out = 0;  // next free slot
    for (auto& cd : cores_) {
      funcs.clear();
      funcs.reserve(cd.pmu[0].size() + cd.pmu[1].size() + cd.pmu[2].size());
      std::size_t runs[4] = {0, 0, 0, 0};  // funcs of engine k: [runs[k], runs[k + 1])
      bool runs_sorted = true;             // each run in span_less order
      for (int k = 0; k < 3; ++k) {
        const auto kind = pmu_kind(k);
        const engine eng = k == 0 ? engine::tiu : k == 1 ? engine::gdma : engine::sdma;
        const std::size_t before = out;
        const list l = cd.pmu[k];  // a copy: see pmu_list
        // Order checks ride along with the conversion instead of extra passes.
        bool sorted = true;
        std::uint64_t prev = 0;
        for (std::size_t i = 0; i < l.size(); ++i) {
          const rec r = load(l, i);
          emit_one(r, kind, eng, static_cast<std::uint8_t>(cd.core), out);
          if (r.cmd && r.cmd->offset) attach_descriptor(cd, *r.cmd, events_[out]);
          ++out;
          const auto begin = static_cast<std::uint64_t>(r.start);
          sorted &= begin >= prev;  // prev starts at 0, below any u64
          prev = begin;
          const dyn_tag& t = tag_of(r);
          if (t.func || t.scope >= 0) {
            const span_src f{r.start, r.end, t.scope, t.batch, t.func};
            runs_sorted = runs_sorted && (funcs.size() == runs[k] || !span_less(f, funcs.back()));
            funcs.push_back(f);
          }
        }
        finish_track(tracks, eng, cd.core, k == 0 ? tiu_mhz_ : dma_mhz_, cd.raw_records[k], before,
                     out, sorted, cd.has_monitor[k]);
        runs[k + 1] = funcs.size();
      }
      emit_spans(funcs, runs, runs_sorted, static_cast<std::uint8_t>(cd.core));
    }
    for (auto& pd : ports_) {
      const std::size_t before = out;
      const list l = pd.pmu;
      bool sorted = true;
      std::uint64_t prev = 0;
      for (std::size_t i = 0; i < l.size(); ++i) {
        const rec r = load(l, i);
        emit_one(r, pmu_kind::cdma, engine::cdma, static_cast<std::uint8_t>(pd.port), out++);
        const auto begin = static_cast<std::uint64_t>(r.start);
        sorted &= begin >= prev;  // prev starts at 0, below any u64
        prev = begin;
      }
      finish_track(tracks, engine::cdma, pd.port, dma_mhz_, pd.raw_records, before, out, sorted,
                   true);
    }
    events_.resize(out);  // only shrinks: no slot is constructed again
    spans_.shrink_to_fit();
    info_.tracks = std::move(tracks);
    info_.sort_tracks();
    // events_ is in core order, then ports: matches track_less (ports after cores).
    if (!events_.empty()) {
      info_.begin_ns = begin_ns_;
      info_.end_ns = end_ns_;
    }
    std::uint64_t unmatched = 0;
    for (const auto& [k, st] : stats_) {
      const auto kind = pmu_kind(k >> 8);
      std::string name = std::string(detail::engine_key(kind)) + std::to_string(k & 0xFF);
      info_.properties.emplace_back("match." + name,
                                    "matched=" + std::to_string(st.matched) +
                                        " inserted=" + std::to_string(st.inserted) +
                                        " deleted=" + std::to_string(st.deleted));
      count(diag::inserted_record, st.inserted, info_.source,
            "matcher " + name + ": commands without record");
      count(diag::deleted_record, st.deleted, info_.source,
            "matcher " + name + ": records without command");
      if (st.fallback)
        info_.diagnostics.add(
            diag::other, info_.source, decode_error::no_offset,
            "matcher " + name + ": alignment too large, sections paired in order");
      unmatched += st.unmatched;
    }
    // unmatched_out_ (counted by emit_one) includes the sys records the vendor names too.
    count(diag::unmatched_record, unmatched_out_, info_.source,
          "events without a command (named unknown / sys)");
    (void)unmatched;
    if (descriptors_unsupported_)
      info_.diagnostics.add(diag::other, info_.source, decode_error::no_offset,
                            "TIU descriptors without a vendor converter or ops formula: uArch "
                            "rate unknown for them",
                            descriptors_unsupported_);
    std::sort(ins_index_.begin(), ins_index_.end(), ins_less);
    // Free the working data.
    tags_.assign(1, dyn_tag{});
    tags_.shrink_to_fit();
    cores_.clear();
    cores_.shrink_to_fit();
    ports_.clear();
    ports_.shrink_to_fit();
  }

  /// The track of events [before, end); sorts them by begin when needed.
  void finish_track(std::vector<track>& tracks, engine eng, unsigned unit, double mhz,
                    std::uint64_t records, std::size_t before, std::size_t end, bool sorted,
                    bool present) {
    auto first = events_.begin() + static_cast<std::ptrdiff_t>(before);
    auto last = events_.begin() + static_cast<std::ptrdiff_t>(end);
    auto by_begin = [](const engine_event& a, const engine_event& b) {
      return a.begin_cycle < b.begin_cycle;
    };
    if (!sorted) std::stable_sort(first, last, by_begin);
    if (!present && records == 0) return;
    track t;
    t.device = opt_.device;
    t.unit = static_cast<std::uint8_t>(unit);
    t.eng = eng;
    t.freq_mhz = mhz;
    t.records = records;
    t.events = end - before;
    tracks.push_back(t);
  }

  /// `f` holds three runs (TIU, GDMA, SDMA) at runs[0..3]; each is usually
  /// already in (begin, end) order, and merging sorted runs stably gives what
  /// one stable_sort of everything gives, in linear time (`runs_sorted`: checked by emit).
  void emit_spans(std::vector<span_src>& f, const std::size_t (&runs)[4], bool runs_sorted,
                  std::uint8_t core) {
    const auto less = span_less;
    if (runs_sorted) {
      const auto at = [&](int k) { return f.begin() + static_cast<std::ptrdiff_t>(runs[k]); };
      std::inplace_merge(at(0), at(1), at(2), less);
      std::inplace_merge(at(0), at(2), at(3), less);
    } else {
      std::stable_sort(f.begin(), f.end(), less);
    }
    for (std::size_t i = 0; i < f.size();) {
      std::size_t j = i + 1;
      std::int64_t b = f[i].b, e = f[i].e;
      auto same = [&](const span_src& x) {
        return f[i].scope >= 0 ? x.scope == f[i].scope
                               : (x.scope < 0 && x.func == f[i].func && x.batch == f[i].batch);
      };
      while (j < f.size() && same(f[j])) {
        b = std::min(b, f[j].b);
        e = std::max(e, f[j].e);
        ++j;
      }
      engine_event s;
      s.engine = engine::kernel_function;
      s.unit = core;
      s.device = opt_.device;
      s.begin_cycle = static_cast<std::uint64_t>(b);
      s.end_cycle = static_cast<std::uint64_t>(e);
      s.begin_ns = static_cast<double>(b) * 1000.0 / tiu_mhz_;
      s.end_ns = static_cast<double>(e) * 1000.0 / tiu_mhz_;
      s.op = f[i].func;
      s.function = f[i].func;
      s.group = static_cast<std::uint16_t>(f[i].scope < 0 ? 0 : f[i].scope);
      spans_.push_back(s);
      i = j;
    }
  }

  name_id intern(const std::string& s) { return info_.names.intern(s); }

  /// A working record's values, read out of its slot before the slot is reused.
  struct rec {
    std::int64_t start, end;  ///< final cycles (pending shift applied)
    std::uint64_t id, bytes;
    const cdm::command* cmd;
    const cdm::command* tags;
    std::uint8_t flags;
  };
  /// The DYN tags of a record: its DES reference's, else its command's.
  const dyn_tag& tag_of(const rec& r) const noexcept {
    const cdm::command* c = r.tags ? r.tags : r.cmd;
    return tags_[c ? c->tag : 0];
  }
  static rec load(const list& l, std::size_t i) noexcept {
    const pmu_ref x = l[i];
    return {
        x.start() - l.shift, x.end() - l.shift, x.id(), x.bytes(), x.cmd(), x.tags(), x.flags()};
  }

  /// Writes the event of `r` into slot `at` (at or below r's own slot).
  void emit_one(const rec& r, pmu_kind kind, engine eng, std::uint8_t unit, std::size_t at) {
    engine_event& ev = events_[at];  // built in place: r holds everything read from it
    ev = engine_event{};
    ev.device = opt_.device;
    ev.unit = unit;
    ev.engine = eng;
    ev.begin_cycle = static_cast<std::uint64_t>(r.start);
    ev.end_cycle = static_cast<std::uint64_t>(r.end);
    const double mhz = kind == pmu_kind::tiu ? tiu_mhz_ : dma_mhz_;
    ev.begin_ns = static_cast<double>(r.start) * 1000.0 / mhz;
    ev.end_ns = static_cast<double>(r.end) * 1000.0 / mhz;
    // Cmd Id as printed: PMU id + 1, except CDMA ids, which are already 1-based.
    ev.cmd_id = static_cast<std::uint32_t>(kind == pmu_kind::cdma && !bmodel_ ? r.id : r.id + 1);
    const std::uint8_t sys = (r.flags & pmu_ref::sys_send)   ? 1
                             : (r.flags & pmu_ref::sys_wait) ? 2
                                                             : 0;
    const cdm::command* c = r.cmd;
    const dyn_tag& tg = tag_of(r);
    ev.function = tg.func;
    ev.group = static_cast<std::uint16_t>(tg.scope < 0 ? 0 : tg.scope);
    if (c)
      ev.set_flag(engine_event::flag_matched);
    else
      ++unmatched_out_;
    if (at == 0 || ev.begin_ns < begin_ns_) begin_ns_ = ev.begin_ns;
    if (at == 0 || ev.end_ns > end_ns_) end_ns_ = ev.end_ns;
    // Type codes and memory kinds decide the names; cache the interned ids per
    // combination so the per-event path does no string work.
    std::uint8_t type = 31, sp = 0;
    mem_kind src = mem_kind::none, dst = mem_kind::none;
    if (kind == pmu_kind::tiu) {
      if (c) {
        type = c->tsk;
        sp = c->eu;
      } else if (!bmodel_ && sys) {
        type = tiu_sys_code;
        sp = sys == 1 ? 8 : 9;
      }
    } else {
      ev.bytes = r.bytes;
      ev.set_flag(engine_event::flag_has_bytes);
      const bool cdma = kind == pmu_kind::cdma;
      src = dst = mem_kind::ddr;
      if (c) {
        type = c->tsk;
        sp = c->eu;
        if (c->has_reg) {
          src = c->src;
          dst = c->dst;
        } else if (cdma || type == dma_sys_code) {
          // CDMA nodes: Direction forced DDR->DDR; sys nodes: extra_info forced 0.
        } else {
          const unsigned s = (c->extra >> 4) & 3, t = (c->extra >> 6) & 3;
          if (s == 3 || t == 3) {
            info_.diagnostics.count(diag::unknown_enum);  // the vendor raises here
            src = dst = mem_kind::none;
          } else {
            src = static_cast<mem_kind>(s);
            dst = static_cast<mem_kind>(t);
          }
        }
      } else if (bmodel_) {
        dst = mem_kind::lmem;  // tpu-mlir: no command = extra_info 0 = DDR->LMEM
      } else if (sys) {
        type = cdma ? cdma_sys_code : dma_sys_code;
        sp = sys == 1 ? 3 : 4;
      }
      ev.set_dir(to_direction(src, dst));
    }
    const bool reg = c && c->has_reg;
    const std::uint64_t nkey = std::uint64_t{static_cast<std::uint8_t>(kind)} |
                               std::uint64_t{reg} << 2 | std::uint64_t{reg && c->is_short} << 3 |
                               std::uint64_t{type} << 8 | std::uint64_t{sp} << 16 |
                               std::uint64_t{static_cast<std::uint8_t>(src)} << 24 |
                               std::uint64_t{static_cast<std::uint8_t>(dst)} << 32;
    // A direct-mapped cache in front of the map: the per-event path does one
    // multiply and one compare (mode 1 alternates kinds too often for a memo).
    name_slot& slot = name_slots_[(nkey * 0x9E3779B97F4A7C15ull) >> (64 - name_slot_bits)];
    if (slot.key == nkey) {
      ev.op = slot.names.first;
      ev.op_type = slot.names.second;
      return;
    }
    auto it = name_cache_.find(nkey);
    if (it == name_cache_.end()) {
      op_names n;
      if (kind == pmu_kind::tiu) {
        if (reg) {
          auto cls = find_tiu_class(type, sp, c->is_short, Chip::kind);
          n.type = cls ? std::string(cls->name) : "unknown";
          n.name = std::string(tiu_op_name(type, sp));
        } else {
          n = tiu_condensed_names(type, sp);
        }
      } else if (kind == pmu_kind::cdma) {
        n = cdma_names(type, sp);
      } else {
        n = dma_names(type, sp, src, dst, bmodel_ ? "DMA_sys" : "sys");
      }
      it = name_cache_.emplace(nkey, std::make_pair(intern(n.name), intern(n.type))).first;
    }
    slot.key = nkey;
    slot.names = it->second;
    ev.op = it->second.first;
    ev.op_type = it->second.second;
  }

  static constexpr regs::aks_isa::family isa_family =
      Chip::kind == cdm_chip_kind::aksv ? regs::aks_isa::family::aksv : regs::aks_isa::family::aks;

  /// uArch rate (TIU) and, when kept, the decoded descriptor of an event whose
  /// command has a register image in the core file.
  void attach_descriptor(const core_data& cd, const cdm::command& c, engine_event& ev) {
    if (!opt_.keep_instructions && (ev.engine != engine::tiu || !opt_.uarch))
      return;  // nothing to compute
    unsigned bits = 0;
    if (ev.engine == engine::tiu) {
      const auto cls = find_tiu_class(c.tsk, c.eu, c.is_short, Chip::kind);
      bits = cls ? cls->bits : 0;
    } else {
      bits = dma_command_bits(c.tsk, Chip::kind);
    }
    const std::size_t len = bits / 8;
    if (len == 0 || c.offset >= cd.bytes.size() || len > cd.bytes.size() - c.offset) return;
    const auto d = cd.bytes.bytes().subspan(c.offset, len);
    if (opt_.keep_instructions) {
      regs::instruction ins;
      const auto st = regs::aks_isa::decode(isa_family, ev.engine, d, ins);
      if (ev.engine == engine::tiu) {
        ins.op = tiu_op_name(c.tsk, c.eu);
        if (opt_.uarch) {  // the kept instruction has its ops either way
          ev.uarch_rate = ins.uarch_rate();
          if (st != regs::aks_isa::decode_status::ok) ++descriptors_unsupported_;
        }
      }
      if (st == regs::aks_isa::decode_status::ok ||
          st == regs::aks_isa::decode_status::unsupported) {
        ins_index_.push_back({static_cast<std::uint8_t>(ev.engine), ev.unit, ev.cmd_id,
                              ev.begin_cycle, static_cast<std::uint32_t>(instructions_.size())});
        instructions_.push_back(std::move(ins));
      }
    } else if (ev.engine == engine::tiu) {
      const auto r = regs::aks_isa::tiu_ops(isa_family, d);
      ev.uarch_rate = r.uarch_rate();
      if (r.status != regs::aks_isa::decode_status::ok) ++descriptors_unsupported_;
    }
  }

  /// Event identity for command(): track, Cmd Id, start cycle.
  struct ins_key {
    std::uint8_t eng = 0, unit = 0;
    std::uint32_t cmd_id = 0;
    std::uint64_t begin = 0;
    std::uint32_t index = 0;
  };
  static bool ins_less(const ins_key& a, const ins_key& b) noexcept {
    return std::tie(a.eng, a.unit, a.begin, a.cmd_id) < std::tie(b.eng, b.unit, b.begin, b.cmd_id);
  }

  static direction to_direction(mem_kind s, mem_kind d) noexcept {
    constexpr direction t[3][3] = {
        {direction::s2s, direction::s2m, direction::s2l},   // from DDR to DDR, L2M, LMEM
        {direction::m2s, direction::m2m, direction::m2l},   // from L2M
        {direction::l2s, direction::l2m, direction::l2l}};  // from LMEM
    const auto a = static_cast<unsigned>(s), b = static_cast<unsigned>(d);
    return a < 3 && b < 3 ? t[a][b] : direction::unknown;
  }

  cdm_options opt_;
  global_profile global_;
  trace_info info_;
  std::vector<engine_event> events_;
  std::vector<engine_event> spans_;
  std::vector<core_data> cores_;
  std::vector<port_data> ports_;
  std::map<std::uint32_t, match_stats> stats_;
  std::unordered_map<std::uint64_t, std::pair<name_id, name_id>> name_cache_;
  struct name_slot {
    std::uint64_t key = ~std::uint64_t{0};  // no name key has all bits set
    std::pair<name_id, name_id> names;
  };
  static constexpr unsigned name_slot_bits = 8;
  std::vector<name_slot> name_slots_ = std::vector<name_slot>(std::size_t{1} << name_slot_bits);
  std::int32_t next_scope_ = 0;
  std::vector<dyn_tag> tags_ = std::vector<dyn_tag>(1);  ///< command::tag -> tags; 0: none
  double tiu_mhz_ = 1000, dma_mhz_ = 1000;
  bool bmodel_ = false;
  std::int64_t tail_cycle_ = 0;
  std::uint64_t unmatched_out_ = 0;
  std::uint64_t descriptors_unsupported_ = 0;
  std::vector<regs::instruction> instructions_;
  std::vector<ins_key> ins_index_;
  double begin_ns_ = 0, end_ns_ = 0;  // span of the events emitted so far
};

static_assert(decoded_trace<cdm_decoder<chips::aks>>);
static_assert(decoded_trace<cdm_decoder<chips::aksv>>);

}  // namespace tpuprof::cdm
