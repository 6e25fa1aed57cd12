/// Position-paired bmprofile dumps (tpu-mlir's PerfAI time mode): per core a TIU and a GDMA
/// command list framed from `cmd_<base>_<core>_<engine>.dat`, the PMU record with id n is
/// command n of its core's list, and all cores and engines share one ns origin (the chip's
/// format notes §2-§6). Chips opt in with `pmu_indexed` and describe their records.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/command_frame.hpp>
#include <tpuprof/decode/bmprofile/blocks.hpp>
#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/time.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/pmu_record.hpp>

namespace tpuprof::bmprofile {

/// A chip whose PMU records are paired with commands by position.
template <class T>
concept indexed_chip =
    bmprofile_chip<T> && requires(const std::byte* p, std::span<const std::byte> s) {
      requires T::pmu_indexed;
      { T::read_pmu(engine::tiu, p) } -> std::same_as<pmu_record>;
      { T::gdma_direction(s) } -> std::same_as<direction>;
      { T::ends_list(std::string_view{}) } -> std::same_as<bool>;
      { T::command_class(engine::tiu, std::uint64_t{}) } -> std::convertible_to<std::string_view>;
      { T::send_msg_op } -> std::convertible_to<std::string_view>;
      { T::wait_msg_op } -> std::convertible_to<std::string_view>;
    };

/// One framed command, its register class and bytes.
struct listed_command {
  command_frame frame;
  std::string_view cls;
  std::span<const std::byte> bytes;
};

/// The commands and PMU records of one core in one iteration file.
struct indexed_core {
  std::uint16_t iteration = 0;
  std::uint8_t core = 0;
  std::vector<listed_command> cmds[2];  ///< [0] TIU, [1] GDMA
  std::vector<pmu_record> recs[2];      ///< after TIU id unwrap and GDMA trim
  std::size_t raw_records[2] = {0, 0};
  io::byte_reader blocks[2];
};

/// Commands packed back to back from `offset` to the chip's end command, the end of the file,
/// or a head that matches no class (the rest is unreadable: diagnosed).
template <indexed_chip Chip>
std::vector<listed_command> frame_command_list(const io::byte_reader& r, std::uint64_t offset,
                                               engine eng, decode_diagnostics& diag) {
  std::vector<listed_command> out;
  const auto b = r.bytes();
  // `offset` comes from the file: compare remaining sizes, never `off + n`, which wraps for an
  // offset near 2^64 (found by fuzz_bmprofile) and would read before the buffer.
  // An offset past the end frames nothing (as before): the records without commands are
  // counted by the matcher.
  if (offset > b.size()) return out;
  std::size_t off = static_cast<std::size_t>(offset);
  while (b.size() - off >= 8) {
    const auto w0 = io::load_le<std::uint64_t>(b.data() + off);
    const auto w1 = b.size() - off >= 16 ? io::load_le<std::uint64_t>(b.data() + off + 8) : 0;
    const auto f = eng == engine::tiu ? Chip::frame_tiu(w0) : Chip::frame_gdma(w0, w1);
    if (!f) {
      diag.add(diag::unknown_enum, r.file(), r.base() + off,
               std::string(name(eng)) + " command not decodable: rest of the list ignored");
      break;
    }
    if (f->length > b.size() - off) {
      diag.add(diag::truncated_tail, r.file(), r.base() + off,
               std::string(name(eng)) + " command " + std::string(f->op) + " needs " +
                   std::to_string(f->length) + " bytes, " + std::to_string(b.size() - off) +
                   " remain: rest of the list ignored");
      break;
    }
    out.push_back({*f, Chip::command_class(eng, w0), b.subspan(off, f->length)});
    off += f->length;
    if (Chip::ends_list(f->op)) break;
  }
  return out;
}

/// TIU ids: +65536 whenever an id above 65000 is followed by one below 1000 (the vendor's rule).
inline void unwrap_tiu_ids(std::vector<pmu_record>& v) {
  std::uint32_t delta = 0, last = 0;
  for (auto& r : v) {
    if (last > 65000 && r.id < 1000) delta += 65536;
    last = r.id;
    r.id += delta;
  }
}

/// GDMA records kept by the positions of raw id 0 (firmware transfers before and after the
/// network): none -> all; one -> drop the first; two -> strictly between; more -> from the
/// second to the last (exclusive).
inline void trim_gdma(std::vector<pmu_record>& v) {
  std::vector<std::size_t> z;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i].id == 0) z.push_back(i);
  std::size_t lo = 0, hi = v.size();
  if (z.size() == 1) {
    lo = 1;
  } else if (z.size() == 2) {
    lo = z[0] + 1;
    hi = z[1];
  } else if (z.size() > 2) {
    lo = z[1];
    hi = z.back();
  }
  v = std::vector<pmu_record>(v.begin() + static_cast<std::ptrdiff_t>(lo),
                              v.begin() + static_cast<std::ptrdiff_t>(hi));
}

