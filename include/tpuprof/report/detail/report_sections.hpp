/// The analysis sections of the HTML report's metadata (summary, utilization,
/// idle gaps, bandwidth series, tables): each computed by one view or
/// algorithm, then written as JSON. No analysis of its own.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/algo/bandwidth_series.hpp>
#include <tpuprof/algo/bandwidth_totals.hpp>
#include <tpuprof/algo/gap_stats.hpp>
#include <tpuprof/algo/group_stats.hpp>
#include <tpuprof/algo/summary.hpp>
#include <tpuprof/algo/top_n.hpp>
#include <tpuprof/algo/utilization.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/report/detail/html_text.hpp>
#include <tpuprof/report/html_options.hpp>
#include <tpuprof/sinks/summary_format.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::detail::html {

/// Writes the sections into `o`; `lane_pos` gives a track's lane in the page.
class section_writer {
 public:
  using lane_fn = std::function<std::size_t(track_key)>;
  section_writer(out_buffer& o, const trace_info& info, const report::html_options& opt,
                 double span_begin, double span_end, lane_fn lane_pos)
      : o_(o),
        info_(info),
        opt_(opt),
        span_begin_(span_begin),
        span_end_(span_end),
        lane_pos_(std::move(lane_pos)) {}

  /// All sections, comma-separated members of the metadata object.
  template <class H>
  void write(const H& hw) {
    write_summary(hw);
    o_.put(',');
    write_utilization(hw);
    o_.put(',');
    write_gaps(hw);
    o_.put(',');
    write_bandwidth(hw);
    o_.put(',');
    write_tables(hw);
  }

 private:
  void key(std::string_view k) { json_key(o_, k); }
  void comma(bool& first) { json_comma(o_, first); }

  template <class H>
  void write_summary(const H& hw) {
    summary_options so;
    so.info = &info_;
    const summary_report r = algo::summary(hw, so);
    o_.append("\"summary\":");
    write_summary_page_json(o_, r);
  }

  template <class H>
  void write_utilization(const H& hw) {
    utilization_options uo;
    if (span_end_ > span_begin_) uo.window = time_range{span_begin_, span_end_};
    const utilization_report r = algo::utilization(hw, uo);
    const std::map<track_key, byte_totals> bytes = algo::bandwidth_totals(hw);
    o_.append("\"util\":{\"span_ns\":");
    put_num(o_, r.window.dur_ns());
    o_.append(",\"tracks\":[");
    bool first = true;
    for (const track_utilization& t : r.tracks) {
      comma(first);
      o_.append("{\"lane\":");
      put_int(o_, lane_pos_(t.track));
      o_.append(",\"events\":");
      put_int(o_, t.events);
      o_.append(",\"busy_ns\":");
      put_num(o_, t.busy_ns);
      if (auto it = bytes.find(t.track); it != bytes.end()) {
        o_.append(",\"bytes\":");
        put_int(o_, it->second.bytes);
        o_.append(",\"gbps\":");
        put_num(o_, it->second.gbps());
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
    const gap_report r = algo::gap_stats(hw, opt_.min_gap_ns, opt_.gap_list);
    o_.append("\"gaps\":{\"min_gap_ns\":");
    put_num(o_, opt_.min_gap_ns);
    o_.append(",\"lanes\":[");
    bool first = true;
    for (const track_gaps& a : r.tracks) {
      comma(first);
      o_.put('[');
      put_int(o_, lane_pos_(a.track));
      o_.put(',');
      put_int(o_, a.count);
      o_.put(',');
      put_num(o_, a.total_ns);
      o_.put(',');
      put_num(o_, a.longest_ns);
      o_.put(']');
    }
    o_.append("],\"longest\":[");
    first = true;
    for (const idle_gap& g : r.longest) {  // longest first
      comma(first);
      o_.put('[');
      put_int(o_, lane_pos_(g.track));
      o_.put(',');
      put_num(o_, g.begin_ns);
      o_.put(',');
      put_num(o_, g.end_ns);
      o_.put(',');
      put_int(o_, g.prev.op);
      o_.put(',');
      put_int(o_, g.prev.cmd_id);
      o_.put(',');
      put_int(o_, g.next.op);
      o_.put(',');
      put_int(o_, g.next.cmd_id);
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
    const std::vector<bandwidth_series> series = algo::bandwidth_series(hw, bo);
    o_.append("\"bw\":{\"window_ns\":");
    put_num(o_, w);
    o_.append(",\"origin_ns\":");
    put_num(o_, span_begin_);
    o_.append(",\"series\":[");
    bool first = true;
    for (const bandwidth_series& s : series) {
      comma(first);
      o_.append("{\"lane\":");
      put_int(o_, lane_pos_(s.key));
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
    put_int(o_, lane_pos_(track_of(e)));
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
    const std::vector<group_stats> g = algo::group_stats_by(hw, by);
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
    for (const engine_event& e : algo::top_n(hw, opt_.top_n, rank_by::duration)) {
      comma(first);
      event_row(e);
    }
    o_.append("],");
    key("top_bandwidth");
    o_.put('[');
    first = true;
    for (const engine_event& e : algo::top_n(hw, opt_.top_n, rank_by::bandwidth)) {
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

  out_buffer& o_;
  const trace_info& info_;
  const report::html_options& opt_;
  double span_begin_ = 0, span_end_ = 0;
  lane_fn lane_pos_;
};

}  // namespace tpuprof::detail::html
