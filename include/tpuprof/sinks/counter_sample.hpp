/// counter_sample: one value of a named counter (bandwidth, utilization, ...)
/// handed to a sink's optional `counter()` hook.
#pragma once

#include <cstdint>
#include <string_view>

namespace tpuprof {

/// A counter value that holds from `ts_ns` until the next sample of the same
/// counter. Strings are not owned: they must live until the sink's next call.
struct counter_sample {
  std::string_view name;  ///< e.g. "GDMA bandwidth"; with (device, core) it names the track
  std::string_view unit;  ///< e.g. "GB/s", "%"; may be empty
  double ts_ns = 0;       ///< on the device timeline (same clock as engine_event::begin_ns)
  double value = 0;
  std::uint8_t device = 0;
  std::int16_t core = -1;  ///< core index, or -1 for a device-wide counter
};

}  // namespace tpuprof
