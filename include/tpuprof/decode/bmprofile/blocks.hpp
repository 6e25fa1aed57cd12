/// The binary block container of iter<N>.profile (and bmlib files): `u32 type,
/// u32 len, len bytes` until EOF; plus the SUMMARY, COMMAND and DYN records.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <tpuprof/diagnostics.hpp>
#include <tpuprof/io/byte_reader.hpp>

namespace tpuprof::bmprofile {

enum class block_type : std::uint32_t {
  summary = 1,
  compiler_log = 2,
  monitor_bd = 3,
  monitor_gdma = 4,
  dyn_data = 5,
  dyn_extra = 6,
  firmware_log = 7,
  command = 8,
  bmlib = 9,
  bmlib_extra = 10,
  monitor_sdma = 11,
  monitor_cdma = 12,
  des_bdc = 13,
  des_gdma = 14,
  des_sdma = 15,
  des_cdma = 16,
};

/// SUMMARY block (36 bytes): one subnet run on the host clock.
struct subnet_summary {
  std::uint32_t iteration = 0;
  std::int32_t subnet_id = 0;
  std::int32_t subnet_type = 0;  ///< TPU=0, CPU=1, MERGE=2, SWITCH=3
  std::uint64_t begin_us = 0;
  std::uint64_t end_us = 0;
  std::uint64_t extra = 0;  ///< TPU: nonzero = dynamic subnet
};

/// COMMAND block: where this subnet's commands start in the cmd_*.dat files.
struct command_index {
  std::uint64_t gdma_base = 0, gdma_offset = 0, bd_base = 0, bd_offset = 0;
  std::uint64_t gdma_count = 0, bd_count = 0;  ///< sums over groups
};

/// MCU (firmware) record, DYN_DATA (32 bytes).
struct dyn_record {
  std::uint32_t profile_id = 0;
  std::uint32_t type = 0;
  std::uint64_t id = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

enum class dyn_type : std::uint32_t {
  func = 0,
  node_set = 1,
  node_wait = 2,
  cdma = 3,
  gde = 4,
  sort = 5,
  nms = 6
};

/// The blocks of one iter file, by kind; k-th occurrence of a monitor block
/// belongs to the k-th core (BM1688 writes one set per core).
struct iter_blocks {
  std::string file;
  std::uint64_t end = 0;  ///< offset of the end of the file (where missing blocks would follow)
  bool has_summary = false;
  subnet_summary summary;
  std::vector<command_index> commands;
  std::vector<io::byte_reader> monitor_bd;    ///< per core
  std::vector<io::byte_reader> monitor_gdma;  ///< per core
  std::vector<io::byte_reader> dyn_data;      ///< per core
  std::vector<io::byte_reader> dyn_extra;     ///< per core
};

/// Splits an iter file into blocks. Throws decode_error on a truncated header
/// or payload; unknown block types are skipped with a diagnostic.
inline iter_blocks read_iter_blocks(const io::byte_reader& r, decode_diagnostics& diag) {
  iter_blocks b;
  b.file = std::string(r.file());
  b.end = r.base() + r.size();
  std::size_t off = 0;
  while (off < r.size()) {
    if (r.size() - off < 8) {
      diag.add(
          diag::truncated_tail, r.file(), r.base() + off,
          "trailing " + std::to_string(r.size() - off) + " bytes after the last block ignored");
      break;
    }
    const auto type = r.u32(off);
    const auto len = r.u32(off + 4);
    if (len > r.size() - off - 8)
      r.fail(off, "block of type " + std::to_string(type) + " claims " + std::to_string(len) +
                      " bytes, only " + std::to_string(r.size() - off - 8) + " remain");
    io::byte_reader payload = r.sub(off + 8, len);
    if (len == 0)
      diag.add(diag::empty_block, r.file(), r.base() + off,
               "empty block of type " + std::to_string(type));
    switch (static_cast<block_type>(type)) {
      case block_type::summary:
        if (len < 36) r.fail(off, "SUMMARY block shorter than 36 bytes");
        b.has_summary = true;
        b.summary = {payload.u32(0),
                     static_cast<std::int32_t>(payload.u32(4)),
                     static_cast<std::int32_t>(payload.u32(8)),
                     payload.u64(12),
                     payload.u64(20),
                     payload.u64(28)};
        break;
      case block_type::command: {
        if (len < 36) r.fail(off, "COMMAND block shorter than 36 bytes");
        command_index c{payload.u64(0), payload.u64(8), payload.u64(16), payload.u64(24), 0, 0};
        const std::uint32_t groups = payload.u32(32);
        if (groups > (len - 36) / 8)
          r.fail(off + 8 + 32, "COMMAND block claims " + std::to_string(groups) +
                                   " groups, room for " + std::to_string((len - 36) / 8));
        for (std::uint32_t g = 0; g < groups; ++g) {
          c.gdma_count += payload.u32(36 + 8 * g);
          c.bd_count += payload.u32(40 + 8 * g);
        }
        b.commands.push_back(c);
        break;
      }
      case block_type::monitor_bd:
        b.monitor_bd.push_back(payload);
        break;
      case block_type::monitor_gdma:
        b.monitor_gdma.push_back(payload);
        break;
      case block_type::dyn_data:
        b.dyn_data.push_back(payload);
        break;
      case block_type::dyn_extra:
        b.dyn_extra.push_back(payload);
        break;
      case block_type::compiler_log:
      case block_type::firmware_log:
      case block_type::bmlib:
      case block_type::bmlib_extra:
        break;  // known, not used for device events
      default:
        diag.add(diag::skipped_block, r.file(), r.base() + off,
                 "unknown block type " + std::to_string(type) + " skipped");
        break;
    }
    off += 8 + static_cast<std::size_t>(len);
  }
  return b;
}

/// DYN_DATA records; a partial tail record is ignored with a diagnostic.
inline std::vector<dyn_record> read_dyn_records(const io::byte_reader& r,
                                                decode_diagnostics& diag) {
  std::vector<dyn_record> v;
  const std::size_t n = r.size() / 32;
  if (r.size() % 32)
    diag.add(diag::truncated_tail, r.file(), r.base() + n * 32, "partial DYN_DATA record ignored");
  v.reserve(n);  // bounded by the block length, which was checked against the file
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t o = i * 32;
    v.push_back({r.u32(o), r.u32(o + 4), r.u64(o + 8), r.u64(o + 16), r.u64(o + 24)});
  }
  return v;
}

/// One DYN_EXTRA entry: text (STRING) or a raw command descriptor (BINARY)
/// attached to the MCU record with the same profile_id.
struct dyn_extra_entry {
  std::uint32_t profile_id = 0;
  std::uint32_t type = 0;  ///< 0 STRING, 1 BINARY, 100 CUSTOM
  io::byte_reader content;
};

/// DYN_EXTRA entries (`u32 profile_id, u32 type, u32 len, len bytes`); a
/// truncated tail is dropped with a diagnostic, unknown types are counted.
inline std::vector<dyn_extra_entry> read_dyn_extra(const io::byte_reader& r,
                                                   decode_diagnostics& diag) {
  std::vector<dyn_extra_entry> v;
  std::size_t off = 0;
  while (off < r.size()) {
    if (r.size() - off < 12) {
      diag.add(diag::truncated_tail, r.file(), r.base() + off,
               "partial DYN_EXTRA entry header ignored");
      break;
    }
    const auto pid = r.u32(off), type = r.u32(off + 4), len = r.u32(off + 8);
    if (len > r.size() - off - 12) {
      diag.add(diag::truncated_tail, r.file(), r.base() + off,
               "DYN_EXTRA entry claims " + std::to_string(len) + " bytes, only " +
                   std::to_string(r.size() - off - 12) + " remain: dropped");
      break;
    }
    if (type != 0 && type != 1 && type != 100)
      diag.add(diag::unknown_enum, r.file(), r.base() + off + 4,
               "unknown DYN_EXTRA type " + std::to_string(type));
    v.push_back({pid, type, r.sub(off + 12, len, "DYN_EXTRA entry")});
    off += 12 + static_cast<std::size_t>(len);
  }
  return v;
}

}  // namespace tpuprof::bmprofile
