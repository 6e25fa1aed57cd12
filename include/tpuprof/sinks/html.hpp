/// html_sink and write_html: one self-contained HTML report (overview, canvas
/// timeline, bandwidth charts, sortable tables); inline JS and CSS, no network.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/sinks/detail/html_assets.hpp>
#include <tpuprof/sinks/detail/text_format.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/version.hpp>
#include <tpuprof/views/bandwidth.hpp>
#include <tpuprof/views/event_range.hpp>
#include <tpuprof/views/group_by.hpp>
#include <tpuprof/views/idle_gaps.hpp>
#include <tpuprof/views/memory_map.hpp>
#include <tpuprof/views/summary.hpp>
#include <tpuprof/views/top_n.hpp>
#include <tpuprof/views/track_order.hpp>
#include <tpuprof/views/utilization.hpp>

namespace tpuprof::sinks {

/// What the HTML report contains.
struct html_options {
  std::string title;                     ///< page title; empty = "<chip> profile: <source>"
  std::size_t top_n = 100;               ///< rows of the top-N tables (by duration, by bandwidth)
  std::size_t gap_list = 50;             ///< longest idle gaps listed
  double min_gap_ns = 0;                 ///< idle gaps shorter than this are not counted
  std::size_t bandwidth_windows = 2000;  ///< about this many windows in the bandwidth series
  /// Memory operands kept for the LOCAL / GLOBAL MEM charts (about 8 bytes
  /// each in the page); past this many the rest are counted, not drawn.
  std::size_t max_memory_rects = std::size_t{1} << 22;
  std::size_t buffer_bytes = std::size_t{1} << 18;
};

}  // namespace tpuprof::sinks

namespace tpuprof::detail::html {

/// A JSON string safe inside <script>: strict JSON escaping plus `<` as \u003c.
inline void put_str(out_buffer& o, std::string_view s) {
  o.put('"');
  std::size_t p = 0;
  for (std::size_t i; (i = s.find('<', p)) != std::string_view::npos; p = i + 1) {
    json_escape(o, s.substr(p, i - p));
    o.append("\\u003c");
  }
  json_escape(o, s.substr(p));
  o.put('"');
}

/// A JSON number; null when not finite.
inline void put_num(out_buffer& o, double v) {
  if (!std::isfinite(v))
    o.append("null");
  else
    put_double(o, v);
}

/// A JSON number rounded to `decimals` places (compact series).
inline void put_rounded(out_buffer& o, double v, int decimals) {
  if (!std::isfinite(v)) return o.append("null");
  const double s = std::pow(10.0, decimals);
  put_double(o, std::round(v * s) / s);
}

/// Text for HTML element content and attribute values.
inline void put_escaped_html(out_buffer& o, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&':
        o.append("&amp;");
        break;
      case '<':
        o.append("&lt;");
        break;
      case '>':
        o.append("&gt;");
        break;
      case '"':
        o.append("&quot;");
        break;
      default:
        o.put(c);
    }
  }
}

