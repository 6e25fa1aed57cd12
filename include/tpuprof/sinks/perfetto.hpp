/// perfetto_sink: streams a Perfetto `.pftrace` (hand-encoded protobuf,
/// TrackEvent with interning and delta timestamps) through a fixed buffer.
/// Track tree, annotation names and SQL: docs/sinks.md.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/sinks/counter_sample.hpp>
#include <tpuprof/sinks/detail/perfetto_desc.hpp>
#include <tpuprof/sinks/detail/perfetto_marks.hpp>
#include <tpuprof/sinks/detail/perfetto_tags.hpp>
#include <tpuprof/sinks/detail/proto_writer.hpp>
#include <tpuprof/sinks/detail/window_counter.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/sinks/slice_marks.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof::sinks {

struct perfetto_options {
  /// Derived counter tracks per engine track: "<ENGINE> utilization (%)" and,
  /// for DMA engines, "<ENGINE> bandwidth (GB/s)", averaged over windows.
  bool counters = true;
  /// Counter window in ns; 0 = automatic (about 2000 windows over the trace).
  std::int64_t counter_window_ns = 0;
  /// Bytes buffered before each write to the output.
  std::size_t buffer_bytes = std::size_t{1} << 18;
  /// Flow arrows and critical-path flags of some slices (caller-owned; null = none).
  const slice_marks* marks = nullptr;
};

/// Writes engine events (and host spans, counters) as Perfetto TrackEvents.
/// Device d -> "Core n" / "CDMA port p" -> engine tracks; slices named by op.
/// Overlapping events on one engine go to extra same-named tracks (lanes,
/// from lane_packer); times are ns after the track_layout's origin.
/// Memory: the buffer plus a small state per track (never per event).
class perfetto_sink {
 public:
  explicit perfetto_sink(byte_output out, perfetto_options opt = {})
      : buf_(out, opt.buffer_bytes), opt_(opt) {}

  void begin(const trace_info& info) {
    info_ = &info;
    const track_layout layout(info);
    shift_ = std::max(shift_, -layout.origin());
    window_ = opt_.counter_window_ns > 0 ? opt_.counter_window_ns
                                         : detail::auto_window_ns(info.begin_ns, info.end_ns);
    window_begin_ = layout.span_begin();
    for (const auto& t : info.tracks) track_for(t.device, t.unit, t.eng);
  }

