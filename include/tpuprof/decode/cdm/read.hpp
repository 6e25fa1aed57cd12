/// cdm read stage: global.profile, the core and CDMA port files, and every PMU
/// record, into a decode_state (the first stage of cdm_decoder).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/clock_check.hpp>
#include <tpuprof/decode/cdm/blocks.hpp>
#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/decode/cdm/state.hpp>
#include <tpuprof/detail/huge_pages.hpp>
#include <tpuprof/io/dump_files.hpp>

namespace tpuprof::cdm::detail {

/// (core or port number, file name) pairs.
using file_list = std::vector<std::pair<unsigned, std::string_view>>;

/// A clock (`which`: TIU or DMA): the forced one (when set and usable), else
/// tpu_freq of global.profile (when usable), else the chip default, named in
/// the note (one per clock, so the two notes say different things).
inline double pick_freq(decode_state& st, std::optional<double> forced, double chip_default,
                        std::string_view which) {
  if (forced && usable_clock_mhz(*forced)) return *forced;
  if (st.global.tpu_freq_mhz && usable_clock_mhz(*st.global.tpu_freq_mhz))
    return *st.global.tpu_freq_mhz;
  if (st.global.tpu_freq_mhz)
    st.info.diagnostics.add(diag::default_frequency, st.info.source + "/global.profile",
                            st.global.tpu_freq_offset,
                            "tpu_freq " + clock_problem(*st.global.tpu_freq_mhz) +
                                ": chip default used for the " + std::string(which) + " clock");
  return chip_default;
}

/// Reads global.profile into `st`: arch check, properties, diagnostics of the
/// record counts, and the clocks.
template <class Chip>
void read_global(const io::dump_files& files, decode_state& st) {
  st.info.chip = std::string(Chip::name);
  st.info.source = files.label();
  st.info.cores = Chip::core_count;
  auto& dg = st.info.diagnostics;

  const io::byte_reader gr = files.get("global.profile");
  st.global = parse_global_profile(gr);
  if (!st.global.arch) throw decode_error(gr.file(), gr.size(), "no arch line");
  if (!matches_arch<Chip>(*st.global.arch))
    throw decode_error(
        gr.file(), st.global.arch_offset,
        "arch=" + std::to_string(*st.global.arch) + " is not " + std::string(Chip::name));
  st.info.properties.emplace_back("arch", std::to_string(*st.global.arch));
  if (st.global.max_record_num)
    st.info.properties.emplace_back("max_record_num", std::to_string(st.global.max_record_num));
  if (st.global.tail_offset_ns)
    st.info.properties.emplace_back("tail_offset_ns", std::to_string(*st.global.tail_offset_ns));
  if (st.global.tpu_freq_mhz)
    st.info.properties.emplace_back("tpu_freq", std::to_string(*st.global.tpu_freq_mhz));
  for (const auto& [k, v] : st.global.record_counts) {
    if (st.global.max_record_num && v >= st.global.max_record_num)
      dg.add(diag::buffer_full, gr.file(), decode_error::no_offset,
             k + "_record=" + std::to_string(v) + " reached max_record_num: records lost");
    else if (v < 2)
      dg.add(diag::empty_block, gr.file(), decode_error::no_offset,
             k + "_record=" + std::to_string(v) + ": fewer than the 2 init records");
  }
  st.tiu_mhz = pick_freq(st, st.opt.tiu_freq_mhz, Chip::tiu_freq_mhz, "TIU");
  st.dma_mhz = pick_freq(st, st.opt.dma_freq_mhz, Chip::dma_freq_mhz, "DMA");
}

template <class Chip>
void report_missing_cores(const io::dump_files& files, decode_state& st, const file_list& present) {
  // A core is expected when global.profile counts records for it, or when a
  // higher core has a file.
  unsigned expected = present.back().first + 1;
  for (const auto& [k, v] : st.global.record_counts) {
    if (!k.starts_with("core")) continue;
    if (auto c = last_number(k.substr(0, k.find('_'))); c && *c < Chip::core_count)
      expected = std::max(expected, *c + 1);
  }
  for (unsigned c = 0; c < expected; ++c) {
    bool found = false;
    for (const auto& p : present) found = found || p.first == c;
    if (!found)
      st.info.diagnostics.add(diag::missing_file, files.label(), decode_error::no_offset,
                              "no core file for core " + std::to_string(c));
  }
}

/// Reads one core file: its blocks, DYN_DATA commands, descriptor buffers and
/// where its PMU records are (read later by read_records).
template <class Chip>
void read_core(decode_state& st, const io::dump_files& files, unsigned core,
               std::string_view name) {
  auto& dg = st.info.diagnostics;
  core_data& cd = st.cores.emplace_back();
  cd.cmds = std::move(st.reuse_cmds);
  for (auto* l : {&cd.cmds.tiu, &cd.cmds.gdma, &cd.cmds.sdma}) l->clear();  // capacity stays
  cd.cmds.cdma.clear();
  cd.core = core;
  const io::byte_reader f = files.get(name);
  cd.file = std::string(f.file());
  cd.bytes = f;
  const auto blocks = read_blocks(f);
  // A capture writes at least the init records of every engine; with record
  // counts in global.profile, account_records() counts the loss exactly.
  if (f.size() == 0 && st.global.record_counts.empty())
    dg.add(diag::truncated_tail, cd.file, 0, "empty core file: its records are lost");
  dyn_extra_items extra;
  for (const auto& b : blocks)
    if (b.type == block_type::dyn_extra) {
      extra.add(b.content, dg);
      cd.has_extra = true;
    }
  dyn_context ctx{&st.info.names, &st.tags, st.next_scope};
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
    tpuprof::detail::reserve_huge(cd.cmds.tiu, hint[0]);
    tpuprof::detail::reserve_huge(cd.cmds.gdma, hint[1]);
    tpuprof::detail::reserve_huge(cd.cmds.sdma, hint[2]);
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
        walk_dyn_data<Chip>(b.content, ctx, extra, cd.cmds, dg);
        files.release(b.content);  // register images are read back from the page cache
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
        auto dec = decode_buffer<Chip>(b.content, k == 0 ? cmd_engine::tiu : cmd_engine::dma);
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
  st.next_scope = ctx.next_scope;
  if (extra.consumed() < extra.size())
    dg.add(diag::unmatched_command, cd.file, decode_error::no_offset,
           std::to_string(extra.size() - extra.consumed()) + " DYN_EXTRA items without a node");
  for (int k = 0; k < 3; ++k)
    if (!cd.has_monitor[k])
      dg.add(diag::empty_block, cd.file, decode_error::no_offset,
             std::string("no MONITOR block for ") + engine_key(pmu_kind(k)));
}

/// Expected-vs-decoded accounting: every `coreC_<engine>_record=N` and
/// `cdma_portP_record=N` of global.profile against the records of the core's
/// or port's file (a buffer that filled up keeps fewer: reported as buffer_full
/// by read_global). A shortfall is data loss at the end of that file.
inline void account_records(decode_state& st) {
  const auto& g = st.global;
  for (const auto& [key, want] : g.record_counts) {
    if (g.max_record_num && want >= g.max_record_num) continue;
    std::uint64_t have = 0;
    const std::string* file = nullptr;
    std::uint64_t end = 0;
    for (const auto& cd : st.cores)
      for (int k = 0; k < 3; ++k)
        if (key == "core" + std::to_string(cd.core) + "_" + std::string(engine_key(pmu_kind(k)))) {
          have = cd.raw_records[k];
          file = &cd.file;
          end = cd.bytes.base() + cd.bytes.size();
        }
    for (const auto& pd : st.ports)
      if (key == "cdma_port" + std::to_string(pd.port)) {
        have = pd.raw_records;
        file = &pd.file;
        end = pd.monitor.empty() ? 0 : pd.monitor.back().base() + pd.monitor.back().size();
      }
    if (file && have < want)  // no file at all: report_missing_cores says so
      st.info.diagnostics.add(diag::truncated_tail, *file, end,
                              key + "_record=" + std::to_string(want) + " in global.profile, " +
                                  std::to_string(have) + " records in the file",
                              want - have);
  }
}

/// Reads one CDMA port file (MONITOR_CDMA blocks only).
inline void read_port(decode_state& st, const io::dump_files& files, unsigned port,
                      std::string_view name) {
  port_data& pd = st.ports.emplace_back();
  pd.port = port;
  const io::byte_reader f = files.get(name);
  pd.file = std::string(f.file());
  for (const auto& b : read_blocks(f)) {
    if (b.type != block_type::monitor_cdma) {
      st.info.diagnostics.add(diag::skipped_block, pd.file, b.header_offset,
                              "only MONITOR_CDMA is used in a CDMA file");
      continue;
    }
    pd.monitor.push_back(b.content);
    if (std::size_t tail = b.content.size() % cdma_record_size)
      st.info.diagnostics.add(diag::truncated_tail, pd.file,
                              b.content.base() + b.content.size() - tail,
                              "partial CDMA record at the end of a MONITOR_CDMA block");
    pd.raw_records += b.content.size() / cdma_record_size;
  }
}

/// Decodes every PMU record straight into the slots of st.events, reserved once

/// for all of them, in output order (cores, engines, then ports); each engine
/// gets its window. The slots later become its events in place.
/// The records' file pages are released once read (io::dump_files::release).
inline void read_records(const io::dump_files& files, decode_state& st) {
  std::size_t total = 0;
  for (const auto& cd : st.cores)
    for (auto n : cd.raw_records) total += n;
  for (const auto& pd : st.ports) total += pd.raw_records;
  tpuprof::detail::reserve_huge(st.events, total);
  for (auto& cd : st.cores)
    for (int k = 0; k < 3; ++k) {
      const std::size_t first = st.events.size();
      if (cd.has_monitor[k]) {
        read_pmu_records(cd.monitor[k], pmu_kind(k), st.events);
        files.release(cd.monitor[k]);
      }
      cd.pmu[k] = list(st.events.data(), first, st.events.size());
    }
  for (auto& pd : st.ports) {
    const std::size_t first = st.events.size();
    for (const auto& b : pd.monitor) {
      read_pmu_records(b, pmu_kind::cdma, st.events);
      files.release(b);
    }
    pd.pmu = list(st.events.data(), first, st.events.size());
  }
}

/// The core and port files, sorted by number (core id from the file name:
/// the vendor uses the position in the sorted list, which shifts every later
/// core when one file is missing). Throws decode_error for bad numbers.
template <class Chip>
void split_files(const io::dump_files& files, file_list& core_files, file_list& port_files) {
  for (auto n : files.names()) {
    if (n.starts_with("cdmlib") && n.ends_with(".profile")) {
      auto c = last_number(n.substr(0, n.size() - 8));
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
    } else if (auto p = cdma_port_of(n)) {
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
}

/// Lists the core and port files, then reads global.profile, every file and
/// every record.
template <class Chip>
void read_dump(const io::dump_files& files, decode_state& st) {
  read_global<Chip>(files, st);
  file_list core_files, port_files;
  split_files<Chip>(files, core_files, port_files);
  report_missing_cores<Chip>(files, st, core_files);

  st.cores.reserve(core_files.size());
  for (auto& [c, n] : core_files) read_core<Chip>(st, files, c, n);
  st.ports.reserve(port_files.size());
  for (auto& [p, n] : port_files) read_port(st, files, p, n);
  account_records(st);
  read_records(files, st);
}

}  // namespace tpuprof::cdm::detail
