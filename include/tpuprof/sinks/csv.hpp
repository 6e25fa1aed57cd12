/// csv_sink (one row per hardware event) and csv_summary_sink (one row per
/// track): RFC 4180 quoting, stable documented headers (docs/sinks.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/sinks/detail/text_format.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof::sinks {

struct csv_options {
  bool header = true;
  bool crlf = false;  ///< end rows with CRLF (RFC 4180 strict) instead of LF
  std::size_t buffer_bytes = std::size_t{1} << 18;
  /// Extra columns after `matched` (`convert --csv --registers`): their header
  /// text, starting with ',', and a function appending one row's cells (each
  /// starting with ','). Unset: the documented columns only.
  std::string extra_header;
  std::function<void(std::string&, const engine_event&)> extra;
};

/// Hardware events (TIU, GDMA, SDMA, CDMA) as rows; derived spans are
/// skipped. Unknown values are empty fields; CDMA rows have `core` empty and
/// `port` set; `l2m_gbps` carries the bandwidth of DMAs that touch L2 memory
/// (see l2_side / ddr_side).
class csv_sink {
 public:
  static constexpr std::string_view header_line =
      "device,core,engine,cmd_id,start_cycle,end_cycle,start_ns,end_ns,dur_ns,op,bytes,ddr_gbps,"
      "l2m_gbps,uarch_rate,layer_id,function,port,matched";

  explicit csv_sink(byte_output out, csv_options opt = {})
      : buf_(out, opt.buffer_bytes), opt_(opt) {}

  void begin(const trace_info& info) {
    info_ = &info;
    origin_ = track_layout(info).origin_ns;
    head();
  }

  void write(const engine_event& e) {
    using namespace detail;
    if (!is_hardware(e.engine)) return;
    head();
    const bool cdma = e.engine == engine::cdma;
    const std::string_view op = field(e.op, true);
    const std::string_view fn = e.function ? field(e.function, false) : std::string_view{};
    const std::string_view eng = name(e.engine);
    if (opt_.extra) {
      extra_.clear();
      opt_.extra(extra_, e);
    }
    // One reservation per row: fixed text and numbers need < 400 bytes.
    char* p = buf_.reserve(400 + eng.size() + op.size() + fn.size() + extra_.size());
    p = write_uint(p, e.device);
    *p++ = ',';
    if (!cdma) p = write_uint(p, e.unit);
    *p++ = ',';
    p = write_str(p, eng);
    *p++ = ',';
    p = write_uint(p, e.cmd_id);
    *p++ = ',';
    p = write_uint(p, e.begin_cycle);
    *p++ = ',';
    p = write_uint(p, e.end_cycle);
    *p++ = ',';
    p = write_double(p, e.begin_ns - origin_);
    *p++ = ',';
    p = write_double(p, e.end_ns - origin_);
    *p++ = ',';
    p = write_double(p, e.dur_ns());
    *p++ = ',';
    p = write_str(p, op);
    *p++ = ',';
    if (e.has_bytes()) p = write_uint(p, e.bytes);
    *p++ = ',';
    double bw = e.bandwidth_gbps();
    if (ddr_side(e.dir())) p = write_double(p, bw);
    *p++ = ',';
    if (l2_side(e.dir())) p = write_double(p, bw);
    *p++ = ',';
    p = write_shortest(p, e.uarch_rate);
    *p++ = ',';
    if (e.layer_id >= 0) p = write_int(p, e.layer_id);
    *p++ = ',';
    p = write_str(p, fn);
    *p++ = ',';
    if (cdma) p = write_uint(p, e.unit);
    p = write_lit(p, ",0");
    if (e.matched()) p[-1] = '1';
    if (!extra_.empty()) p = std::copy(extra_.begin(), extra_.end(), p);
    if (opt_.crlf) *p++ = '\r';
    *p++ = '\n';
    buf_.commit(p);
  }

  void finish() {
    head();
    buf_.flush();
  }

  /// The transfer touches L2 memory (M): its bandwidth goes to `l2m_gbps`.
  static constexpr bool l2_side(direction d) noexcept {
    switch (d) {
      case direction::l2m:
      case direction::s2m:
      case direction::m2s:
      case direction::m2l:
      case direction::m2m:
      case direction::c2m:
        return true;
      default:
        return false;
    }
  }
  /// `ddr_gbps` is written unless the transfer is L2-only (L2M, M2L, M2M, C2M);
  /// DDR<->L2 transfers fill both columns.
  static constexpr bool ddr_side(direction d) noexcept {
    return !l2_side(d) || d == direction::s2m || d == direction::m2s;
  }

  std::size_t bytes_written() const noexcept { return buf_.bytes_written(); }

