/// algo::bandwidth_totals: bytes moved per track and the time the
/// byte-carrying events took, for mean bandwidth (bytes / byte time).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

struct byte_totals {
  std::uint64_t bytes = 0;
  double byte_ns = 0;  ///< summed duration of the events with known bytes
  /// bytes / byte_ns (GB/s); NaN when no time.
  double gbps() const noexcept {
    return byte_ns > 0 ? static_cast<double>(bytes) / byte_ns
                       : std::numeric_limits<double>::quiet_NaN();
  }
};

namespace algo {

/// Per track with known bytes: their sum and the events' summed duration.
template <event_range R>
std::map<track_key, byte_totals> bandwidth_totals(R&& events) {
  std::map<track_key, byte_totals> out;
  for (const engine_event& e : events)
    if (e.has_bytes()) {
      byte_totals& t = out[track_of(e)];
      t.bytes += e.bytes;
      t.byte_ns += std::max(0.0, e.dur_ns());
    }
  return out;
}

}  // namespace algo
}  // namespace tpuprof
