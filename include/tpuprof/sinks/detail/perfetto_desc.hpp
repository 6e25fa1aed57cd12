/// The track descriptors perfetto_sink declares: plain, counter, process and
/// thread tracks (TrackDescriptor fields; the sink encodes them).
#pragma once

#include <cstdint>
#include <string_view>

#include <tpuprof/sinks/detail/perfetto_tags.hpp>
#include <tpuprof/sinks/detail/proto_writer.hpp>
#include <tpuprof/sinks/output.hpp>

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

/// One TrackDescriptor packet into `out`.
inline void put_descriptor(out_buffer& out, const track_desc& d) {
  using namespace detail::proto;
  auto* p = reinterpret_cast<std::uint8_t*>(
      out.reserve(128 + string_bound(d.name) + string_bound(d.counter_unit)));
  auto* pkt = begin_nested(p, trace_root::packet);
  auto* td = begin_nested(p, trace_packet::track_descriptor);
  p = put_uint(p, track_descriptor::uuid, d.uuid);
  if (d.pid >= 0 && d.tid >= 0) {
    auto* m = begin_nested(p, track_descriptor::thread);
    p = put_int(p, thread_descriptor::pid, d.pid);
    p = put_int(p, thread_descriptor::tid, d.tid);
    if (!d.name.empty()) p = put_string(p, thread_descriptor::thread_name, d.name);
    p = end_nested(m, p);
  } else if (d.pid >= 0) {
    auto* m = begin_nested(p, track_descriptor::process);
    p = put_int(p, process_descriptor::pid, d.pid);
    if (!d.name.empty()) p = put_string(p, process_descriptor::process_name, d.name);
    p = end_nested(m, p);
  } else {
    if (d.parent) p = put_uint(p, track_descriptor::parent_uuid, d.parent);
    p = put_string(p, track_descriptor::name, d.name);
    if (d.explicit_children)
      p = put_uint(p, track_descriptor::child_ordering, value::child_ordering_explicit);
    if (d.rank >= 0) p = put_int(p, track_descriptor::sibling_order_rank, d.rank);
    if (d.is_counter) {
      auto* c = begin_nested(p, track_descriptor::counter);
      if (!d.counter_unit.empty()) p = put_string(p, counter_descriptor::unit_name, d.counter_unit);
      p = end_nested(c, p);
    }
  }
  p = end_nested(td, p);
  p = end_nested(pkt, p);
  out.commit(reinterpret_cast<char*>(p));
}

}  // namespace tpuprof::detail::perfetto
