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
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/sinks/counter_sample.hpp>
#include <tpuprof/sinks/detail/proto_writer.hpp>
#include <tpuprof/sinks/detail/window_counter.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::sinks {

struct perfetto_options {
  /// Derived counter tracks per engine track: "<ENGINE> utilization (%)" and,
  /// for DMA engines, "<ENGINE> bandwidth (GB/s)", averaged over windows.
  bool counters = true;
  /// Counter window in ns; 0 = automatic (about 2000 windows over the trace).
  std::int64_t counter_window_ns = 0;
  /// Bytes buffered before each write to the output.
  std::size_t buffer_bytes = std::size_t{1} << 18;
};

/// Writes engine events (and host spans, counters) as Perfetto TrackEvents.
/// Device d -> "Core n" / "CDMA port p" -> engine tracks; slices named by op.
/// Overlapping events on one engine go to extra same-named tracks (lanes).
/// Memory: the buffer plus a small state per track (never per event).
class perfetto_sink {
 public:
  explicit perfetto_sink(byte_output out, perfetto_options opt = {})
      : buf_(out, opt.buffer_bytes), opt_(opt) {}

  void begin(const trace_info& info) {
    info_ = &info;
    double lo = info.begin_ns;
    if (lo < 0) shift_ = std::max(shift_, static_cast<std::int64_t>(std::ceil(-lo)));
    window_ = opt_.counter_window_ns > 0 ? opt_.counter_window_ns
                                         : detail::auto_window_ns(info.begin_ns, info.end_ns);
    origin_ =
        info.end_ns > info.begin_ns ? static_cast<std::int64_t>(std::floor(info.begin_ns)) : 0;
    for (const auto& t : info.tracks) track_for(t.device, t.unit, t.eng);
  }

