/// chrome_json_sink: streams a Chrome Trace Event JSON file (`X` slices,
/// `M` names and sort order, `C` counters) through a fixed buffer.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/sinks/counter_sample.hpp>
#include <tpuprof/sinks/detail/text_format.hpp>
#include <tpuprof/sinks/detail/window_counter.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/sinks/slice_marks.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof::sinks {

struct chrome_json_options {
  /// Derived `C` counters per hardware track ("utilization (%)", and
  /// "bandwidth (GB/s)" for DMA engines), averaged over windows.
  bool counters = true;
  std::int64_t counter_window_ns = 0;  ///< 0 = automatic
  std::size_t buffer_bytes = std::size_t{1} << 18;
  /// Flow arrows (`s`/`f` events) and critical-path flags (arg
  /// "critical_path": true) of some slices (caller-owned; null = none).
  const slice_marks* marks = nullptr;
};

/// Device pids are 0x40000000 + device*4096 (+2048 for CDMA ports) + unit,
/// so they never collide with host pids; tids are engine*1000 + lane + 1 and
/// threads sort by engine_rank (the display order of every sink).
/// `ts` is in us with 3 decimals relative to the track_layout's time origin
/// (exact ns); lanes come from lane_packer (docs/views.md).
class chrome_json_sink {
 public:
  static constexpr std::uint32_t device_pid_base = 0x40000000u;

  explicit chrome_json_sink(byte_output out, chrome_json_options opt = {})
      : buf_(out, opt.buffer_bytes), opt_(opt) {}

  void begin(const trace_info& info) {
    info_ = &info;
    const track_layout layout(info);
    origin_ = layout.origin();
    window_begin_ = layout.span_begin();
    window_ = opt_.counter_window_ns > 0 ? opt_.counter_window_ns
                                         : detail::auto_window_ns(info.begin_ns, info.end_ns);
    header();
  }

  /// Host spans keep their pid/tid and names; the origin moves back if they
  /// start before the device.
  void host(const io::host_trace& h) {
    header();
    if (h.spans.empty()) return;
    origin_ = std::min(origin_, h.begin_ns());
    for (const auto& p : h.processes) meta(p.pid, 0, "process_name", p.name);
    for (const auto& t : h.threads) meta(t.pid, t.tid, "thread_name", t.name);
    for (const auto& s : h.spans) {
      open_event();
      buf_.append(R"("ph":"X","cat":")");
      detail::json_escape(buf_, s.cat.empty() ? std::string_view{"host"} : std::string_view{s.cat});
      buf_.append(R"(","name":")");
      detail::json_escape(buf_, s.name);
      buf_.append(R"(","pid":)");
      detail::put_int(buf_, s.pid);
      buf_.append(R"(,"tid":)");
      detail::put_int(buf_, s.tid);
      buf_.append(R"(,"ts":)");
      detail::put_us3(buf_, s.ts_ns - origin_);
      buf_.append(R"(,"dur":)");
      detail::put_us3(buf_, std::max<std::int64_t>(0, s.dur_ns));
      buf_.put('}');
    }
  }

  void counter(const counter_sample& c) {
    header();
    std::uint32_t pid = c.core >= 0 ? group_pid(c.device, static_cast<std::uint8_t>(c.core), false)
                                    : device_pid(c.device);
    open_event();
    buf_.append(R"("ph":"C","cat":"counter","name":")");
    detail::json_escape(buf_, c.name);
    buf_.append(R"(","pid":)");
    detail::put_int(buf_, pid);
    buf_.append(R"(,"tid":0,"ts":)");
    detail::put_us3(buf_, to_ns(c.ts_ns) - origin_);
    buf_.append(R"(,"args":{")");
    detail::json_escape(buf_, c.unit.empty() ? std::string_view{"value"} : c.unit);
    buf_.append(R"(":)");
    if (std::isfinite(c.value))
      detail::put_double(buf_, c.value);
    else
      buf_.put('0');
    buf_.append("}}");
  }