  template <class Host = io::host_trace>  // a template: compiled where used (compile budget)
  void host(const Host& h) {
    if (h.spans.empty()) return;
    if (h.begin_ns() + shift_ < 0) shift_ = -h.begin_ns();
    // Per thread, in (ts, longer first) order, so that nesting and deltas work.
    std::vector<std::uint32_t> order(h.spans.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const auto &x = h.spans[a], &y = h.spans[b];
      return std::tie(x.pid, x.tid, x.ts_ns, y.dur_ns) < std::tie(y.pid, y.tid, y.ts_ns, x.dur_ns);
    });
    for (std::uint32_t i : order) {
      const auto& s = h.spans[i];
      auto& tr = host_track(h, s.pid, s.tid);
      std::int64_t b = s.ts_ns + shift_, e = b + std::max<std::int64_t>(0, s.dur_ns);
      slice(
          tr, b, e,
          [&](std::uint8_t*& p, std::size_t lane) {
            using namespace detail::proto;
            using detail::perfetto::track_event;
            auto* te = begin_nested(p, detail::perfetto::trace_packet::track_event);
            p = put_uint(p, track_event::type, detail::perfetto::value::slice_begin);
            if (lane) p = put_uint(p, track_event::track_uuid, tr.lanes[lane]);
            p = put_string(p, track_event::name, s.name);
            if (!s.cat.empty()) p = put_string(p, track_event::categories, s.cat);
            p = end_nested(te, p);
          },
          64 + detail::proto::string_bound(s.name) + detail::proto::string_bound(s.cat));
    }
  }

  /// A user counter (e.g. from views::bandwidth); its track is declared on
  /// first use under the device or core.
  void counter(const counter_sample& c) {
    std::uint64_t uuid = user_counter_track(c);
    put_counter(uuid, to_ns(c.ts_ns), c.value);
  }

  void write(const engine_event& e) {
    auto& tr = track_for(e.device, e.unit, e.engine);
    ++tr.written;
    std::int64_t b = to_ns(e.begin_ns), en = std::max(b, to_ns(e.end_ns));
    const bool hw = is_hardware(e.engine);
    const name_id op = e.op;
    std::string_view fn = e.function ? names()[e.function] : std::string_view{};
    const bool new_op = !test_set(tr.names_done, op);
    const bool new_fn = e.function && !test_set(tr.strs_done, e.function);
    const auto dir = e.dir();
    const std::uint32_t dir_iid = dir_iid_base + static_cast<std::uint32_t>(dir);
    const bool new_dir = dir != direction::none && !test_set(tr.strs_done, dir_iid);
    std::size_t need = 200;
    const slice_mark* mark = opt_.marks ? opt_.marks->find(e) : nullptr;
    const slice_note* note = mark ? opt_.marks->note_of(*mark) : nullptr;
    if (mark) need += detail::perfetto::mark_bound;
    if (note) need += detail::perfetto::note_bound(*note, false);
    if (new_op) need += detail::proto::string_bound(op_name(op)) + 16;
    if (new_fn) need += detail::proto::string_bound(fn) + 16;
    slice(
        tr, b, en,
        [&](std::uint8_t*& p, std::size_t lane) {
          using namespace detail::proto;
          using namespace detail::perfetto;
          if (new_op || new_fn || new_dir) {
            auto* id = begin_nested(p, trace_packet::interned_data);
            if (new_op) p = interned(p, interned_data::event_names, op + 1u, op_name(op));
            if (new_fn) p = interned(p, strings, e.function + 1u, fn);
            if (new_dir) p = interned(p, strings, dir_iid, name(dir));
            p = end_nested(id, p);
          }
          auto* te = begin_nested(p, trace_packet::track_event);
          p = put_uint(p, track_event::type, value::slice_begin);
          if (lane) p = put_uint(p, track_event::track_uuid, tr.lanes[lane]);
          p = put_uint(p, track_event::name_iid, op + 1u);
          if (hw) p = annot_int(p, a_cmd_id, e.cmd_id);
          if (e.has_bytes()) p = annot_int(p, a_bytes, static_cast<std::int64_t>(e.bytes));
          if (double bw = e.bandwidth_gbps(); !std::isnan(bw)) p = annot_double(p, a_ddr_gbps, bw);
          if (!std::isnan(e.uarch_rate)) p = annot_double(p, a_uarch, e.uarch_rate);
          if (e.layer_id >= 0) p = annot_int(p, a_layer, e.layer_id);
          if (e.function) p = annot_str(p, a_function, e.function + 1u);
          if (dir != direction::none) p = annot_str(p, a_direction, dir_iid);
          if (hw && !e.matched()) {
            auto* a = begin_nested(p, track_event::debug_annotations);
            p = put_uint(p, debug_annotation::name_iid, a_matched);
            p = put_uint(p, debug_annotation::bool_value, 0);
            p = end_nested(a, p);
          }
          if (mark) p = put_mark(p, *mark, note);
          p = end_nested(te, p);
        },
        need);
    if (tr.util_uuid) {
      double bytes = e.has_bytes() ? static_cast<double>(e.bytes) : 0.0;
      tr.win.add(b, en, bytes, counter_emitter(tr));
    }
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    if (opt_.marks && !opt_.marks->notes.empty()) put_notes(opt_.marks->notes);
    for (auto& tr : tracks_) {
      tr.packer.close_all([&](std::int64_t end, std::uint32_t lane) { put_end(tr, end, lane); });
      if (tr.util_uuid) tr.win.finish(counter_emitter(tr));
    }
    buf_.flush();
    pool_.reset();  // no part is forked after the end: free the spare blocks
  }

  /// Bytes produced so far (including the buffered ones).
  std::size_t bytes_written() const noexcept { return buf_.bytes_written(); }

  /// The events of one unit formatted away from the sink (parallel
  /// streaming): fork(), part::write() on a worker, join(). Defined in
  /// sinks/perfetto_part.hpp, which tpuprof/stream.hpp includes (like fmt's
  /// format-inl.h: compiled only where wanted); without it, perfetto_sink is
  /// no forkable_sink and streams are written from the calling thread.
  template <class Sink = perfetto_sink>  // a template: compiled where used
  class basic_part;
  using part = basic_part<>;
  /// A part for the events of `unit` (a core, or the CDMA port of that
  /// number) on `device`, formatted from a copy of its tracks; names are read
  /// from `names` (the caller's copy of the table, that nobody extends
  /// meanwhile). Call on the sink's thread after begin(); the tracks must
  /// exist (begin() makes those of trace_info::tracks).
  // Templates: parsed, not compiled, where unused (compile budget).
  template <class Info = trace_info, class P = part>
  P fork(std::uint8_t device, std::uint8_t unit, const Info& names) const;
  /// The output of write(e) for every e of `events` (exactly what `p` was
  /// given): p's bytes when what it assumed at fork still holds (no lane or
  /// track added since by other units, none of its tracks written here),
  /// else `events` written again. Returns whether p's bytes were used.
  template <class P, class Events = std::span<const engine_event>>
  bool join(P&& p, Events events);

  /// Debug annotation names (TP args key = "debug." + name).
  static constexpr std::string_view annotation_names[] = {
      "",         "cmd_id",    "bytes",  "ddr_bandwidth_gbps", "uarch_rate", "layer_id",
      "function", "direction", "matched"};

 private:
  enum : std::uint32_t {
    a_cmd_id = 1,
    a_bytes,
    a_ddr_gbps,
    a_uarch,
    a_layer,
    a_function,
    a_direction,
    a_matched,
    a_count
  };
  /// A part's encoder: writes into blocks (perfetto_part.hpp).
  perfetto_sink(detail::block_hooks blocks, perfetto_options opt)
      : buf_(blocks, opt.buffer_bytes), opt_(opt) {}

  static constexpr std::uint32_t dir_iid_base = 0x20000;
  static constexpr auto strings = detail::perfetto::interned_data::debug_annotation_string_values;
  struct slice_track {
    std::uint32_t seq = 0;
    std::uint64_t parent = 0;
    std::string name;
    std::int32_t rank = 0;
    bool thread = false;  // host thread: extra lanes go under the process
    std::uint64_t lane_parent = 0;
    std::vector<std::uint64_t> lanes;  // track uuid per lane
    lane_packer packer;
    bool started = false;
    std::int64_t last_ts = 0;
    std::vector<std::uint64_t> names_done, strs_done;
    std::uint64_t util_uuid = 0, bw_uuid = 0;
    detail::window_counter win;
    std::uint64_t written = 0;  ///< events written (join() checks a part's tracks)
  };

  static bool test_set(std::vector<std::uint64_t>& bits, std::uint32_t i) {
    std::size_t w = i >> 6;
    if (w >= bits.size()) bits.resize(w + 1);
    std::uint64_t m = std::uint64_t{1} << (i & 63);
    bool was = (bits[w] & m) != 0;
    bits[w] |= m;
    return was;
  }
  const name_table& names() const noexcept {
    static const name_table empty;
    return info_ ? info_->names : empty;
  }
  std::string_view op_name(name_id op) const noexcept {
    std::string_view s = op ? names()[op] : std::string_view{};
    return s.empty() ? std::string_view{"unknown"} : s;
  }
  std::int64_t to_ns(double ns) const noexcept {
    if (!(ns == ns)) return shift_;
    if (std::fabs(ns) < 0x1p62) {  // llround without the libm call; ns - i is exact
      const auto i = static_cast<std::int64_t>(ns);
      const double f = ns - static_cast<double>(i);
      return i + (f >= 0.5) - (f <= -0.5) + shift_;
    }
    return static_cast<std::int64_t>(std::llround(ns)) + shift_;
  }

  static std::uint8_t* interned(std::uint8_t* p, detail::perfetto::interned_data field,
                                std::uint64_t iid, std::string_view s) {
    using namespace detail::proto;
    using detail::perfetto::interned_string;
    auto* m = begin_nested(p, field);
    p = put_uint(p, interned_string::iid, iid);
    p = put_string(p, interned_string::name, s);
    return end_nested(m, p);
  }
  /// A debug annotation named `iid` with `v` in field `f` (int, double, string iid).
  template <class V>
  static std::uint8_t* annot(std::uint8_t* p, std::uint32_t iid,
                             detail::perfetto::debug_annotation f, V v) {
    using namespace detail::proto;
    using detail::perfetto::debug_annotation;
    auto* a = begin_nested(p, detail::perfetto::track_event::debug_annotations);
    p = put_uint(p, debug_annotation::name_iid, iid);
    if constexpr (std::is_floating_point_v<V>)
      p = put_double(p, f, v);
    else
      p = put_int(p, f, static_cast<std::int64_t>(v));
    return end_nested(a, p);
  }
  static std::uint8_t* annot_int(std::uint8_t* p, std::uint32_t iid, std::int64_t v) {
    return annot(p, iid, detail::perfetto::debug_annotation::int_value, v);
  }
  static std::uint8_t* annot_double(std::uint8_t* p, std::uint32_t iid, double v) {
    return annot(p, iid, detail::perfetto::debug_annotation::double_value, v);
  }
  static std::uint8_t* annot_str(std::uint8_t* p, std::uint32_t iid, std::uint64_t str_iid) {
    return annot(p, iid, detail::perfetto::debug_annotation::string_value_iid, str_iid);
  }

  std::uint8_t* reserve(std::size_t n) { return reinterpret_cast<std::uint8_t*>(buf_.reserve(n)); }
  void commit(std::uint8_t* p) { buf_.commit(reinterpret_cast<char*>(p)); }

  // ---- descriptors (detail/perfetto_desc.hpp) -------------------------------
  using desc = detail::perfetto::track_desc;
  void put_descriptor(const desc& d) { detail::perfetto::put_descriptor(buf_, d); }

  std::uint64_t device_track(std::uint8_t d) {
    auto [it, fresh] = devices_.try_emplace(d, 0);
    if (fresh) {
      it->second = next_uuid_++;
      std::string n = "TPU" + std::to_string(d);
      if (info_ && !info_->chip.empty()) n += " " + info_->chip;
      put_descriptor(detail::perfetto::plain(it->second, 0, n, d, true));
    }
    return it->second;
  }
  std::uint64_t group_track(std::uint8_t d, std::uint8_t unit, bool cdma) {
    std::uint32_t key = (std::uint32_t{d} << 9) | (cdma ? 256u : 0u) | unit;
    auto [it, fresh] = groups_.try_emplace(key, 0);
    if (fresh) {
      std::uint64_t parent = device_track(d);
      it->second = next_uuid_++;
      std::string n = (cdma ? "CDMA port " : "Core ") + std::to_string(unit);
      put_descriptor(
          detail::perfetto::plain(it->second, parent, n, (cdma ? 1000 : 0) + unit, true));
    }
    return it->second;
  }

  slice_track& track_for(std::uint8_t d, std::uint8_t unit, engine eng) {
    std::uint32_t key =
        (std::uint32_t{d} << 16) | (std::uint32_t{unit} << 8) | static_cast<std::uint32_t>(eng);
    if (key == last_key_ && last_track_ < tracks_.size()) [[likely]]
      return tracks_[last_track_];
    return track_of(key, d, unit, eng);
  }
  [[gnu::noinline]] slice_track& track_of(std::uint32_t key, std::uint8_t d, std::uint8_t unit,
                                          engine eng) {
    auto [it, fresh] = index_.try_emplace(key, tracks_.size());
    if (fresh) {
      std::uint64_t parent = group_track(d, unit, eng == engine::cdma);
      auto& tr = tracks_.emplace_back();
      tr.seq = next_seq_++;
      tr.parent = parent;
      tr.lane_parent = parent;
      tr.name = std::string(name(eng));
      if (eng == engine::kernel_function) tr.name = "Kernel Function";
      if (eng == engine::layer) tr.name = "Layer";
      if (eng == engine::subnet) tr.name = "Subnet";
      tr.rank = engine_rank(eng) * 4;
      tr.packer = lane_packer(!is_hardware(eng));
      tr.packer.reserve_first();
      add_lane(tr);
      if (opt_.counters && is_hardware(eng)) {
        tr.win.reset(window_begin_ + shift_, window_);
        tr.util_uuid = next_uuid_++;
        std::string n = tr.name + " utilization (%)";
        put_descriptor(detail::perfetto::counter_track(tr.util_uuid, parent, n, tr.rank + 1, "%"));
        if (is_dma(eng)) {
          tr.bw_uuid = next_uuid_++;
          n = tr.name + " bandwidth (GB/s)";
          put_descriptor(
              detail::perfetto::counter_track(tr.bw_uuid, parent, n, tr.rank + 2, "GB/s"));
        }
      }
    }
    last_key_ = key;
    last_track_ = it->second;
    return tracks_[it->second];
  }

  slice_track& host_track(const io::host_trace& h, std::uint32_t pid, std::uint32_t tid) {
    std::uint64_t key = (std::uint64_t{pid} << 32) | tid;
    auto [it, fresh] = host_index_.try_emplace(key, tracks_.size());
    if (fresh) {
      auto [pit, pfresh] = host_procs_.try_emplace(pid, 0);
      if (pfresh) {
        pit->second = next_uuid_++;
        std::string pn(h.process_name(pid));
        if (pn.empty()) pn = "host " + std::to_string(pid);
        put_descriptor(detail::perfetto::process_or_thread(pit->second, pn, pid));
      }
      auto& tr = tracks_.emplace_back();
      tr.seq = next_seq_++;
      tr.name = std::string(h.thread_name(pid, tid));
      if (tr.name.empty()) tr.name = "thread " + std::to_string(tid);
      tr.packer = lane_packer(true);
      tr.packer.reserve_first();
      tr.thread = true;
      tr.lane_parent = pit->second;
      std::uint64_t uuid = next_uuid_++;
      tr.lanes.push_back(uuid);
      put_descriptor(detail::perfetto::process_or_thread(uuid, tr.name, pid, tid));
      last_key_ = ~0u;
    }
    return tracks_[it->second];
  }

  void add_lane(slice_track& tr) {
    std::uint64_t uuid = next_uuid_++;
    tr.lanes.push_back(uuid);
    if (tr.thread) {
      std::string n = tr.name + " (overlap)";
      put_descriptor(detail::perfetto::plain(uuid, tr.lane_parent, n));
    } else {
      put_descriptor(detail::perfetto::plain(uuid, tr.lane_parent, tr.name, tr.rank));
    }
  }

  // ---- sequences and slices -------------------------------------------------
  /// First packet of a sequence: clear state, defaults (clock 64, lane-0
  /// track), interned annotation names, clock snapshot at `t0`.
  void start_sequence(slice_track& tr, std::int64_t t0) {
    using namespace detail::proto;
    using namespace detail::perfetto;
    auto* p = reserve(512);
    auto* pkt = begin_nested(p, trace_root::packet);
    p = put_uint(p, trace_packet::trusted_packet_sequence_id, tr.seq);
    p = put_uint(p, trace_packet::sequence_flags, value::incremental_state_cleared);
    auto* d = begin_nested(p, trace_packet::trace_packet_defaults);
    p = put_uint(p, trace_packet_defaults::timestamp_clock_id, value::clock_incremental_ns);
    auto* ted = begin_nested(p, trace_packet_defaults::track_event_defaults);
    p = put_uint(p, track_event_defaults::track_uuid, tr.lanes[0]);
    p = end_nested(ted, p);
    p = end_nested(d, p);
    auto* id = begin_nested(p, trace_packet::interned_data);
    for (std::uint32_t i = 1; i < a_count; ++i)
      p = interned(p, interned_data::debug_annotation_names, i, annotation_names[i]);
    p = end_nested(id, p);
    auto* cs = begin_nested(p, trace_packet::clock_snapshot);
    auto* c0 = begin_nested(p, clock_snapshot::clocks);
    p = put_uint(p, clock::clock_id, value::clock_boottime);
    p = put_uint(p, clock::timestamp, static_cast<std::uint64_t>(t0));
    p = end_nested(c0, p);
    auto* c1 = begin_nested(p, clock_snapshot::clocks);
    p = put_uint(p, clock::clock_id, value::clock_incremental_ns);
    p = put_uint(p, clock::timestamp, static_cast<std::uint64_t>(t0));
    p = put_uint(p, clock::is_incremental, 1);
    p = end_nested(c1, p);
    p = end_nested(cs, p);
    p = end_nested(pkt, p);
    commit(p);
    tr.started = true;
    tr.last_ts = t0;
  }

  std::uint8_t* put_ts(std::uint8_t* p, slice_track& tr, std::int64_t t) {
    using namespace detail::proto;
    using detail::perfetto::trace_packet;
    if (t >= tr.last_ts) {
      p = put_uint(p, trace_packet::timestamp, static_cast<std::uint64_t>(t - tr.last_ts));
      tr.last_ts = t;
      return p;
    }
    // Back in time (unsorted input): absolute BOOTTIME, delta base unchanged.
    p = put_uint(p, trace_packet::timestamp_clock_id, detail::perfetto::value::clock_boottime);
    return put_uint(p, trace_packet::timestamp,
                    static_cast<std::uint64_t>(std::max<std::int64_t>(0, t)));
  }

  void put_end(slice_track& tr, std::int64_t t, std::uint32_t lane) {
    using namespace detail::proto;
    using namespace detail::perfetto;
    auto* p = reserve(64);
    auto* pkt = begin_nested(p, trace_root::packet);
    p = put_ts(p, tr, t);
    p = put_uint(p, trace_packet::trusted_packet_sequence_id, tr.seq);
    p = put_uint(p, trace_packet::sequence_flags, value::needs_incremental_state);
    auto* te = begin_nested(p, trace_packet::track_event);
    p = put_uint(p, track_event::type, value::slice_end);
    if (lane) p = put_uint(p, track_event::track_uuid, tr.lanes[lane]);
    p = end_nested(te, p);
    p = end_nested(pkt, p);
    commit(p);
  }

  /// Emits BEGIN (body written by `body(p, lane)`) at b and schedules END at e.
  template <class Body>
  void slice(slice_track& tr, std::int64_t b, std::int64_t e, Body&& body, std::size_t need) {
    using namespace detail::proto;
    using namespace detail::perfetto;
    if (!tr.started) start_sequence(tr, b);
    tr.packer.close_until(b, [&](std::int64_t end, std::uint32_t l) { put_end(tr, end, l); });
    bool fresh = false;
    const std::uint32_t lane = tr.packer.open(e, fresh);
    if (lane >= tr.lanes.size()) add_lane(tr);
    auto* p = reserve(need + 32);
    auto* pkt = begin_nested(p, trace_root::packet);
    p = put_ts(p, tr, b);
    p = put_uint(p, trace_packet::trusted_packet_sequence_id, tr.seq);
    p = put_uint(p, trace_packet::sequence_flags, value::needs_incremental_state);
    body(p, lane);
    p = end_nested(pkt, p);
    commit(p);
  }

  /// The advisor's findings: a "Findings (tpuprof advise)" track with one
  /// child track per finding and on it one slice over its commands' extent.
  template <class Notes>  // a template: parsed, not compiled, where unused (compile budget)
  void put_notes(const Notes& notes) {
    const std::uint64_t root = next_uuid_++;
    put_descriptor(detail::perfetto::plain(root, 0, "Findings (tpuprof advise)", -1, true));
    for (std::size_t i = 0; i < notes.size(); ++i) {
      const slice_note& n = notes[i];
      auto& tr = tracks_.emplace_back();
      tr.seq = next_seq_++;
      tr.name = n.id + " " + n.rule + " (" + n.severity + ")";
      tr.rank = static_cast<std::int32_t>(i);
      tr.lane_parent = root;
      tr.packer = lane_packer(true);
      tr.packer.reserve_first();
      add_lane(tr);
      const std::int64_t b = to_ns(n.begin_ns), e = std::max(b, to_ns(n.end_ns));
      const std::string label = n.id + " " + n.rule;
      slice(
          tr, b, e,
          [&](std::uint8_t*& p, std::size_t) {
            using namespace detail::proto;
            using namespace detail::perfetto;
            auto* te = begin_nested(p, trace_packet::track_event);
            p = put_uint(p, track_event::type, value::slice_begin);
            p = put_string(p, track_event::name, label);
            p = put_note(p, n, true);
            p = end_nested(te, p);
          },
          64 + detail::proto::string_bound(label) + detail::perfetto::note_bound(n, true));
    }
  }

  // ---- counters ---------------------------------------------------------------
  std::uint32_t counter_seq() {
    if (!counter_seq_) counter_seq_ = next_seq_++;
    return counter_seq_;
  }
  void put_counter(std::uint64_t uuid, std::int64_t ts, double v) {
    using namespace detail::proto;
    using namespace detail::perfetto;
    auto* p = reserve(64);
    auto* pkt = begin_nested(p, trace_root::packet);
    p = put_uint(p, trace_packet::timestamp,
                 static_cast<std::uint64_t>(std::max<std::int64_t>(0, ts)));
    p = put_uint(p, trace_packet::trusted_packet_sequence_id, counter_seq());
    auto* te = begin_nested(p, trace_packet::track_event);
    p = put_uint(p, track_event::type, value::counter);
    p = put_uint(p, track_event::track_uuid, uuid);
    p = put_double(p, track_event::double_counter_value, v);
    p = end_nested(te, p);
    p = end_nested(pkt, p);
    commit(p);
  }
  struct counter_emit {
    perfetto_sink* self;
    slice_track* tr;
    void operator()(std::int64_t ts, double util, double gbps) const {
      self->put_counter(tr->util_uuid, ts, util);
      if (tr->bw_uuid) self->put_counter(tr->bw_uuid, ts, gbps);
    }
  };
  counter_emit counter_emitter(slice_track& tr) noexcept { return {this, &tr}; }
  std::uint64_t user_counter_track(const counter_sample& c) {
    auto key = std::make_tuple(c.device, c.core, std::string(c.name));
    auto [it, fresh] = user_counters_.try_emplace(std::move(key), 0);
    if (fresh) {
      std::uint64_t parent = c.core >= 0
                                 ? group_track(c.device, static_cast<std::uint8_t>(c.core), false)
                                 : device_track(c.device);
      it->second = next_uuid_++;
      std::string n(c.name);
      put_descriptor(detail::perfetto::counter_track(it->second, parent, n, 100, c.unit));
    }
    return it->second;
  }

  detail::out_buffer buf_;
  perfetto_options opt_;
  const trace_info* info_ = nullptr;
  std::int64_t shift_ = 0, window_begin_ = 0, window_ = 10'000;
  std::uint64_t next_uuid_ = 1;
  std::uint32_t next_seq_ = 2, counter_seq_ = 0;
  std::map<std::uint8_t, std::uint64_t> devices_;
  std::map<std::uint32_t, std::uint64_t> groups_;
  std::deque<slice_track> tracks_;
  std::unordered_map<std::uint32_t, std::size_t> index_;
  std::unordered_map<std::uint64_t, std::size_t> host_index_;
  std::map<std::uint32_t, std::uint64_t> host_procs_;
  std::map<std::tuple<std::uint8_t, std::int16_t, std::string>, std::uint64_t> user_counters_;
  std::uint32_t last_key_ = ~0u;
  std::size_t last_track_ = 0;
  bool finished_ = false;
  mutable std::shared_ptr<tpuprof::detail::block_pool> pool_;  ///< for parts (perfetto_part.hpp)
};

static_assert(event_sink<perfetto_sink>);

}  // namespace tpuprof::sinks