/// Streams bytes as base64 (RFC 4648, padded at end()).
class base64_writer {
 public:
  explicit base64_writer(out_buffer& o) : o_(o) {}
  void put(const std::uint8_t* p, std::size_t n) {
    while (n && fill_ != 0 && fill_ < 3) {
      carry_[fill_++] = *p++;
      --n;
      if (fill_ == 3) {
        emit(carry_, 1);
        fill_ = 0;
      }
    }
    constexpr std::size_t group = 4096;
    while (n >= 3) {
      const std::size_t g = std::min(n / 3, group);
      emit(p, g);
      p += 3 * g;
      n -= 3 * g;
    }
    while (n--) carry_[fill_++] = *p++;
  }
  void end() {
    if (fill_ == 0) return;
    static constexpr char abc[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const std::uint32_t v =
        std::uint32_t{carry_[0]} << 16 | (fill_ > 1 ? std::uint32_t{carry_[1]} << 8 : 0u);
    char q[4] = {abc[v >> 18 & 63], abc[v >> 12 & 63], fill_ > 1 ? abc[v >> 6 & 63] : '=', '='};
    o_.append({q, 4});
    fill_ = 0;
  }

 private:
  void emit(const std::uint8_t* p, std::size_t groups) {
    static constexpr char abc[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char* w = o_.reserve(groups * 4);
    char* q = w;
    for (std::size_t i = 0; i < groups; ++i, p += 3) {
      const std::uint32_t v = std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2];
      *q++ = abc[v >> 18 & 63];
      *q++ = abc[v >> 12 & 63];
      *q++ = abc[v >> 6 & 63];
      *q++ = abc[v & 63];
    }
    o_.commit(q);
  }
  out_buffer& o_;
  std::uint8_t carry_[3] = {};
  std::size_t fill_ = 0;
};

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

/// Order of lanes within a core: derived rows first, then the engines.
constexpr int lane_rank(engine e) noexcept {
  switch (e) {
    case engine::kernel_function:
      return 0;
    case engine::layer:
      return 1;
    case engine::subnet:
      return 2;
    case engine::tiu:
      return 3;
    case engine::gdma:
      return 4;
    case engine::sdma:
      return 5;
    case engine::mcu:
      return 6;
    case engine::cdma:
      return 7;
  }
  return 8;
}

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

/// 1, 2 or 5 x 10^k, the smallest at least `x` (x > 0).
inline double nice_step(double x) {
  if (!(x > 0)) return 1;
  double p = std::pow(10.0, std::floor(std::log10(x)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= x) return m * p;
  return 10 * p;
}

/// The absence of memory operands (write() without them).
struct no_operands {};

/// Writes the report. `hw` must be a forward range (several passes).
class report_writer {
 public:
  report_writer(const trace_info& info, sinks::byte_output out, const sinks::html_options& opt)
      : info_(info), o_(out, opt.buffer_bytes), opt_(opt) {}

  /// `ops`: the memory operands of the events (an operand_source) for the
  /// memory charts, or null for none.
  template <std::ranges::forward_range H, std::ranges::input_range S, class Ops = no_operands>
  void write(const H& hw, const S& spans, const Ops* ops = nullptr) {
    if (!is_track_ordered(hw)) {
      const std::vector<engine_event> sorted = sorted_by_track(hw);
      return write_ordered(sorted, spans, ops);
    }
    write_ordered(hw, spans, ops);
  }

 private:
  template <class H, class S, class Ops>
  void write_ordered(const H& hw, const S& spans, const Ops* ops) {
    span_begin_ = info_.begin_ns;
    span_end_ = info_.end_ns;
    if (!(span_end_ > span_begin_)) {
      span_begin_ = std::numeric_limits<double>::infinity();
      span_end_ = -span_begin_;
      for (const engine_event& e : hw) {
        span_begin_ = std::min(span_begin_, e.begin_ns);
        span_end_ = std::max(span_end_, e.end_ns);
      }
      if (!(span_end_ >= span_begin_)) span_begin_ = span_end_ = 0;
    }
    // Lanes: every track of info (even empty), then whatever the events add.
    for (const track& t : info_.tracks) lane_of({t.device, t.unit, t.eng});
    std::uint64_t n_hw = 0, n_spans = 0;
    if constexpr (operand_source<Ops>) {
      if (ops) {
        have_mem_ = true;
        if constexpr (region_source<Ops>)
          for (const regs::memory_region& r : ops->memory_regions())
            for (memory_bands& b : bands_) b.add_region(r);
      }
    }
    for (const engine_event& e : hw) {
      const std::size_t li = lane_of(track_of(e));
      if constexpr (operand_source<Ops>)
        if (ops) add_operands(li, lanes_[li].n, e, *ops);
      lanes_[li].add(e);
      ++n_hw;
    }
    std::vector<engine_event> unordered_spans;
    for (const engine_event& e : spans) {
      lanes_[lane_of(track_of(e))].add(e);
      unordered_spans.push_back(e);
      ++n_spans;
    }
    bool spans_ordered = true;
    for (const lane& l : lanes_)
      if (!is_hardware(l.key.eng) && !l.ordered) spans_ordered = false;
    if (!spans_ordered) {  // derived rows out of order: re-encode them sorted
      std::stable_sort(unordered_spans.begin(), unordered_spans.end(), track_time_less{});
      for (lane& l : lanes_)
        if (!is_hardware(l.key.eng)) l = fresh_lane(l.key);
      for (const engine_event& e : unordered_spans) lanes_[lane_of(track_of(e))].add(e);
    }
    std::vector<engine_event>().swap(unordered_spans);
    order_lanes();

    o_.append(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta name=\"generator\" content=\"tpuprof ");
    o_.append(version_string);
    o_.append("\">\n<title>");
    put_escaped_html(o_, title());
    o_.append("</title>\n<style>\n");
    for (std::string_view c : html_assets::report_css) o_.append(c);
    o_.append(
        "</style>\n</head>\n<body>\n<div id=\"app\"><p class=\"loading\">Loading the "
        "report&hellip;</p><noscript>This report needs JavaScript.</noscript></div>\n"
        "<script id=\"tpuprof-meta\" type=\"application/json\">");
    write_meta(hw, n_hw, n_spans);
    o_.append("</script>\n<script id=\"tpuprof-data\" type=\"application/octet-stream\">");
    base64_writer b(o_);
    for (std::size_t li : order_)
      for (std::size_t c = 0; c < col_count; ++c)
        if (lanes_[li].streamed(c))
          b.put(lanes_[li].cols[c].bytes.data(), lanes_[li].cols[c].bytes.size());
    b.end();
    if (mem_rects_) {
      o_.append("</script>\n<script id=\"tpuprof-mem\" type=\"application/octet-stream\">");
      base64_writer m(o_);
      for (std::size_t p = 0; p < 2; ++p)
        for (std::size_t li : order_)
          if (li < mem_.size()) m.put(mem_[li][p].bytes.data(), mem_[li][p].bytes.size());
      m.end();
    }
    o_.append("</script>\n<script>\n");
    for (std::string_view c : html_assets::report_js) o_.append(c);
    o_.append("</script>\n</body>\n</html>\n");
    o_.flush();
  }

  /// One lane's operands of one chart: per operand the varints event index
  /// (delta), address (zigzag delta), size, flags (kind | write << 3 |
  /// operand << 4); report.js decodes them.
  struct mem_stream {
    std::vector<std::uint8_t> bytes;
    std::uint64_t n = 0, prev_event = 0, prev_address = 0;
    void put(std::uint64_t z) {
      while (z >= 0x80) {
        bytes.push_back(static_cast<std::uint8_t>(z | 0x80));
        z >>= 7;
      }
      bytes.push_back(static_cast<std::uint8_t>(z));
    }
    void add(std::uint64_t event, const regs::mem_operand& m) {
      put(event - prev_event);
      const auto d = static_cast<std::int64_t>(m.address - prev_address);
      put((static_cast<std::uint64_t>(d) << 1) ^ static_cast<std::uint64_t>(d >> 63));
      put(m.size);
      put(static_cast<std::uint64_t>(m.kind) | (m.write ? 8u : 0u) |
          static_cast<std::uint64_t>(m.index) << 4);
      prev_event = event;
      prev_address = m.address;
      ++n;
    }
  };

  template <class Ops>
  void add_operands(std::size_t li, std::uint64_t event, const engine_event& e, const Ops& ops) {
    for (const regs::mem_operand& m : ops.operands(e)) {
      if (m.kind == regs::mem_kind::constant) continue;
      if (mem_rects_ >= opt_.max_memory_rects) {
        ++mem_dropped_;
        continue;
      }
      if (mem_.size() <= li) mem_.resize(li + 1);
      const auto p = static_cast<std::size_t>(panel_of(m.kind));
      mem_[li][p].add(event, m);
      bands_[p].add(m.address, m.size);
      ++mem_rects_;
    }
  }

  void write_memory() {
    o_.append("\"mem\":");
    if (!have_mem_) return o_.append("null");
    o_.append("{\"dropped\":");
    put_int(o_, mem_dropped_);
    o_.append(",\"kinds\":[");
    for (std::size_t k = 0; k <= static_cast<std::size_t>(regs::mem_kind::constant); ++k) {
      if (k) o_.put(',');
      put_str(o_, regs::name(static_cast<regs::mem_kind>(k)));
    }
    o_.append("],\"panels\":[");
    std::uint64_t offset = 0;
    for (std::size_t p = 0; p < 2; ++p) {
      if (p) o_.put(',');
      o_.append("{\"name\":");
      put_str(o_, name(static_cast<memory_panel>(p)));
      o_.append(",\"bands\":[");
      bool first = true;
      for (const regs::memory_region& r : bands_[p].bands()) {
        comma(first);
        o_.put('[');
        put_int(o_, r.address);
        o_.put(',');
        put_int(o_, r.size);
        o_.put(',');
        put_str(o_, r.name);
        o_.put(']');
      }
      o_.append("],\"lanes\":[");
      first = true;
      std::uint64_t n = 0;
      for (std::size_t li : order_) {
        if (li >= mem_.size() || !mem_[li][p].n) continue;
        const mem_stream& m = mem_[li][p];
        comma(first);
        o_.put('[');
        put_int(o_, position_[li]);
        o_.put(',');
        put_int(o_, m.n);
        o_.put(',');
        put_int(o_, offset);
        o_.put(',');
        put_int(o_, m.bytes.size());
        o_.put(']');
        offset += m.bytes.size();
        n += m.n;
      }
      o_.append("],\"n\":");
      put_int(o_, n);
      o_.put('}');
    }
    o_.append("]}");
  }

  lane fresh_lane(track_key k) const {
    lane l;
    l.key = k;
    l.freq = 1000;
    if (const track* t = info_.find_track(k.device, k.unit, k.eng); t && t->freq_mhz > 0)
      l.freq = t->freq_mhz;
    else if (const track* tiu = info_.find_track(k.device, k.unit, engine::tiu);
             tiu && tiu->freq_mhz > 0)
      l.freq = tiu->freq_mhz;
    return l;
  }
  std::size_t lane_of(track_key k) {
    if (have_last_ && k == last_key_) return last_lane_;
    auto [it, fresh] = index_.try_emplace(k.packed(), lanes_.size());
    if (fresh) lanes_.push_back(fresh_lane(k));
    have_last_ = true;
    last_key_ = k;
    last_lane_ = it->second;
    return it->second;
  }
  void order_lanes() {
    order_.resize(lanes_.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
      const track_key x = lanes_[a].key, y = lanes_[b].key;
      if (x.device != y.device) return x.device < y.device;
      const bool xc = x.eng == engine::cdma, yc = y.eng == engine::cdma;
      if (xc != yc) return yc;
      if (x.unit != y.unit) return x.unit < y.unit;
      return lane_rank(x.eng) < lane_rank(y.eng);
    });
    position_.assign(lanes_.size(), 0);
    for (std::size_t i = 0; i < order_.size(); ++i) position_[order_[i]] = i;
  }
  /// Index of an event's lane in the written (sorted) lane list.
  std::size_t lane_pos(const engine_event& e) const {
    return position_[index_.at(track_of(e).packed())];
  }

  std::string title() const {
    if (!opt_.title.empty()) return opt_.title;
    std::string t = info_.chip.empty() ? std::string("TPU") : info_.chip;
    t += " profile";
    if (const std::string_view net = info_.property("net_name"); !net.empty()) {
      t += ": ";
      t += net;
    }
    return t;
  }

  void key(std::string_view k) {
    o_.put('"');
    o_.append(k);
    o_.append("\":");
  }
  void comma(bool& first) {
    if (!first) o_.put(',');
    first = false;
  }

  template <class H>
  void write_meta(const H& hw, std::uint64_t n_hw, std::uint64_t n_spans) {
    o_.append("{\"format\":1,\"generator\":\"tpuprof ");
    o_.append(version_string);
    o_.append("\",");
    key("title");
    put_str(o_, title());
    o_.append(",\"info\":{");
    key("chip");
    put_str(o_, info_.chip);
    o_.put(',');
    key("source");
    put_str(o_, info_.source);
    o_.append(",\"devices\":");
    put_int(o_, info_.devices);
    o_.append(",\"cores\":");
    put_int(o_, info_.cores);
    o_.put(',');
    key("mode");
    put_str(o_, info_.mode);
    o_.append(",\"begin_ns\":");
    put_num(o_, span_begin_);
    o_.append(",\"end_ns\":");
    put_num(o_, span_end_);
    o_.append(",\"events\":");
    put_int(o_, n_hw);
    o_.append(",\"spans\":");
    put_int(o_, n_spans);
    o_.append(",\"properties\":[");
    bool first = true;
    for (const auto& [k, v] : info_.properties) {
      comma(first);
      o_.put('[');
      put_str(o_, k);
      o_.put(',');
      put_str(o_, v);
      o_.put(']');
    }
    o_.append("]},");
    write_diagnostics();
    o_.append(",\"names\":[");
    for (std::size_t i = 0; i < info_.names.size(); ++i) {
      if (i) o_.put(',');
      put_str(o_, info_.names[static_cast<name_id>(i)]);
    }
    o_.append("],\"dirs\":[");
    for (std::size_t i = 0; i < direction_count; ++i) {
      if (i) o_.put(',');
      put_str(o_, direction_names[i]);
    }
    o_.append("],\"dirs_long\":[");
    for (std::size_t i = 0; i < direction_count; ++i) {
      if (i) o_.put(',');
      put_str(o_, direction_long_names[i]);
    }
    o_.append("],");
    write_lanes();
    o_.put(',');
    write_summary(hw);
    o_.put(',');
    write_utilization(hw);
    o_.put(',');
    write_gaps(hw);
    o_.put(',');
    write_bandwidth(hw);
    o_.put(',');
    write_tables(hw);
    o_.put(',');
    write_memory();
    o_.put('}');
  }

  void write_diagnostics() {
    const decode_diagnostics& d = info_.diagnostics;
    o_.append("\"diag\":{\"data_loss\":");
    o_.append(d.data_loss() ? "true" : "false");
    o_.append(",\"names_overflowed\":");
    put_int(o_, info_.names.overflowed());
    o_.append(",\"counts\":[");
    bool first = true;
    for (std::size_t i = 0; i < diag_count; ++i) {
      const auto k = static_cast<diag>(i);
      if (!d[k]) continue;
      comma(first);
      o_.put('[');
      put_str(o_, name(k));
      o_.put(',');
      put_int(o_, d[k]);
      o_.append(is_data_loss(k) ? ",true]" : ",false]");
    }
    o_.append("],\"notes\":[");
    first = true;
    for (const auto& n : d.notes()) {
      comma(first);
      o_.put('[');
      put_str(o_, name(n.kind));
      o_.put(',');
      put_str(o_, n.file);
      o_.put(',');
      if (n.offset == ~std::uint64_t{0})
        o_.append("null");
      else
        put_int(o_, n.offset);
      o_.put(',');
      put_str(o_, n.text);
      o_.put(']');
    }
    o_.append("]}");
  }

  void write_lanes() {
    o_.append("\"lanes\":[");
    std::uint64_t offset = 0;
    bool first = true;
    for (std::size_t li : order_) {
      const lane& l = lanes_[li];
      comma(first);
      o_.append("{\"dev\":");
      put_int(o_, unsigned{l.key.device});
      o_.append(",\"unit\":");
      put_int(o_, unsigned{l.key.unit});
      o_.append(",\"eng\":");
      put_str(o_, name(l.key.eng));
      o_.append(",\"hw\":");
      o_.append(is_hardware(l.key.eng) ? "true" : "false");
      o_.append(",\"freq\":");
      put_num(o_, l.freq);
      o_.append(",\"n\":");
      put_int(o_, l.n);
      o_.append(",\"cols\":{");
      for (std::size_t c = 0; c < col_count; ++c) {
        if (c) o_.put(',');
        key(col_names[c]);
        const column& k = l.cols[c];
        if (k.constant) {
          o_.append("{\"c\":");
          put_int(o_, l.n ? k.first : 0);
          o_.put('}');
        } else if (const column_map* m = l.map_of(c)) {
          o_.append("{\"k\":\"");
          o_.append(l.map_key(c));
          o_.append("\",\"m\":[");
          bool f = true;
          for (const auto& [key, val] : m->m) {
            comma(f);
            o_.put('[');
            put_int(o_, key);
            o_.put(',');
            put_int(o_, val);
            o_.put(']');
          }
          o_.append("]}");
        } else {
          o_.append("{\"o\":");
          put_int(o_, offset);
          o_.append(",\"l\":");
          put_int(o_, k.bytes.size());
          o_.put('}');
          offset += k.bytes.size();
        }
      }
      o_.append("}}");
    }
    o_.append("],\"data_bytes\":");
    put_int(o_, offset);
  }

  template <class H>
  void write_summary(const H& hw) {
    summary_options so;
    so.info = &info_;
    const summary_report r = views::summary(hw, so);
    o_.append("\"summary\":{\"tiu_mhz\":");
    put_num(o_, r.tiu_mhz);
    o_.append(",\"dma_mhz\":");
    put_num(o_, r.dma_mhz);
    o_.append(",\"total_ns\":");
    put_num(o_, r.total_ns);
    o_.append(",\"cores\":[");
    bool first = true;
    for (const core_summary& c : r.cores) {
      comma(first);
      o_.append("{\"dev\":");
      put_int(o_, unsigned{c.device});
      o_.append(",\"core\":");
      put_int(o_, unsigned{c.core});
      o_.append(",\"parallelism\":");
      put_num(o_, c.parallelism());
      o_.append(",\"tiu_ratio\":");
      put_num(o_, c.tiu_working_ratio());
      o_.append(",\"uarch\":");
      put_num(o_, c.uarch_rate);
      o_.append(",\"tiu_ns\":");
      put_num(o_, c.tiu_ns);
      o_.append(",\"gdma_ns\":");
      put_num(o_, c.gdma_working_ns);
      o_.append(",\"sdma_ns\":");
      put_num(o_, c.sdma_working_ns);
      o_.append(",\"gdma_ddr_gbps\":");
      put_num(o_, c.gdma_ddr_gbps());
      o_.append(",\"gdma_l2_gbps\":");
      put_num(o_, c.gdma_l2_gbps());
      o_.append(",\"sdma_ddr_gbps\":");
      put_num(o_, c.sdma_ddr_gbps());
      o_.append(",\"events\":[");
      put_int(o_, c.tiu_events);
      o_.put(',');
      put_int(o_, c.gdma_events);
      o_.put(',');
      put_int(o_, c.sdma_events);
      o_.append("]}");
    }
    const overall_summary& v = r.overall;
    o_.append("],\"overall\":{\"parallelism\":");
    put_num(o_, v.parallelism);
    o_.append(",\"tiu_ratio\":");
    put_num(o_, v.tiu_working_ratio);
    o_.append(",\"uarch\":");
    put_num(o_, v.uarch_rate);
    o_.append(",\"gdma_ddr_gbps\":");
    put_num(o_, v.gdma_ddr_gbps);
    o_.append(",\"gdma_l2_gbps\":");
    put_num(o_, v.gdma_l2_gbps);
    o_.append(",\"sdma_ddr_gbps\":");
    put_num(o_, v.sdma_ddr_gbps);
    o_.append(",\"cdma_ddr_gbps\":");
    put_num(o_, r.cdma.ddr_gbps);
    o_.append(",\"cdma_l2_gbps\":");
    put_num(o_, r.cdma.l2_gbps);
    o_.append("}}");
  }

  template <class H>
  void write_utilization(const H& hw) {
    utilization_options uo;
    if (span_end_ > span_begin_) uo.window = time_range{span_begin_, span_end_};
    const utilization_report r = views::utilization(hw, uo);
    std::map<std::uint32_t, std::pair<std::uint64_t, double>> bytes;  // track -> bytes, byte time
    for (const engine_event& e : hw)
      if (e.has_bytes()) {
        auto& b = bytes[track_of(e).packed()];
        b.first += e.bytes;
        b.second += std::max(0.0, e.dur_ns());
      }
    o_.append("\"util\":{\"span_ns\":");
    put_num(o_, r.window.dur_ns());
    o_.append(",\"tracks\":[");
    bool first = true;
    for (const track_utilization& t : r.tracks) {
      comma(first);
      o_.append("{\"lane\":");
      put_int(o_, position_[index_.at(t.track.packed())]);
      o_.append(",\"events\":");
      put_int(o_, t.events);
      o_.append(",\"busy_ns\":");
      put_num(o_, t.busy_ns);
      if (auto it = bytes.find(t.track.packed()); it != bytes.end()) {
        o_.append(",\"bytes\":");
        put_int(o_, it->second.first);
        o_.append(",\"gbps\":");
        put_num(o_, it->second.second > 0
                        ? static_cast<double>(it->second.first) / it->second.second
                        : std::nan(""));
      }
      o_.put('}');
    }
    o_.append("],\"cores\":[");
    first = true;
    for (const core_utilization& c : r.cores) {
      comma(first);
      o_.append("{\"dev\":");
      put_int(o_, unsigned{c.device});
      o_.append(",\"core\":");
      put_int(o_, unsigned{c.core});
      o_.append(",\"compute_ns\":");
      put_num(o_, c.compute_ns);
      o_.append(",\"transfer_ns\":");
      put_num(o_, c.transfer_ns);
      o_.append(",\"overlap_ns\":");
      put_num(o_, c.overlap_ns);
      o_.put('}');
    }
    o_.append("]}");
  }

  template <class H>
  void write_gaps(const H& hw) {
    struct acc {
      std::uint64_t count = 0;
      double total = 0, longest = 0;
    };
    std::map<std::size_t, acc> per;
    struct item {
      double dur;
      std::size_t lane;
      idle_gap g;
    };
    auto shorter = [](const item& a, const item& b) { return a.dur > b.dur; };  // min-heap
    std::vector<item> heap;
    for (const idle_gap& g : views::idle_gaps(hw, opt_.min_gap_ns)) {
      const std::size_t lp = lane_pos(g.next);
      acc& a = per[lp];
      ++a.count;
      a.total += g.dur_ns();
      a.longest = std::max(a.longest, g.dur_ns());
      if (opt_.gap_list == 0) continue;
      if (heap.size() < opt_.gap_list) {
        heap.push_back({g.dur_ns(), lp, g});
        std::push_heap(heap.begin(), heap.end(), shorter);
      } else if (g.dur_ns() > heap.front().dur) {
        std::pop_heap(heap.begin(), heap.end(), shorter);
        heap.back() = {g.dur_ns(), lp, g};
        std::push_heap(heap.begin(), heap.end(), shorter);
      }
    }
    std::sort_heap(heap.begin(), heap.end(), shorter);
    o_.append("\"gaps\":{\"min_gap_ns\":");
    put_num(o_, opt_.min_gap_ns);
    o_.append(",\"lanes\":[");
    bool first = true;
    for (const auto& [lp, a] : per) {
      comma(first);
      o_.put('[');
      put_int(o_, lp);
      o_.put(',');
      put_int(o_, a.count);
      o_.put(',');
      put_num(o_, a.total);
      o_.put(',');
      put_num(o_, a.longest);
      o_.put(']');
    }
    o_.append("],\"longest\":[");
    first = true;
    for (const item& it : heap) {  // longest first
      comma(first);
      o_.put('[');
      put_int(o_, it.lane);
      o_.put(',');
      put_num(o_, it.g.begin_ns);
      o_.put(',');
      put_num(o_, it.g.end_ns);
      o_.put(',');
      put_int(o_, it.g.prev.op);
      o_.put(',');
      put_int(o_, it.g.prev.cmd_id);
      o_.put(',');
      put_int(o_, it.g.next.op);
      o_.put(',');
      put_int(o_, it.g.next.cmd_id);
      o_.put(']');
    }
    o_.append("]}");
  }

  template <class H>
  void write_bandwidth(const H& hw) {
    const double span = span_end_ - span_begin_;
    const double w = nice_step(
        span > 0 ? span / static_cast<double>(std::max<std::size_t>(opt_.bandwidth_windows, 1))
                 : 1.0);
    bandwidth_series_options bo;
    bo.window_ns = w;
    bo.group = bandwidth_group::track;
    bo.origin_ns = span_begin_;
    const std::vector<bandwidth_series> series = views::bandwidth_series(hw, bo);
    o_.append("\"bw\":{\"window_ns\":");
    put_num(o_, w);
    o_.append(",\"origin_ns\":");
    put_num(o_, span_begin_);
    o_.append(",\"series\":[");
    bool first = true;
    for (const bandwidth_series& s : series) {
      comma(first);
      o_.append("{\"lane\":");
      put_int(o_, position_[index_.at(s.key.packed())]);
      o_.append(",\"gbps\":[");
      for (std::size_t i = 0; i < s.size(); ++i) {
        if (i) o_.put(',');
        put_rounded(o_, s.gbps(i), 3);
      }
      o_.append("]}");
    }
    o_.append("]}");
  }

  void event_row(const engine_event& e) {
    o_.put('[');
    put_int(o_, lane_pos(e));
    o_.put(',');
    put_num(o_, e.begin_ns);
    o_.put(',');
    put_num(o_, e.end_ns);
    o_.put(',');
    put_int(o_, e.op);
    o_.put(',');
    put_int(o_, e.cmd_id);
    o_.put(',');
    if (e.has_bytes())
      put_int(o_, e.bytes);
    else
      o_.append("null");
    o_.put(',');
    put_num(o_, e.bandwidth_gbps());
    o_.put(']');
  }

  template <class H>
  void group_table(const H& hw, group_key by, std::string_view k) {
    const std::vector<group_stats> g = views::group_by(hw, by);
    key(k);
    o_.put('[');
    bool first = true;
    for (const group_stats& s : g) {
      comma(first);
      o_.put('[');
      put_int(o_, s.id);
      for (double v : {static_cast<double>(s.count), s.sum_ns, s.mean_ns, s.min_ns, s.max_ns,
                       s.p50_ns, s.p99_ns, static_cast<double>(s.bytes), s.uarch_rate}) {
        o_.put(',');
        put_num(o_, v);
      }
      o_.put(']');
    }
    o_.put(']');
  }

  template <class H>
  void write_tables(const H& hw) {
    o_.append("\"tables\":{");
    key("top_duration");
    o_.put('[');
    bool first = true;
    for (const engine_event& e : views::top_n(hw, opt_.top_n, rank_by::duration)) {
      comma(first);
      event_row(e);
    }
    o_.append("],");
    key("top_bandwidth");
    o_.put('[');
    first = true;
    for (const engine_event& e : views::top_n(hw, opt_.top_n, rank_by::bandwidth)) {
      comma(first);
      event_row(e);
    }
    o_.append("],");
    group_table(hw, group_key::op, "op");
    o_.put(',');
    group_table(hw, group_key::op_type, "op_type");
    o_.put(',');
    group_table(hw, group_key::function, "function");
    o_.put(',');
    group_table(hw, group_key::layer, "layer");
    o_.put('}');
  }

  const trace_info& info_;
  out_buffer o_;
  const sinks::html_options& opt_;
  double span_begin_ = 0, span_end_ = 0;
  std::vector<lane> lanes_;
  std::map<std::uint32_t, std::size_t> index_;  // packed track key -> lanes_ index
  std::vector<std::size_t> order_;              // written position -> lanes_ index
  std::vector<std::size_t> position_;           // lanes_ index -> written position
  bool have_last_ = false;
  track_key last_key_{};
  std::size_t last_lane_ = 0;
  // memory charts
  bool have_mem_ = false;
  std::vector<std::array<mem_stream, 2>> mem_;  // lanes_ index -> per panel
  std::array<memory_bands, 2> bands_{memory_bands(memory_panel::local),
                                     memory_bands(memory_panel::global)};
  std::uint64_t mem_rects_ = 0, mem_dropped_ = 0;
};

}  // namespace tpuprof::detail::html

