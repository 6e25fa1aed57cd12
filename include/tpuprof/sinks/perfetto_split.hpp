/// perfetto_split_sink: one Perfetto trace written as several `.pftrace`
/// parts, each a complete trace of its own (its own track tree, interned data
/// and clock snapshots) small enough for the Perfetto UI, routed by core,
/// device or time window; and the index saying what each part holds.
/// Limits, names and the index format: docs/sinks.md, "Large traces".
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/sinks/counter_sample.hpp>
#include <tpuprof/sinks/detail/text_format.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof::sinks {

/// What the Perfetto UI loads, and our encoder's density (docs/sinks.md,
/// "Large traces", where the numbers come from).
struct perfetto_limits {
  /// Largest `.pftrace` we expect the UI to open in a browser: 2 GiB of
  /// WebAssembly memory (perfetto.dev's "2GB is typical") divided by 4, the
  /// top of its documented 2-4x growth from proto file to loaded trace.
  static constexpr std::uint64_t ui_bytes = std::uint64_t{512} << 20;
  /// Bytes per slice of our encoder on AKS dumps (56.6-61 measured,
  /// docs/performance.md): for estimates before writing.
  static constexpr double bytes_per_slice = 57.0;
  /// Slices per file at the UI limit: ui_bytes / bytes_per_slice (9.4 M).
  static constexpr std::uint64_t ui_slices =
      static_cast<std::uint64_t>(static_cast<double>(ui_bytes) / bytes_per_slice);
};

/// Estimated `.pftrace` bytes of one track's events: bytes_per_slice each,
/// plus, with derived counters, at most one ~24-byte sample per counter
/// window (about 2000) for utilization and, on DMA engines, bandwidth.
inline std::uint64_t estimate_perfetto_bytes(const track& t, bool counters = true) noexcept {
  auto b =
      static_cast<std::uint64_t>(static_cast<double>(t.events) * perfetto_limits::bytes_per_slice);
  if (counters && is_hardware(t.eng)) b += (is_dma(t.eng) ? 2 : 1) * 2000 * 24;
  return b;
}

/// Estimated `.pftrace` bytes of the hardware events `info` lists (derived
/// spans, host spans and findings not included).
inline std::uint64_t estimate_perfetto_bytes(const trace_info& info,
                                             bool counters = true) noexcept {
  std::uint64_t n = 0;
  for (const auto& t : info.tracks) n += estimate_perfetto_bytes(t, counters);
  return n;
}

enum class split_by : std::uint8_t {
  core,    ///< one part per core / CDMA port of each device (or packed, max_part_bytes)
  device,  ///< one part per device
  window,  ///< one part per time window of window_ns
};

struct perfetto_split_options {
  split_by by = split_by::core;
  /// split_by::window: window length in ns (> 0). Window k is [t0 + k w,
  /// t0 + (k+1) w) with t0 the first hardware event's ns rounded down; an
  /// event goes to the window where it begins (before the first: the first;
  /// from the end of the last: the last).
  std::int64_t window_ns = 0;
  /// split_by::core: > 0 packs whole cores, in track order, into as few parts
  /// as keep each part's estimate (estimate_perfetto_bytes of its tracks)
  /// under this many bytes, balanced; 0: one part per core / CDMA port.
  std::uint64_t max_part_bytes = 0;
  /// Part files are "<stem>.<label>.pftrace"; the index "<stem>.index.json".
  std::string stem = "trace";
  /// Each part's encoder options (marks are shared, read-only).
  perfetto_options perfetto;
  /// More parts than this is an error (each open part holds a buffer and a file).
  std::size_t max_parts = 256;
};

/// What one part holds (the index's entry).
struct perfetto_part {
  std::string label;               ///< "dev0.core3", "dev0.cdma1", "dev0", "w07", "part1"
  std::string file;                ///< "<stem>.<label>.pftrace"
  std::vector<std::string> units;  ///< "dev0.core3", ... whose tracks it holds
  std::int64_t window_begin = 0;   ///< window split: the window, in the parts' ts
  std::int64_t window_end = 0;     ///<   (ns after the time origin, as slice.ts)
  std::int64_t first_ts = 0;       ///< earliest slice begin written here
  std::int64_t last_ts = 0;        ///< latest slice begin written here
  std::uint64_t events = 0;        ///< engine events (hardware and derived spans)
  std::uint64_t bytes = 0;         ///< bytes of the part (after finish)
};