/// The PMU records of one block; a partial tail is diagnosed.
template <indexed_chip Chip>
std::vector<pmu_record> read_records(const io::byte_reader& r, engine eng,
                                     decode_diagnostics& diag) {
  const std::size_t rs = eng == engine::tiu ? Chip::tiu_record_size : Chip::gdma_record_size;
  const std::size_t n = r.size() / rs;
  if (r.size() % rs)
    diag.add(diag::truncated_tail, r.file(), r.base() + n * rs,
             "partial " + std::string(name(eng)) + " PMU record ignored");
  std::vector<pmu_record> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = Chip::read_pmu(eng, r.bytes().data() + k * rs);
  return v;
}

/// Cores the chip does not have, in global.profile's core_list or as blocks of an iteration
/// file: diagnosed (their events are kept, on the core the dump names).
template <indexed_chip Chip>
void check_core_ids(const global_profile& g, const std::vector<iter_blocks>& iters,
                    const std::string& label, decode_diagnostics& diag) {
  const std::string chip(Chip::name), count = std::to_string(Chip::core_count);
  for (int c : g.core_list)
    if (c < 0 || static_cast<unsigned>(c) >= Chip::core_count)
      diag.add(diag::other, label + "/global.profile", decode_error::no_offset,
               "core_list names core " + std::to_string(c) + "; " + chip + " has " + count);
  for (const auto& ib : iters) {
    const std::size_t n =
        std::max({ib.commands.size(), ib.monitor_bd.size(), ib.monitor_gdma.size()});
    if (n > Chip::core_count)
      diag.add(diag::other, ib.file, decode_error::no_offset,
               std::to_string(n) + " cores of COMMAND / MONITOR blocks; " + chip + " has " + count);
  }
}

/// Every core of every iteration: the k-th COMMAND / MONITOR_BD / MONITOR_GDMA block of a file
/// is core k; its command files are `cmd_<base>_<k>_<0 TIU|1 GDMA>.dat` from the block's offset.
template <indexed_chip Chip>
std::vector<indexed_core> read_indexed_cores(const io::dump_files& files,
                                             const std::vector<iter_blocks>& iters,
                                             decode_diagnostics& diag) {
  std::vector<indexed_core> out;
  for (std::size_t it = 0; it < iters.size(); ++it) {
    const auto& ib = iters[it];
    const std::size_t n =
        std::max({ib.commands.size(), ib.monitor_bd.size(), ib.monitor_gdma.size()});
    for (std::size_t k = 0; k < n; ++k) {
      indexed_core c;
      c.iteration = static_cast<std::uint16_t>(it);
      c.core = static_cast<std::uint8_t>(k);
      for (int e = 0; e < 2; ++e) {
        const engine eng = e == 0 ? engine::tiu : engine::gdma;
        const auto& mon = e == 0 ? ib.monitor_bd : ib.monitor_gdma;
        if (k < mon.size()) {
          c.blocks[e] = mon[k];
          c.recs[e] = read_records<Chip>(mon[k], eng, diag);
          c.raw_records[e] = c.recs[e].size();
          if (e == 0)
            unwrap_tiu_ids(c.recs[e]);
          else
            trim_gdma(c.recs[e]);
        }
        if (k >= ib.commands.size()) continue;
        const auto& ci = ib.commands[k];
        char buf[64];
        std::snprintf(buf, sizeof buf, "cmd_%llx_%zu_%d.dat",
                      static_cast<unsigned long long>(e == 0 ? ci.bd_base : ci.gdma_base), k, e);
        if (auto r = files.find(buf))
          c.cmds[e] =
              frame_command_list<Chip>(*r, e == 0 ? ci.bd_offset : ci.gdma_offset, eng, diag);
        else
          diag.add(diag::missing_file, files.label() + "/" + buf, decode_error::no_offset,
                   "command file missing: " + std::string(name(eng)) + " events without ops");
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace tpuprof::bmprofile
