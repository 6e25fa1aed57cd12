/// host_trace: host-side spans (CPU ops, runtime calls) read from an external
/// Chrome JSON trace, placed on the device timeline and written by the sinks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tpuprof::io {

/// One complete span of a host thread. Times in ns on the device timeline once
/// placed (see host_trace::shift / align_by_tail), on the host clock before.
struct host_span {
  std::string name;
  std::string cat;
  std::uint32_t pid = 0;
  std::uint32_t tid = 0;
  std::int64_t ts_ns = 0;
  std::int64_t dur_ns = 0;  ///< >= 0
  std::int64_t end_ns() const noexcept { return ts_ns + dur_ns; }
};

/// Process or thread name from the trace's `M` metadata events.
struct host_name {
  std::uint32_t pid = 0;
  std::uint32_t tid = 0;  ///< unused for processes
  std::string name;
};

/// Everything the sinks need from a host trace.
struct host_trace {
  std::string source;                ///< file name, for messages
  std::vector<host_span> spans;      ///< in file order
  std::vector<host_name> processes;  ///< process_name metadata
  std::vector<host_name> threads;    ///< thread_name metadata
  std::int64_t offset_ns = 0;        ///< total shift applied so far (host -> device)

  bool empty() const noexcept { return spans.empty(); }
  /// Earliest span start (0 when empty).
  std::int64_t begin_ns() const noexcept {
    std::int64_t b = std::numeric_limits<std::int64_t>::max();
    for (const auto& s : spans) b = std::min(b, s.ts_ns);
    return spans.empty() ? 0 : b;
  }
  /// Latest span end (0 when empty).
  std::int64_t end_ns() const noexcept {
    std::int64_t e = std::numeric_limits<std::int64_t>::min();
    for (const auto& s : spans) e = std::max(e, s.end_ns());
    return spans.empty() ? 0 : e;
  }
  /// Adds `delta_ns` to every span (explicit alignment).
  void shift(std::int64_t delta_ns) noexcept {
    for (auto& s : spans) s.ts_ns += delta_ns;
    offset_ns += delta_ns;
  }
  /// bigTpuProfile's rule (format-sg2260.md §4.7): the end of the last tpudnn
  /// `disable_profile` span minus `tail_offset_ns` is the moment the device
  /// timeline ends (`device_end_ns`). Without such a span, the end of the
  /// first `tpudnn` span maps to device time 0. Returns the shift applied.
  std::int64_t align_by_tail(std::int64_t tail_offset_ns, std::int64_t device_end_ns) noexcept {
    std::int64_t disable_end = std::numeric_limits<std::int64_t>::min();
    const host_span* first_tpudnn = nullptr;
    for (const auto& s : spans) {
      if (s.cat != "tpudnn") continue;
      if (!first_tpudnn || s.ts_ns < first_tpudnn->ts_ns) first_tpudnn = &s;
      if (s.name == "disable_profile" || s.name == "my_ops::disable_profile")
        disable_end = std::max(disable_end, s.end_ns());
    }
    std::int64_t delta = 0;
    if (disable_end != std::numeric_limits<std::int64_t>::min())
      delta = device_end_ns - (disable_end - tail_offset_ns);
    else if (first_tpudnn)
      delta = -first_tpudnn->end_ns();
    shift(delta);
    return delta;
  }
  std::string_view process_name(std::uint32_t pid) const noexcept {
    for (const auto& p : processes)
      if (p.pid == pid) return p.name;
    return {};
  }
  std::string_view thread_name(std::uint32_t pid, std::uint32_t tid) const noexcept {
    for (const auto& t : threads)
      if (t.pid == pid && t.tid == tid) return t.name;
    return {};
  }
};

}  // namespace tpuprof::io