  void host(const io::host_trace& h) {
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
            auto* te = detail::proto::begin_nested(p, 11);
            p = detail::proto::put_uint(p, 9, 1);
            if (lane) p = detail::proto::put_uint(p, 11, tr.lanes[lane].uuid);
            p = detail::proto::put_string(p, 23, s.name);
            if (!s.cat.empty()) p = detail::proto::put_string(p, 22, s.cat);
            p = detail::proto::end_nested(te, p);
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
    if (new_op) need += detail::proto::string_bound(op_name(op)) + 16;
    if (new_fn) need += detail::proto::string_bound(fn) + 16;
    slice(
        tr, b, en,
        [&](std::uint8_t*& p, std::size_t lane) {
          using namespace detail::proto;
          if (new_op || new_fn || new_dir) {
            auto* id = begin_nested(p, 12);
            if (new_op) p = interned(p, 2, op + 1u, op_name(op));
            if (new_fn) p = interned(p, 29, e.function + 1u, fn);
            if (new_dir) p = interned(p, 29, dir_iid, name(dir));
            p = end_nested(id, p);
          }
          auto* te = begin_nested(p, 11);
          p = put_uint(p, 9, 1);
          if (lane) p = put_uint(p, 11, tr.lanes[lane].uuid);
          p = put_uint(p, 10, op + 1u);
          if (hw) p = annot_int(p, a_cmd_id, e.cmd_id);
          if (e.has_bytes()) p = annot_int(p, a_bytes, static_cast<std::int64_t>(e.bytes));
          if (double bw = e.bandwidth_gbps(); !std::isnan(bw)) p = annot_double(p, a_ddr_gbps, bw);
          if (!std::isnan(e.uarch_rate)) p = annot_double(p, a_uarch, e.uarch_rate);
          if (e.layer_id >= 0) p = annot_int(p, a_layer, e.layer_id);
          if (e.function) p = annot_str(p, a_function, e.function + 1u);
          if (dir != direction::none) p = annot_str(p, a_direction, dir_iid);
          if (hw && !e.matched()) {
            auto* a = begin_nested(p, 4);
            p = put_uint(p, 1, a_matched);
            p = put_uint(p, 2, 0);
            p = end_nested(a, p);
          }
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
    for (auto& tr : tracks_) {
      flush_ends(tr, std::numeric_limits<std::int64_t>::max());
      if (tr.util_uuid) tr.win.finish(counter_emitter(tr));
    }
    buf_.flush();
  }

  /// Bytes produced so far (including the buffered ones).
  std::size_t bytes_written() const noexcept { return buf_.bytes_written(); }

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
  static constexpr std::uint32_t dir_iid_base = 0x20000;

  struct lane_t {
    std::uint64_t uuid;
    std::vector<std::int64_t> ends;  // open slices (a stack when nesting)
  };
  struct pending {
    std::int64_t end;
    std::uint32_t lane;
    friend bool operator>(const pending& a, const pending& b) noexcept { return a.end > b.end; }
  };
  struct slice_track {
    std::uint32_t seq = 0;
    std::uint64_t parent = 0;
    std::string name;
    std::int32_t rank = 0;
    bool nesting = false;
    bool thread = false;  // host thread: extra lanes go under the process
    std::uint64_t lane_parent = 0;
    std::vector<lane_t> lanes;
    std::vector<pending> heap;  // min-heap of open slice ends
    bool started = false;
    std::int64_t last_ts = 0;
    std::vector<std::uint64_t> names_done, strs_done;
    std::uint64_t util_uuid = 0, bw_uuid = 0;
    detail::window_counter win;
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
    return static_cast<std::int64_t>(std::llround(ns)) + shift_;
  }

  static std::uint8_t* interned(std::uint8_t* p, std::uint32_t field, std::uint64_t iid,
                                std::string_view s) {
    using namespace detail::proto;
    auto* m = begin_nested(p, field);
    p = put_uint(p, 1, iid);
    p = put_string(p, 2, s);
    return end_nested(m, p);
  }
  static std::uint8_t* annot_int(std::uint8_t* p, std::uint32_t iid, std::int64_t v) {
    using namespace detail::proto;
    auto* a = begin_nested(p, 4);
    p = put_uint(p, 1, iid);
    p = put_int(p, 4, v);
    return end_nested(a, p);
  }
  static std::uint8_t* annot_double(std::uint8_t* p, std::uint32_t iid, double v) {
    using namespace detail::proto;
    auto* a = begin_nested(p, 4);
    p = put_uint(p, 1, iid);
    p = put_double(p, 5, v);
    return end_nested(a, p);
  }
  static std::uint8_t* annot_str(std::uint8_t* p, std::uint32_t iid, std::uint64_t str_iid) {
    using namespace detail::proto;
    auto* a = begin_nested(p, 4);
    p = put_uint(p, 1, iid);
    p = put_uint(p, 17, str_iid);
    return end_nested(a, p);
  }

  std::uint8_t* reserve(std::size_t n) { return reinterpret_cast<std::uint8_t*>(buf_.reserve(n)); }
  void commit(std::uint8_t* p) { buf_.commit(reinterpret_cast<char*>(p)); }

  // ---- descriptors ---------------------------------------------------------
  struct desc {
    std::uint64_t uuid = 0, parent = 0;
    std::string_view name;
    std::int32_t rank = -1;
    bool explicit_children = false;
    std::string_view counter_unit;
    bool is_counter = false;
    std::int64_t pid = -1, tid = -1;  // process (tid < 0) or thread descriptor
  };
  static desc plain(std::uint64_t uuid, std::uint64_t parent, std::string_view n,
                    std::int32_t rank = -1, bool explicit_children = false) {
    desc d;
    d.uuid = uuid;
    d.parent = parent;
    d.name = n;
    d.rank = rank;
    d.explicit_children = explicit_children;
    return d;
  }
  static desc counter_track(std::uint64_t uuid, std::uint64_t parent, std::string_view n,
                            std::int32_t rank, std::string_view unit) {
    desc d = plain(uuid, parent, n, rank);
    d.is_counter = true;
    d.counter_unit = unit;
    return d;
  }
  static desc process_or_thread(std::uint64_t uuid, std::string_view n, std::int64_t pid,
                                std::int64_t tid = -1) {
    desc d;
    d.uuid = uuid;
    d.name = n;
    d.pid = pid;
    d.tid = tid;
    return d;
  }
  void put_descriptor(const desc& d) {
    using namespace detail::proto;
    auto* p = reserve(128 + string_bound(d.name) + string_bound(d.counter_unit));
    auto* pkt = begin_nested(p, 1);
    auto* td = begin_nested(p, 60);
    p = put_uint(p, 1, d.uuid);
    if (d.pid >= 0) {
      auto* m = begin_nested(p, d.tid >= 0 ? 4 : 3);
      p = put_int(p, 1, d.pid);
      if (d.tid >= 0) {
        p = put_int(p, 2, d.tid);
        if (!d.name.empty()) p = put_string(p, 5, d.name);
      } else if (!d.name.empty()) {
        p = put_string(p, 6, d.name);
      }
      p = end_nested(m, p);
    } else {
      if (d.parent) p = put_uint(p, 5, d.parent);
      p = put_string(p, 2, d.name);
      if (d.explicit_children) p = put_uint(p, 11, 3);
      if (d.rank >= 0) p = put_int(p, 12, d.rank);
      if (d.is_counter) {
        auto* c = begin_nested(p, 8);
        if (!d.counter_unit.empty()) p = put_string(p, 6, d.counter_unit);
        p = end_nested(c, p);
      }
    }
    p = end_nested(td, p);
    p = end_nested(pkt, p);
    commit(p);
  }

  static std::int32_t engine_rank(engine e) noexcept {
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
      case engine::cdma:
        return 6;
      case engine::mcu:
        return 7;
    }
    return 8;
  }

  std::uint64_t device_track(std::uint8_t d) {
    auto [it, fresh] = devices_.try_emplace(d, 0);
    if (fresh) {
      it->second = next_uuid_++;
      std::string n = "TPU" + std::to_string(d);
      if (info_ && !info_->chip.empty()) n += " " + info_->chip;
      put_descriptor(plain(it->second, 0, n, d, true));
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
      put_descriptor(plain(it->second, parent, n, (cdma ? 1000 : 0) + unit, true));
    }
    return it->second;
  }

  slice_track& track_for(std::uint8_t d, std::uint8_t unit, engine eng) {
    std::uint32_t key =
        (std::uint32_t{d} << 16) | (std::uint32_t{unit} << 8) | static_cast<std::uint32_t>(eng);
    if (key == last_key_ && last_track_ < tracks_.size()) return tracks_[last_track_];
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
      tr.nesting = !is_hardware(eng);
      add_lane(tr);
      if (opt_.counters && is_hardware(eng)) {
        tr.win.reset(origin_ + shift_, window_);
        tr.util_uuid = next_uuid_++;
        std::string n = tr.name + " utilization (%)";
        put_descriptor(counter_track(tr.util_uuid, parent, n, tr.rank + 1, "%"));
        if (is_dma(eng)) {
          tr.bw_uuid = next_uuid_++;
          n = tr.name + " bandwidth (GB/s)";
          put_descriptor(counter_track(tr.bw_uuid, parent, n, tr.rank + 2, "GB/s"));
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
        put_descriptor(process_or_thread(pit->second, pn, pid));
      }
      auto& tr = tracks_.emplace_back();
      tr.seq = next_seq_++;
      tr.name = std::string(h.thread_name(pid, tid));
      if (tr.name.empty()) tr.name = "thread " + std::to_string(tid);
      tr.nesting = true;
      tr.thread = true;
      tr.lane_parent = pit->second;
      std::uint64_t uuid = next_uuid_++;
      tr.lanes.push_back({uuid, {}});
      put_descriptor(process_or_thread(uuid, tr.name, pid, tid));
      last_key_ = ~0u;
    }
    return tracks_[it->second];
  }

  void add_lane(slice_track& tr) {
    std::uint64_t uuid = next_uuid_++;
    tr.lanes.push_back({uuid, {}});
    if (tr.thread) {
      std::string n = tr.name + " (overlap)";
      put_descriptor(plain(uuid, tr.lane_parent, n));
    } else {
      put_descriptor(plain(uuid, tr.lane_parent, tr.name, tr.rank));
    }
  }

  // ---- sequences and slices -------------------------------------------------
  /// First packet of a sequence: clear state, defaults (clock 64, lane-0
  /// track), interned annotation names, clock snapshot at `t0`.
  void start_sequence(slice_track& tr, std::int64_t t0) {
    using namespace detail::proto;
    auto* p = reserve(512);
    auto* pkt = begin_nested(p, 1);
    p = put_uint(p, 10, tr.seq);
    p = put_uint(p, 13, 1);
    auto* d = begin_nested(p, 59);
    p = put_uint(p, 58, 64);
    auto* ted = begin_nested(p, 11);
    p = put_uint(p, 11, tr.lanes[0].uuid);
    p = end_nested(ted, p);
    p = end_nested(d, p);
    auto* id = begin_nested(p, 12);
    for (std::uint32_t i = 1; i < a_count; ++i) p = interned(p, 3, i, annotation_names[i]);
    p = end_nested(id, p);
    auto* cs = begin_nested(p, 6);
    auto* c0 = begin_nested(p, 1);
    p = put_uint(p, 1, 6);
    p = put_uint(p, 2, static_cast<std::uint64_t>(t0));
    p = end_nested(c0, p);
    auto* c1 = begin_nested(p, 1);
    p = put_uint(p, 1, 64);
    p = put_uint(p, 2, static_cast<std::uint64_t>(t0));
    p = put_uint(p, 3, 1);
    p = end_nested(c1, p);
    p = end_nested(cs, p);
    p = end_nested(pkt, p);
    commit(p);
    tr.started = true;
    tr.last_ts = t0;
  }

  std::uint8_t* put_ts(std::uint8_t* p, slice_track& tr, std::int64_t t) {
    using namespace detail::proto;
    if (t >= tr.last_ts) {
      p = put_uint(p, 8, static_cast<std::uint64_t>(t - tr.last_ts));
      tr.last_ts = t;
      return p;
    }
    // Back in time (unsorted input): absolute BOOTTIME, delta base unchanged.
    p = put_uint(p, 58, 6);
    return put_uint(p, 8, static_cast<std::uint64_t>(std::max<std::int64_t>(0, t)));
  }

  void put_end(slice_track& tr, std::int64_t t, std::uint32_t lane) {
    using namespace detail::proto;
    auto* p = reserve(64);
    auto* pkt = begin_nested(p, 1);
    p = put_ts(p, tr, t);
    p = put_uint(p, 10, tr.seq);
    p = put_uint(p, 13, 2);
    auto* te = begin_nested(p, 11);
    p = put_uint(p, 9, 2);
    if (lane) p = put_uint(p, 11, tr.lanes[lane].uuid);
    p = end_nested(te, p);
    p = end_nested(pkt, p);
    commit(p);
  }

  void flush_ends(slice_track& tr, std::int64_t upto) {
    while (!tr.heap.empty() && tr.heap.front().end <= upto) {
      std::pop_heap(tr.heap.begin(), tr.heap.end(), std::greater<>{});
      pending pe = tr.heap.back();
      tr.heap.pop_back();
      tr.lanes[pe.lane].ends.pop_back();
      put_end(tr, pe.end, pe.lane);
    }
  }

  /// Emits BEGIN (body written by `body(p, lane)`) at b and schedules END at e.
  template <class Body>
  void slice(slice_track& tr, std::int64_t b, std::int64_t e, Body&& body, std::size_t need) {
    using namespace detail::proto;
    if (!tr.started) start_sequence(tr, b);
    flush_ends(tr, b);
    std::uint32_t lane = 0;
    for (;; ++lane) {
      if (lane == tr.lanes.size()) add_lane(tr);
      const auto& ends = tr.lanes[lane].ends;
      if (ends.empty() || (tr.nesting && ends.back() >= e)) break;
    }
    auto* p = reserve(need + 32);
    auto* pkt = begin_nested(p, 1);
    p = put_ts(p, tr, b);
    p = put_uint(p, 10, tr.seq);
    p = put_uint(p, 13, 2);
    body(p, lane);
    p = end_nested(pkt, p);
    commit(p);
    tr.lanes[lane].ends.push_back(e);
    tr.heap.push_back({e, lane});
    std::push_heap(tr.heap.begin(), tr.heap.end(), std::greater<>{});
  }

  // ---- counters ---------------------------------------------------------------
  std::uint32_t counter_seq() {
    if (!counter_seq_) counter_seq_ = next_seq_++;
    return counter_seq_;
  }
  void put_counter(std::uint64_t uuid, std::int64_t ts, double v) {
    using namespace detail::proto;
    auto* p = reserve(64);
    auto* pkt = begin_nested(p, 1);
    p = put_uint(p, 8, static_cast<std::uint64_t>(std::max<std::int64_t>(0, ts)));
    p = put_uint(p, 10, counter_seq());
    auto* te = begin_nested(p, 11);
    p = put_uint(p, 9, 4);
    p = put_uint(p, 11, uuid);
    p = put_double(p, 44, v);
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
      put_descriptor(counter_track(it->second, parent, n, 100, c.unit));
    }
    return it->second;
  }

  detail::out_buffer buf_;
  perfetto_options opt_;
  const trace_info* info_ = nullptr;
  std::int64_t shift_ = 0, origin_ = 0, window_ = 10'000;
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
};

static_assert(event_sink<perfetto_sink>);

}  // namespace tpuprof::sinks