namespace tpuprof::sinks {

/// Writes the HTML report of `hw` (hardware events; several passes, so a
/// forward range, else it is copied) and `spans` (derived rows) to `out`.
/// Memory: about 12 bytes per event for the encoded timeline, plus what the
/// views need while they run (at most 32 bytes per event). Throws
/// io::output_error when `out` does.
template <event_range H, event_range S>
void write_html(const trace_info& info, H&& hw, S&& spans, byte_output out,
                const html_options& opt = {}) {
  detail::html::report_writer w(info, out, opt);
  if constexpr (std::ranges::forward_range<H>) {
    w.write(hw, spans);
  } else {
    std::vector<engine_event> copy;
    for (const engine_event& e : hw) copy.push_back(e);
    w.write(copy, spans);
  }
}

/// The same with the LOCAL MEM / GLOBAL MEM charts: `ops` gives each
/// hardware event's memory operands (and, as a region_source, the named
/// banks and buffers the charts are divided into). About 8 more bytes per
/// operand, up to html_options::max_memory_rects.
template <event_range H, event_range S, operand_source P>
void write_html(const trace_info& info, H&& hw, S&& spans, const P& ops, byte_output out,
                const html_options& opt = {}) {
  detail::html::report_writer w(info, out, opt);
  if constexpr (std::ranges::forward_range<H>) {
    w.write(hw, spans, &ops);
  } else {
    std::vector<engine_event> copy;
    for (const engine_event& e : hw) copy.push_back(e);
    w.write(copy, spans, &ops);
  }
}

/// The report of a decoded trace (its events() and spans()).
template <decoded_trace T>
void write_html(const T& trace, byte_output out, const html_options& opt = {}) {
  write_html(trace.info(), trace.events(), trace.spans(), out, opt);
}

/// The report of a decoded trace with its memory charts (`ops`: the decoder
/// itself when it has operands(e), or an operand_table).
template <decoded_trace T, operand_source P>
void write_html(const T& trace, const P& ops, byte_output out, const html_options& opt = {}) {
  write_html(trace.info(), trace.events(), trace.spans(), ops, out, opt);
}

/// The report of a decoded trace into `path`, atomically (temp file + rename).
/// Throws io::output_error on I/O failure; then no file is left behind.
template <decoded_trace T>
void write_html_file(const std::filesystem::path& path, const T& trace,
                     const html_options& opt = {}) {
  io::atomic_file f(path);
  write_html(trace, byte_output{f}, opt);
  f.commit();
}

/// The same with the memory charts of `ops` (see write_html).
template <decoded_trace T, operand_source P>
void write_html_file(const std::filesystem::path& path, const T& trace, const P& ops,
                     const html_options& opt = {}) {
  io::atomic_file f(path);
  write_html(trace, ops, byte_output{f}, opt);
  f.commit();
}

/// The HTML report as an event_sink (for tee, any_sink, write_file): keeps
/// every event it is given (64 bytes each) and writes the report in finish().
/// When the trace is at hand, write_html(trace, out) avoids that copy.
/// Given an operand_source (which must outlive the sink), the report has the
/// memory charts.
class html_sink {
 public:
  explicit html_sink(byte_output out, html_options opt = {}) : out_(out), opt_(std::move(opt)) {}
  template <operand_source P>
  html_sink(byte_output out, const P& ops, html_options opt = {})
      : out_(out), opt_(std::move(opt)) {
    ops_.fill = [&ops](const engine_event& e, std::vector<regs::mem_operand>& v) {
      for (const regs::mem_operand& m : ops.operands(e)) v.push_back(m);
    };
    if constexpr (region_source<P>)
      for (const regs::memory_region& r : ops.memory_regions()) ops_.regions.push_back(r);
  }

