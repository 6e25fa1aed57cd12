/// The track descriptors perfetto_sink declares: plain, counter, process and
/// thread tracks (TrackDescriptor fields; the sink encodes them).
#pragma once

#include <cstdint>
#include <string_view>

namespace tpuprof::detail::perfetto {

struct track_desc {
  std::uint64_t uuid = 0, parent = 0;
  std::string_view name;
  std::int32_t rank = -1;
  bool explicit_children = false;
  std::string_view counter_unit;
  bool is_counter = false;
  std::int64_t pid = -1, tid = -1;  // process (tid < 0) or thread descriptor
};
inline track_desc plain(std::uint64_t uuid, std::uint64_t parent, std::string_view n,
                        std::int32_t rank = -1, bool explicit_children = false) {
  track_desc d;
  d.uuid = uuid;
  d.parent = parent;
  d.name = n;
  d.rank = rank;
  d.explicit_children = explicit_children;
  return d;
}
inline track_desc counter_track(std::uint64_t uuid, std::uint64_t parent, std::string_view n,
                                std::int32_t rank, std::string_view unit) {
  track_desc d = plain(uuid, parent, n, rank);
  d.is_counter = true;
  d.counter_unit = unit;
  return d;
}
inline track_desc process_or_thread(std::uint64_t uuid, std::string_view n, std::int64_t pid,
                                    std::int64_t tid = -1) {
  track_desc d;
  d.uuid = uuid;
  d.name = n;
  d.pid = pid;
  d.tid = tid;
  return d;
}

}  // namespace tpuprof::detail::perfetto