/// Routes every event to the perfetto_sink of its part, creating a part (and
/// asking `open` for its output) when its first event comes. Host spans and
/// the advisor's findings are context: every part gets all of them. Derived
/// counters are computed per part from the part's own events.
/// Memory: one perfetto_sink (buffer + per-track state) per part.
class perfetto_split_sink {
 public:
  /// `open(file)` gives the output of a new part; what it writes to must
  /// outlive this sink's finish().
  using opener = std::function<byte_output(const std::string& file)>;

  perfetto_split_sink(opener open, perfetto_split_options opt)
      : open_(std::move(open)), opt_(std::move(opt)) {
    if (opt_.by == split_by::window && opt_.window_ns <= 0)
      throw std::invalid_argument("split by window: the window must be > 0 ns");
  }

  /// Windows a window split of `info` makes (at least 1).
  static std::uint64_t window_count(const trace_info& info, std::int64_t window_ns) noexcept {
    if (window_ns <= 0 || !(info.end_ns > info.begin_ns)) return 1;
    const double span = std::ceil(info.end_ns) - std::floor(info.begin_ns);
    return std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::ceil(span / static_cast<double>(window_ns))));
  }

  void begin(const trace_info& info) {
    info_ = &info;
    const track_layout layout(info);
    shift_ = std::max<std::int64_t>(0, -layout.origin());
    t0_ = layout.span_begin();
    if (opt_.by == split_by::window) {
      windows_ = window_count(info, opt_.window_ns);
      if (windows_ > opt_.max_parts)
        throw std::invalid_argument("split by window: " + std::to_string(windows_) +
                                    " windows of " + std::to_string(opt_.window_ns) +
                                    " ns, more than " + std::to_string(opt_.max_parts) +
                                    " parts: choose a longer window");
    }
    if (opt_.by == split_by::core && opt_.max_part_bytes > 0) pack_cores(info);
  }

  void host(const io::host_trace& h) {
    host_ = &h;
    if (!h.spans.empty() && h.begin_ns() + shift_ < 0) shift_ = -h.begin_ns();
    for (auto& [k, p] : parts_) p->sink.host(h);
  }

  void counter(const counter_sample& c) {
    part_state* p = nullptr;
    if (opt_.by == split_by::window)
      p = &part(window_of(ts_of(c.ts_ns)));
    else if (c.core >= 0)
      p = &part(key_of(c.device, static_cast<std::uint8_t>(c.core), false));
    else
      p = &part(first_key_of(c.device));
    p->sink.counter(c);
  }

  void write(const engine_event& e) {
    const std::int64_t ts = ts_of(e.begin_ns);
    const std::uint32_t k = opt_.by == split_by::window
                                ? window_of(ts)
                                : key_of(e.device, e.unit, e.engine == engine::cdma);
    part_state& p = k == last_key_ && last_ ? *last_ : part(k);
    last_key_ = k;
    last_ = &p;
    auto& d = p.desc;
    if (d.events == 0 || ts < d.first_ts) d.first_ts = ts;
    if (d.events == 0 || ts > d.last_ts) d.last_ts = ts;
    ++d.events;
    p.sink.write(e);
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    for (auto& [k, p] : parts_) {
      p->sink.finish();
      p->desc.bytes = p->sink.bytes_written();
    }
  }

  /// The parts in key order (core/device: track order; window: time order).
  std::vector<perfetto_part> parts() const {
    std::vector<perfetto_part> v;
    for (const auto& [k, p] : parts_) v.push_back(p->desc);
    return v;
  }

  /// "<stem>.index.json"
  std::string index_file() const { return opt_.stem + ".index.json"; }

  /// The index (after finish): what each part holds (docs/sinks.md).
  std::string index_json() const {
    std::string o = "{\n  \"format\": \"tpuprof-perfetto-split 1\",\n  \"split\": ";
    o += opt_.by == split_by::window   ? "\"window\""
         : opt_.by == split_by::device ? "\"device\""
         : opt_.max_part_bytes > 0     ? "\"size\""
                                       : "\"core\"";
    if (opt_.by == split_by::window) o += ",\n  \"window_ns\": " + std::to_string(opt_.window_ns);
    if (opt_.by == split_by::core && opt_.max_part_bytes > 0)
      o += ",\n  \"max_part_bytes\": " + std::to_string(opt_.max_part_bytes);
    o += ",\n  \"ui_limit_bytes\": " + std::to_string(perfetto_limits::ui_bytes);
    o += ",\n  \"chip\": " + quoted(info_ ? info_->chip : std::string{});
    o += ",\n  \"source\": " + quoted(info_ ? info_->source : std::string{});
    std::uint64_t events = 0, bytes = 0;
    for (const auto& [k, p] : parts_) events += p->desc.events, bytes += p->desc.bytes;
    o += ",\n  \"events\": " + std::to_string(events) + ",\n  \"bytes\": " + std::to_string(bytes);
    o += ",\n  \"host_spans_per_part\": " + std::to_string(host_ ? host_->spans.size() : 0);
    o += ",\n  \"parts\": [";
    bool first = true;
    for (const auto& [k, p] : parts_) {
      const auto& d = p->desc;
      o += first ? "\n    {" : ",\n    {";
      first = false;
      o += "\"file\": " + quoted(d.file) + ", \"label\": " + quoted(d.label) + ", \"units\": [";
      for (std::size_t i = 0; i < d.units.size(); ++i) o += (i ? ", " : "") + quoted(d.units[i]);
      o += "]";
      if (opt_.by == split_by::window)
        o += ", \"window_begin\": " + std::to_string(d.window_begin) +
             ", \"window_end\": " + std::to_string(d.window_end);
      o += ", \"first_ts\": " + std::to_string(d.first_ts) +
           ", \"last_ts\": " + std::to_string(d.last_ts) +
           ", \"events\": " + std::to_string(d.events) + ", \"bytes\": " + std::to_string(d.bytes) +
           "}";
    }
    o += "\n  ]\n}\n";
    return o;
  }

 private:
  struct part_state {
    part_state(byte_output out, const perfetto_options& o) : sink(out, o) {}
    trace_info info;  // the whole trace's, with only this part's tracks
    perfetto_sink sink;
    perfetto_part desc;
  };

  static constexpr std::uint32_t cdma_bit = 256;
  static std::string unit_label(std::uint32_t group) {
    return "dev" + std::to_string(group >> 9) + ((group & cdma_bit) ? ".cdma" : ".core") +
           std::to_string(group & 255u);
  }
  static std::uint32_t group_of(std::uint8_t device, std::uint8_t unit, bool cdma) noexcept {
    return (std::uint32_t{device} << 9) | (cdma ? cdma_bit : 0u) | unit;
  }
  static std::string quoted(std::string_view s) {
    std::string o = "\"";
    detail::json_escape_with(s, [&](std::string_view part) { o += part; });
    return o + "\"";
  }
  static std::string padded(std::uint64_t v, std::uint64_t count) {
    std::string s = std::to_string(v), w = std::to_string(count > 0 ? count - 1 : 0);
    return std::string(w.size() > s.size() ? w.size() - s.size() : 0, '0') + s;
  }

  std::int64_t ts_of(double ns) const noexcept {
    return (ns == ns ? static_cast<std::int64_t>(std::llround(ns)) : 0) + shift_;
  }
  std::uint32_t window_of(std::int64_t ts) const noexcept {
    const std::int64_t rel = ts - (t0_ + shift_);
    if (rel < 0) return 0;
    const auto k = static_cast<std::uint64_t>(rel / opt_.window_ns);
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(k, windows_ - 1));
  }
  /// The part key of a core's / CDMA port's events (core and device splits).
  std::uint32_t key_of(std::uint8_t device, std::uint8_t unit, bool cdma) const {
    if (opt_.by == split_by::device) return device;
    const std::uint32_t g = group_of(device, unit, cdma);
    if (packs_.empty()) return g;
    auto it = packs_.find(g);
    return it != packs_.end() ? it->second : packs_.rbegin()->second;
  }
  /// A device-level counter's part: the device's first core's part.
  std::uint32_t first_key_of(std::uint8_t device) const {
    if (info_)
      for (const auto& t : info_->tracks)
        if (t.device == device) return key_of(t.device, t.unit, t.eng == engine::cdma);
    return key_of(device, 0, false);
  }
  bool holds(std::uint32_t key, const track& t) const {
    return opt_.by == split_by::window || key_of(t.device, t.unit, t.eng == engine::cdma) == key;
  }

  /// Balanced packing of whole cores into parts under max_part_bytes.
  void pack_cores(const trace_info& info) {
    std::vector<std::pair<std::uint32_t, std::uint64_t>> groups;  // (group, estimated bytes)
    for (const auto& t : info.tracks) {
      const std::uint32_t g = group_of(t.device, t.unit, t.eng == engine::cdma);
      const std::uint64_t b = estimate_perfetto_bytes(t, opt_.perfetto.counters);
      if (groups.empty() || groups.back().first != g)
        groups.emplace_back(g, b);
      else
        groups.back().second += b;
    }
    std::uint64_t total = 0;
    for (const auto& g : groups) total += g.second;
    const std::uint64_t n =
        std::max<std::uint64_t>(1, (total + opt_.max_part_bytes - 1) / opt_.max_part_bytes);
    const std::uint64_t target = total / n;
    std::uint32_t pack = 0;
    std::uint64_t cur = 0;
    for (const auto& [g, b] : groups) {
      if (cur > 0 && (cur + b > opt_.max_part_bytes || cur >= target)) ++pack, cur = 0;
      packs_[g] = pack;
      cur += b;
    }
    pack_count_ = pack + 1;
  }

  std::string label_of(std::uint32_t key) const {
    switch (opt_.by) {
      case split_by::window:
        return "w" + padded(key, windows_);
      case split_by::device:
        return "dev" + std::to_string(key);
      case split_by::core:
        break;
    }
    return packs_.empty() ? unit_label(key) : "part" + padded(key, pack_count_);
  }

  part_state& part(std::uint32_t key) {
    auto it = parts_.find(key);
    if (it != parts_.end()) return *it->second;
    if (parts_.size() >= opt_.max_parts)
      throw std::invalid_argument("split: more than " + std::to_string(opt_.max_parts) + " parts");
    perfetto_part d;
    d.label = label_of(key);
    d.file = opt_.stem + "." + d.label + ".pftrace";
    auto p = std::make_unique<part_state>(open_(d.file), opt_.perfetto);
    p->desc = std::move(d);
    if (info_) {
      p->info = *info_;
      std::erase_if(p->info.tracks, [&](const track& t) { return !holds(key, t); });
    }
    for (const auto& t : p->info.tracks) {
      std::string u = unit_label(group_of(t.device, t.unit, t.eng == engine::cdma));
      if (std::find(p->desc.units.begin(), p->desc.units.end(), u) == p->desc.units.end())
        p->desc.units.push_back(std::move(u));
    }
    if (opt_.by == split_by::window) {
      p->desc.window_begin = t0_ + shift_ + static_cast<std::int64_t>(key) * opt_.window_ns;
      p->desc.window_end = p->desc.window_begin + opt_.window_ns;
    }
    if (info_) p->sink.begin(p->info);
    if (host_) p->sink.host(*host_);
    last_ = nullptr;
    return *parts_.emplace(key, std::move(p)).first->second;
  }

  opener open_;
  perfetto_split_options opt_;
  const trace_info* info_ = nullptr;
  const io::host_trace* host_ = nullptr;
  std::int64_t shift_ = 0, t0_ = 0;
  std::uint64_t windows_ = 1;
  std::map<std::uint32_t, std::uint32_t> packs_;  // core group -> part (packed core split)
  std::uint32_t pack_count_ = 0;
  std::map<std::uint32_t, std::unique_ptr<part_state>> parts_;
  std::uint32_t last_key_ = ~0u;
  part_state* last_ = nullptr;
  bool finished_ = false;
};

static_assert(event_sink<perfetto_split_sink>);

}  // namespace tpuprof::sinks
