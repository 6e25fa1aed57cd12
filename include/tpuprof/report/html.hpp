/// The HTML report application: one self-contained page (overview, canvas
/// timeline, bandwidth and memory charts, sortable tables), inline JS and CSS,
/// no network. Outside the umbrella header: include it on its own. It
/// computes with views/ and algo/ and renders (report/detail/); the names
/// stay available as tpuprof::sinks::write_html, html_sink, ... .
#pragma once

#include <concepts>
#include <filesystem>
#include <functional>
#include <ranges>
#include <span>
#include <utility>
#include <vector>

#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/operand_source.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/report/detail/report_writer.hpp>
#include <tpuprof/report/html_options.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::report {

using sinks::byte_output;

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

}  // namespace tpuprof::report

namespace tpuprof::sinks {
using report::html_sink;
using report::write_html;
using report::write_html_file;
}  // namespace tpuprof::sinks