  void begin(const trace_info& info) {
    info_ = &info;
    std::uint64_t n = 0;
    for (const track& t : info.tracks) n += t.events;
    hw_.reserve(n);
  }
  void write(const engine_event& e) {
    if (is_hardware(e.engine))
      hw_.push_back(e);
    else
      spans_.push_back(e);
  }
  void finish() {
    static const trace_info none;
    if (ops_.fill)
      write_html(info_ ? *info_ : none, hw_, spans_, ops_, out_, opt_);
    else
      write_html(info_ ? *info_ : none, hw_, spans_, out_, opt_);
    std::vector<engine_event>().swap(hw_);
    std::vector<engine_event>().swap(spans_);
  }

 private:
  /// The operand_source the sink was given, type-erased.
  struct erased_operands {
    std::function<void(const engine_event&, std::vector<regs::mem_operand>&)> fill;
    std::vector<regs::memory_region> regions;
    mutable std::vector<regs::mem_operand> scratch;
    std::span<const regs::mem_operand> operands(const engine_event& e) const {
      scratch.clear();
      fill(e, scratch);
      return scratch;
    }
    const std::vector<regs::memory_region>& memory_regions() const { return regions; }
  };

  byte_output out_;
  html_options opt_;
  erased_operands ops_;
  const trace_info* info_ = nullptr;
  std::vector<engine_event> hw_, spans_;
};

static_assert(event_sink<html_sink>);

}  // namespace tpuprof::sinks