  void write(const engine_event& e) {
    using namespace detail;
    header();
    auto& tr = track_for(e.device, e.unit, e.engine);
    std::int64_t b = to_ns(e.begin_ns), en = std::max(b, to_ns(e.end_ns));
    std::uint32_t lane = pick_lane(tr, b, en);
    const std::string_view op = op_json(e.op);
    const std::string_view fn =
        e.function ? esc_.get(e.function, names()[e.function]) : std::string_view{};
    const std::string_view eng = name(e.engine);
    const slice_mark* mark = opt_.marks ? opt_.marks->find(e) : nullptr;
    const slice_note* note = mark ? opt_.marks->note_of(*mark) : nullptr;
    // One reservation per event: fixed text and numbers need < 400 bytes.
    char* p = buf_.reserve(432 + eng.size() + op.size() + fn.size() +
                           (note ? 160 + note->id.size() + note->rule.size() : 0));
    if (!first_) *p++ = ',';
    first_ = false;
    p = write_lit(p, "\n{\"ph\":\"X\",\"cat\":\"");
    p = write_str(p, eng);
    p = write_lit(p, "\",\"name\":\"");
    p = write_str(p, op);
    p = write_lit(p, "\",\"pid\":");
    p = write_uint(p, tr.pid);
    p = write_lit(p, ",\"tid\":");
    p = write_uint(p, tr.tid0 + lane);
    p = write_lit(p, ",\"ts\":");
    p = write_us3(p, b - origin_);
    p = write_lit(p, ",\"dur\":");
    p = write_us3(p, en - b);
    p = write_lit(p, ",\"args\":{");
    char* const args = p;
    const auto key = [&](std::string_view k) {
      if (p != args) *p++ = ',';
      p = write_str(p, k);
    };
    if (is_hardware(e.engine)) {
      key("\"cmd_id\":");
      p = write_uint(p, e.cmd_id);
    }
    if (e.has_bytes()) {
      key("\"bytes\":");
      p = write_uint(p, e.bytes);
    }
    if (double bw = e.bandwidth_gbps(); std::isfinite(bw)) {
      key("\"ddr_bandwidth_gbps\":");
      p = write_double(p, bw);
    }
    if (std::isfinite(e.uarch_rate)) {
      key("\"uarch_rate\":");
      p = write_shortest(p, e.uarch_rate);
    }
    if (e.layer_id >= 0) {
      key("\"layer_id\":");
      p = write_int(p, e.layer_id);
    }
    if (e.function) {
      key("\"function\":\"");
      p = write_str(p, fn);
      *p++ = '"';
    }
    if (e.dir() != direction::none) {
      key("\"direction\":\"");
      p = write_str(p, name(e.dir()));
      *p++ = '"';
    }
    if (is_hardware(e.engine) && !e.matched()) {
      key("\"matched\":false");
    }
    if (mark && mark->critical) key("\"critical_path\":true");
    if (note) {  // ids and rule names are plain ASCII
      key("\"advise.finding_id\":\"");
      p = write_str(p, note->id);
      p = write_lit(p, "\",\"advise.rule\":\"");
      p = write_str(p, note->rule);
      p = write_lit(p, "\",\"advise.severity\":\"");
      p = write_str(p, note->severity.substr(0, 8));
      p = write_lit(p, "\",\"advise.recoverable_ns\":");
      p = write_double(p, note->recoverable_ns);
    }
    p = write_lit(p, "}}");
    buf_.commit(p);
    if (mark) put_flows(*mark, tr.pid, tr.tid0 + lane, (b + en) / 2);
    if (tr.counters) {
      double bytes = e.has_bytes() ? static_cast<double>(e.bytes) : 0.0;
      tr.win.add(b, en, bytes, emitter(tr));
    }
  }

  void finish() {
    if (finished_) return;
    header();
    for (auto* tr : tracks_)
      if (tr->counters) tr->win.finish(emitter(*tr));
    if (opt_.marks) put_notes(opt_.marks->notes);
    finished_ = true;
    buf_.append("\n]}\n");
    buf_.flush();
  }

  std::size_t bytes_written() const noexcept { return buf_.bytes_written(); }

 private:
  struct track_state {
    std::uint32_t pid = 0, tid0 = 0;
    std::int64_t sort0 = 0;  // thread_sort_index of lane 0: display order (engine_rank)
    lane_packer lanes;
    bool counters = false, dma = false;
    std::string counter_name;
    detail::window_counter win;
  };

