/// report_writer: the HTML page (head, metadata, encoded timeline, memory
/// charts, embedded JS/CSS). The analysis sections come from section_writer.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <ranges>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/algo/memory_map.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/operand_source.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/report/detail/critical_path_section.hpp>
#include <tpuprof/report/detail/findings_section.hpp>
#include <tpuprof/report/detail/html_assets.hpp>
#include <tpuprof/report/detail/html_text.hpp>
#include <tpuprof/report/detail/lane_columns.hpp>
#include <tpuprof/report/detail/report_sections.hpp>
#include <tpuprof/report/html_options.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/version.hpp>
#include <tpuprof/views/event_range.hpp>
#include <tpuprof/views/track_layout.hpp>
#include <tpuprof/views/track_order.hpp>

namespace tpuprof::detail::html {

/// The absence of memory operands (write() without them).
struct no_operands {};

/// Writes the report. `hw` must be a forward range (several passes).
class report_writer {
 public:
  report_writer(const trace_info& info, sinks::byte_output out, const report::html_options& opt)
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
    l.freq = track_clock_mhz(info_, k);
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
      return display_less(lanes_[a].key, lanes_[b].key);
    });
    position_.assign(lanes_.size(), 0);
    for (std::size_t i = 0; i < order_.size(); ++i) position_[order_[i]] = i;
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

  void key(std::string_view k) { json_key(o_, k); }
  void comma(bool& first) { json_comma(o_, first); }

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
    o_.append(",\"origin_ns\":");
    put_num(o_, track_layout(info_).origin_ns);
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
    section_writer(o_, info_, opt_, span_begin_, span_end_, [this](track_key k) {
      return position_[index_.at(k.packed())];
    }).write(hw);
    o_.put(',');
    write_memory();
    auto lane_pos = [this](track_key k) -> std::optional<std::size_t> {
      const auto it = index_.find(k.packed());
      if (it == index_.end()) return std::nullopt;
      return position_[it->second];
    };
    if (opt_.critical_path) {
      o_.put(',');
      write_critical_path(o_, *opt_.critical_path, lane_pos);
    }
    if (opt_.findings) {
      o_.put(',');
      write_findings(o_, *opt_.findings, lane_pos);
    }
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

  const trace_info& info_;
  out_buffer o_;
  const report::html_options& opt_;
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
