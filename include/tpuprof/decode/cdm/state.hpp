/// cdm_state: what a cdm decode builds, stage by stage (read, operator or bmodel
/// path, emit): per-core and per-port working lists, the trace being built, and
/// the small helpers the stages share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tpuprof/decode/cdm/commands.hpp>
#include <tpuprof/decode/cdm/dyn.hpp>
#include <tpuprof/decode/cdm/global.hpp>
#include <tpuprof/decode/cdm/matcher.hpp>
#include <tpuprof/decode/cdm/options.hpp>
#include <tpuprof/decode/cdm/pmu.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::cdm::detail {

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

using list = pmu_list;

/// One core file: its records, commands and descriptor buffers; one CDMA port file.
struct core_data {
  unsigned core = 0;
  std::string file;
  io::byte_reader bytes;       ///< the core file (descriptors are read back at emit time)
  list pmu[3];                 // tiu, gdma, sdma: windows of events_ while decoding
  io::byte_reader monitor[3];  // the MONITOR block of each engine (records read later)
  std::uint64_t raw_records[3] = {0, 0, 0};
  bool has_monitor[3] = {false, false, false};
  dyn_lists cmds;
  std::span<const command> cmd[3];  // tiu, gdma, sdma commands still to match (trimmed views)
  des_kv_map kv;
  std::map<std::tuple<std::uint32_t, std::uint32_t, cmd_engine>, std::vector<command>> kv_decoded;
  bool has_dyn = false, has_extra = false, has_des_blocks = false;
  std::optional<std::int64_t> anchor;
  std::vector<command> des_lists[3];  // bmodel: decoded BLOCK_DES_* commands
};
struct span_src {
  std::int64_t b, e;
  std::int32_t scope, batch;
  name_id func;
};
/// Order of kernel-function pieces: begin, then end.
inline bool span_less(const span_src& a, const span_src& b) noexcept {
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

/// Event identity for command(): track, Cmd Id, start cycle.
struct ins_key {
  std::uint8_t eng = 0, unit = 0;
  std::uint32_t cmd_id = 0;
  std::uint64_t begin = 0;
  std::uint32_t index = 0;
};
inline bool ins_less(const ins_key& a, const ins_key& b) noexcept {
  return std::tie(a.eng, a.unit, a.begin, a.cmd_id) < std::tie(b.eng, b.unit, b.begin, b.cmd_id);
}

/// Everything a decode builds; the stages fill it in order.
struct decode_state {
  cdm_options opt;
  global_profile global;
  trace_info info;
  std::vector<engine_event> events;
  std::vector<engine_event> spans;
  std::vector<core_data> cores;
  /// An earlier core's command lists for read_core to fill again (cdm::stream:
  /// their pages are already there; fresh ones cost a fault and a clear each).
  dyn_lists reuse_cmds;
  std::vector<port_data> ports;
  std::map<std::uint32_t, match_stats> stats;
  std::unordered_map<std::uint64_t, std::pair<name_id, name_id>> name_cache;
  struct name_slot {
    std::uint64_t key = ~std::uint64_t{0};  // no name key has all bits set
    std::pair<name_id, name_id> names;
  };
  static constexpr unsigned name_slot_bits = 8;
  std::vector<name_slot> name_slots = std::vector<name_slot>(std::size_t{1} << name_slot_bits);
  std::int32_t next_scope = 0;
  std::vector<dyn_tag> tags = std::vector<dyn_tag>(1);  ///< command::tag -> tags; 0: none
  double tiu_mhz = 1000, dma_mhz = 1000;
  bool bmodel = false;
  std::int64_t tail_cycle = 0;
  std::uint64_t unmatched_out = 0;
  std::uint64_t descriptors_unsupported = 0;
  std::vector<regs::instruction> instructions;
  std::vector<ins_key> ins_index;
  double begin_ns = 0, end_ns = 0;  // span of the events emitted so far
};

inline void count(decode_state& st, diag kind, std::uint64_t n, const std::string& file,
                  std::string_view what) {
  if (n) st.info.diagnostics.add(kind, file, decode_error::no_offset, std::string(what), n);
}

/// `c` without its first `n` commands (a view: command lists are never copied).
inline std::span<const command> drop_front(std::span<const command> c, std::size_t n) {
  return c.subspan(std::min(n, c.size()));
}

inline std::uint32_t key(pmu_kind k, unsigned unit) {
  return static_cast<std::uint32_t>(k) << 8 | unit;
}

}  // namespace tpuprof::cdm::detail
