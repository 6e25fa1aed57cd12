/// The HTML report's timeline encoding: per lane (track), one column of
/// zigzag varints per event field, constant and derived columns folded.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::detail::html {

/// Columns of a lane, each a stream of LEB128 varints of zigzag values (the
/// value itself, or its difference from the previous one). A column whose
/// values are all equal is written as that constant; a column that is a
/// function of another one (op type of op, function of group) as that map.
/// report.js decodes them.
enum col : std::size_t {
  c_begin_cycle,  // begin_cycle - end_cycle of the previous event
  c_cycles,       // end_cycle - begin_cycle
  c_begin_res,    // delta; begin_ns - begin_cycle * 1000 / freq, in ps
  c_end_res,      // delta; end_ns - end_cycle * 1000 / freq, in ps
  c_op,
  c_op_type,
  c_cmd_id,  // delta
  c_bytes,
  c_uarch,  // 0 = unknown, else round(rate * 1e4) + 1
  c_layer,  // delta
  c_function,
  c_flags,  // engine_event::dir_flags
  c_group,  // delta
  col_count
};
inline constexpr std::array<std::string_view, col_count> col_names{
    "bc", "cy", "rb", "re", "op", "ty", "id", "by", "ua", "ly", "fn", "fl", "gr"};
inline constexpr std::array<bool, col_count> col_delta{
    false, false, true, true, false, false, true, false, false, true, false, false, true};

/// Candidate (column, key column) pairs: the column may be a function of the key.
inline constexpr std::array<std::pair<col, col>, 4> col_maps{
    {{c_op_type, c_op}, {c_function, c_group}, {c_function, c_op}, {c_flags, c_op}}};

struct column {
  std::vector<std::uint8_t> bytes;
  std::int64_t first = 0, prev = 0;
  bool constant = true;
  /// Appends `v`, written as the difference from `base` (0 for raw values).
  void add(std::int64_t v, std::int64_t base, bool is_first) {
    if (is_first)
      first = v;
    else if (v != first)
      constant = false;
    const auto x =
        static_cast<std::int64_t>(static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(base));
    std::uint64_t z = (static_cast<std::uint64_t>(x) << 1) ^ static_cast<std::uint64_t>(x >> 63);
    while (z >= 0x80) {
      bytes.push_back(static_cast<std::uint8_t>(z | 0x80));
      z >>= 7;
    }
    bytes.push_back(static_cast<std::uint8_t>(z));
  }
};

/// Whether a column is a function of a key column, and the map if so.
struct column_map {
  bool ok = true;
  std::int64_t last_key = -1, last_val = 0;
  std::map<std::int64_t, std::int64_t> m;
  void add(std::int64_t key, std::int64_t val) {
    if (!ok || (key == last_key && val == last_val)) return;
    auto [it, fresh] = m.try_emplace(key, val);
    if (!fresh && it->second != val) {
      ok = false;
      m.clear();
      return;
    }
    last_key = key;
    last_val = val;
  }
};

struct lane {
  track_key key;
  double freq = 1000;
  std::uint64_t n = 0;
  double last_begin = -std::numeric_limits<double>::infinity();
  bool ordered = true;
  std::int64_t prev_end = 0;  // end_cycle of the previous event
  std::array<column, col_count> cols;
  std::array<column_map, col_maps.size()> maps;

  static std::int64_t ps(double d) noexcept {
    return std::isfinite(d) && std::fabs(d) < 9e12 ? std::llround(d * 1000.0) : 0;
  }
  void add(const engine_event& e) {
    if (e.begin_ns < last_begin) ordered = false;
    last_begin = e.begin_ns;
    const auto bc = static_cast<std::int64_t>(e.begin_cycle);
    const auto ec = static_cast<std::int64_t>(e.end_cycle);
    // Same expression as report.js, so the residual is exactly what it adds back.
    const double bns = static_cast<double>(bc) * 1000.0 / freq;
    const double ens = static_cast<double>(ec) * 1000.0 / freq;
    const std::int64_t v[col_count] = {
        bc,
        ec - bc,
        ps(e.begin_ns - bns),
        ps(e.end_ns - ens),
        e.op,
        e.op_type,
        e.cmd_id,
        e.has_bytes() ? static_cast<std::int64_t>(e.bytes) : 0,
        std::isnan(e.uarch_rate)
            ? 0
            : std::llround(std::clamp(static_cast<double>(e.uarch_rate), 0.0, 1e6) * 1e4) + 1,
        e.layer_id,
        e.function,
        e.dir_flags,
        e.group};
    for (std::size_t c = 0; c < col_count; ++c)
      cols[c].add(v[c], c == c_begin_cycle ? prev_end : col_delta[c] ? cols[c].prev : 0, n == 0);
    for (std::size_t c = 0; c < col_count; ++c) cols[c].prev = v[c];
    for (std::size_t k = 0; k < col_maps.size(); ++k)
      maps[k].add(v[col_maps[k].second], v[col_maps[k].first]);
    prev_end = ec;
    ++n;
  }
  /// The map a non-constant column is written as, or null.
  const column_map* map_of(std::size_t c) const noexcept {
    for (std::size_t k = 0; k < col_maps.size(); ++k)
      if (col_maps[k].first == c && maps[k].ok && !cols[col_maps[k].second].constant)
        return &maps[k];
    return nullptr;
  }
  std::string_view map_key(std::size_t c) const noexcept {
    for (std::size_t k = 0; k < col_maps.size(); ++k)
      if (col_maps[k].first == c && maps[k].ok && !cols[col_maps[k].second].constant)
        return col_names[col_maps[k].second];
    return {};
  }
  bool streamed(std::size_t c) const noexcept { return !cols[c].constant && !map_of(c); }
};
}  // namespace tpuprof::detail::html