 private:
  const name_table& names() const noexcept {
    static const name_table empty;
    return info_ ? info_->names : empty;
  }
  /// CSV field text of name `id` (quoted when needed), cached per id;
  /// `unknown_if_empty` gives "unknown" for no name (the op column).
  std::string_view field(name_id id, bool unknown_if_empty) {
    std::string_view s = id ? names()[id] : std::string_view{};
    if (s.empty()) return unknown_if_empty ? std::string_view{"unknown"} : std::string_view{};
    if (id < state_.size() && state_[id] != 0) return state_[id] == 1 ? s : quoted_[id];
    return fill(id, s);
  }
  [[gnu::noinline]] std::string_view fill(name_id id, std::string_view s) {
    if (id >= state_.size()) {
      state_.resize(std::size_t{id} + 1, 0);
      quoted_.resize(std::size_t{id} + 1);
    }
    if (!detail::csv_needs_quotes(s)) {
      state_[id] = 1;
      return s;
    }
    std::string& q = quoted_[id];
    q = "\"";
    for (char c : s) {
      q += c;
      if (c == '"') q += '"';
    }
    q += '"';
    state_[id] = 2;
    return q;
  }
  void eol() { buf_.append(opt_.crlf ? std::string_view{"\r\n"} : std::string_view{"\n"}); }
  void head() {
    if (headed_) return;
    headed_ = true;
    if (!opt_.header) return;
    buf_.append(header_line);
    if (!opt_.extra_header.empty()) buf_.append(opt_.extra_header);
    eol();
  }

  detail::out_buffer buf_;
  csv_options opt_;
  const trace_info* info_ = nullptr;
  double origin_ = 0;
  bool headed_ = false;
  std::string extra_;                ///< the extra cells of the current row
  std::vector<std::uint8_t> state_;  // per name id: 0 = unknown, 1 = plain, 2 = quoted_
  std::vector<std::string> quoted_;
};

/// One row per (device, core/port, engine) track, in display order
/// (display_less), written at finish(): event count, first and last time
/// after the origin, busy time (busy_accumulator), bytes, mean
/// bandwidth (bytes / busy time of byte-carrying events) and utilization of
/// the trace span. Derived rows (layer, function, ...) get rows too.
class csv_summary_sink {
 public:
  static constexpr std::string_view header_line =
      "device,core,engine,port,count,first_ns,last_ns,busy_ns,utilization_pct,bytes,mean_gbps";

  explicit csv_summary_sink(byte_output out, csv_options opt = {})
      : buf_(out, opt.buffer_bytes), opt_(opt) {}

  void begin(const trace_info& info) {
    span_begin_ = info.begin_ns;
    span_end_ = info.end_ns;
    origin_ = track_layout(info).origin_ns;
  }

  void write(const engine_event& e) {
    auto& a = acc_[track_of(e)];
    a.busy.add(e.begin_ns, e.end_ns);
    if (e.has_bytes()) {
      a.bytes += e.bytes;
      a.byte_time += std::max(e.begin_ns, e.end_ns) - e.begin_ns;
    }
  }

  void finish() {
    if (opt_.header) {
      buf_.append(header_line);
      eol();
    }
    double span = span_end_ - span_begin_;
    for (const auto& [k, a] : acc_) {
      const bool cdma = k.eng == engine::cdma;
      detail::put_int(buf_, unsigned{k.device});
      buf_.put(',');
      if (!cdma) detail::put_int(buf_, unsigned{k.unit});
      buf_.put(',');
      buf_.append(name(k.eng));
      buf_.put(',');
      if (cdma) detail::put_int(buf_, unsigned{k.unit});
      buf_.put(',');
      detail::put_int(buf_, a.busy.count);
      buf_.put(',');
      detail::put_double(buf_, a.busy.first - origin_);
      buf_.put(',');
      detail::put_double(buf_, a.busy.last - origin_);
      buf_.put(',');
      detail::put_double(buf_, a.busy.busy);
      buf_.put(',');
      if (span > 0) detail::put_double(buf_, std::round(a.busy.busy / span * 1e6) / 1e4);
      buf_.put(',');
      if (a.byte_time > 0 || a.bytes) detail::put_int(buf_, a.bytes);
      buf_.put(',');
      if (a.byte_time > 0) detail::put_double(buf_, static_cast<double>(a.bytes) / a.byte_time);
      eol();
    }
    buf_.flush();
  }

 private:
  struct display_order {
    bool operator()(track_key a, track_key b) const noexcept { return display_less(a, b); }
  };
  struct acc {
    busy_accumulator busy;
    std::uint64_t bytes = 0;
    double byte_time = 0;
  };
  void eol() { buf_.append(opt_.crlf ? std::string_view{"\r\n"} : std::string_view{"\n"}); }

  detail::out_buffer buf_;
  csv_options opt_;
  double span_begin_ = 0, span_end_ = 0, origin_ = 0;
  std::map<track_key, acc, display_order> acc_;
};

static_assert(event_sink<csv_sink>);
static_assert(event_sink<csv_summary_sink>);

}  // namespace tpuprof::sinks