  const name_table& names() const noexcept {
    static const name_table empty;
    return info_ ? info_->names : empty;
  }
  /// Escaped op name ("unknown" for none), cached per name id.
  std::string_view op_json(name_id op) {
    std::string_view s = op ? names()[op] : std::string_view{};
    if (s.empty()) return "unknown";
    return esc_.get(op, s);
  }
  static std::int64_t to_ns(double ns) noexcept { return track_layout::round_ns(ns); }
  void header() {
    if (started_) return;
    started_ = true;
    buf_.append(R"({"displayTimeUnit":"ns","traceEvents":[)");
  }
  void open_event() {
    buf_.append(first_ ? "\n{" : ",\n{");
    first_ = false;
  }
  void meta(std::uint32_t pid, std::uint32_t tid, std::string_view what, std::string_view value) {
    open_event();
    buf_.append(R"("ph":"M","cat":"__metadata","name":")");
    buf_.append(what);
    buf_.append(R"(","pid":)");
    detail::put_int(buf_, pid);
    buf_.append(R"(,"tid":)");
    detail::put_int(buf_, tid);
    buf_.append(R"(,"args":{"name":")");
    detail::json_escape(buf_, value);
    buf_.append("\"}}");
  }
  void sort_meta(std::uint32_t pid, std::uint32_t tid, std::string_view what, std::int64_t idx) {
    open_event();
    buf_.append(R"("ph":"M","cat":"__metadata","name":")");
    buf_.append(what);
    buf_.append(R"(","pid":)");
    detail::put_int(buf_, pid);
    buf_.append(R"(,"tid":)");
    detail::put_int(buf_, tid);
    buf_.append(R"(,"args":{"sort_index":)");
    detail::put_int(buf_, idx);
    buf_.append("}}");
  }
  std::string device_label(std::uint8_t d) const {
    std::string n = "TPU" + std::to_string(d);
    if (info_ && !info_->chip.empty()) n += " " + info_->chip;
    return n;
  }
  std::uint32_t device_pid(std::uint8_t d) {
    std::uint32_t pid = device_pid_base + d * 4096u + 4095u;
    if (named_pids_.emplace(pid, true).second) {
      meta(pid, 0, "process_name", device_label(d));
      sort_meta(pid, 0, "process_sort_index", d * 4096 + 4095);
    }
    return pid;
  }
  std::uint32_t group_pid(std::uint8_t d, std::uint8_t unit, bool cdma) {
    std::uint32_t pid = device_pid_base + d * 4096u + (cdma ? 2048u : 0u) + unit;
    if (named_pids_.emplace(pid, true).second) {
      meta(pid, 0, "process_name",
           device_label(d) + (cdma ? " CDMA port " : " Core ") + std::to_string(unit));
      sort_meta(pid, 0, "process_sort_index", pid - device_pid_base);
    }
    return pid;
  }
  track_state& track_for(std::uint8_t d, std::uint8_t unit, engine eng) {
    std::uint32_t key =
        (std::uint32_t{d} << 16) | (std::uint32_t{unit} << 8) | static_cast<std::uint32_t>(eng);
    if (key == last_key_) return *last_;
    auto [it, fresh] = index_.try_emplace(key);
    auto& tr = it->second;
    if (fresh) {
      tr.pid = group_pid(d, unit, eng == engine::cdma);
      tr.tid0 = static_cast<std::uint32_t>(eng) * 1000u + 1u;
      tr.sort0 = engine_rank(eng) * 1000 + 1;
      tr.lanes = lane_packer(!is_hardware(eng));
      tr.counters = opt_.counters && is_hardware(eng);
      tr.dma = is_dma(eng);
      tr.counter_name = std::string(name(eng));
      tr.win.reset(window_begin_, window_);
      tracks_.push_back(&tr);
    }
    last_key_ = key;
    last_ = &tr;
    return tr;
  }
  std::uint32_t pick_lane(track_state& tr, std::int64_t b, std::int64_t e) {
    bool fresh = false;
    const std::uint32_t lane = tr.lanes.place(b, e, fresh);
    if (fresh) {
      std::uint32_t tid = tr.tid0 + lane;
      std::string n(name(static_cast<engine>((tr.tid0 - 1) / 1000)));
      if (lane) n += " #" + std::to_string(lane);
      meta(tr.pid, tid, "thread_name", n);
      sort_meta(tr.pid, tid, "thread_sort_index", tr.sort0 + lane);
    }
    return lane;
  }
  /// Flow v1 events bound to the slice at `ts_ns` on (pid, tid): `s` where a
  /// flow starts, `f` (binding to the enclosing slice) where it ends.
  /// The advisor's findings: a "Findings (tpuprof advise)" process with one
  /// thread per finding and on it one slice over its commands' extent.
  template <class Notes>  // a template: parsed, not compiled, where unused (compile budget)
  void put_notes(const Notes& notes) {
    const std::uint32_t pid = device_pid_base - 1;
    if (!notes.empty()) meta(pid, 0, "process_name", "Findings (tpuprof advise)");
    for (std::uint32_t i = 0; i < notes.size(); ++i) {
      const slice_note& n = notes[i];
      meta(pid, i + 1, "thread_name", n.id + " " + n.rule + " (" + n.severity + ")");
      sort_meta(pid, i + 1, "thread_sort_index", i);
      const std::int64_t b = to_ns(n.begin_ns), e = std::max(b, to_ns(n.end_ns));
      open_event();
      buf_.append(R"("ph":"X","cat":"advise","name":")");
      detail::json_escape(buf_, n.id + " " + n.rule);
      buf_.append(R"(","pid":)");
      detail::put_int(buf_, pid);
      buf_.append(R"(,"tid":)");
      detail::put_int(buf_, i + 1);
      buf_.append(R"(,"ts":)");
      detail::put_us3(buf_, b - origin_);
      buf_.append(R"(,"dur":)");
      detail::put_us3(buf_, e - b);
      auto arg = [this](std::string_view k, std::string_view v) {
        buf_.append(k);
        detail::json_escape(buf_, v);
        buf_.put('"');
      };
      arg(R"(,"args":{"advise.finding_id":")", n.id);
      arg(R"(,"advise.rule":")", n.rule);
      arg(R"(,"advise.severity":")", n.severity);
      arg(R"(,"advise.message":")", n.message);
      buf_.append(R"(,"advise.recoverable_ns":)");
      detail::put_double(buf_, n.recoverable_ns);
      buf_.append("}}");
    }
  }
  void put_flows(const slice_mark& m, std::uint32_t pid, std::uint32_t tid, std::int64_t ts_ns) {
    for (int i = 0; i < 2; ++i) {
      const std::uint64_t id = i ? m.flow_in : m.flow_out;
      if (!id) continue;
      open_event();
      buf_.append(i ? R"("ph":"f","bp":"e")" : R"("ph":"s")");
      buf_.append(R"(,"cat":"critical_path","name":"critical_path","id":)");
      detail::put_int(buf_, id);
      buf_.append(R"(,"pid":)");
      detail::put_int(buf_, pid);
      buf_.append(R"(,"tid":)");
      detail::put_int(buf_, tid);
      buf_.append(R"(,"ts":)");
      detail::put_us3(buf_, ts_ns - origin_);
      buf_.put('}');
    }
  }
  struct counter_emit {
    chrome_json_sink* self;
    track_state* tr;
    void operator()(std::int64_t ts, double util, double gbps) const {
      self->put_counter(*tr, ts, util, gbps);
    }
  };
  counter_emit emitter(track_state& tr) noexcept { return {this, &tr}; }
  void put_counter(track_state& tr, std::int64_t ts, double util, double gbps) {
    {
      open_event();
      buf_.append(R"("ph":"C","cat":"counter","name":")");
      buf_.append(tr.counter_name);
      buf_.append(R"(","pid":)");
      detail::put_int(buf_, tr.pid);
      buf_.append(R"(,"tid":0,"ts":)");
      detail::put_us3(buf_, ts - origin_);
      buf_.append(R"x(,"args":{"utilization (%)":)x");
      detail::put_double(buf_, util);
      if (tr.dma) {
        buf_.append(R"x(,"bandwidth (GB/s)":)x");
        detail::put_double(buf_, gbps);
      }
      buf_.append("}}");
    }
  }

  detail::out_buffer buf_;
  detail::json_name_cache esc_;
  chrome_json_options opt_;
  const trace_info* info_ = nullptr;
  std::int64_t origin_ = 0, window_begin_ = 0, window_ = 10'000;
  bool started_ = false, first_ = true, finished_ = false;
  std::unordered_map<std::uint32_t, track_state> index_;  // node-based: stable addresses
  std::vector<track_state*> tracks_;
  std::map<std::uint32_t, bool> named_pids_;
  std::uint32_t last_key_ = ~0u;
  track_state* last_ = nullptr;
};

static_assert(event_sink<chrome_json_sink>);

}  // namespace tpuprof::sinks
