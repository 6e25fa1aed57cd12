/// The protobuf of a slice_mark inside a Perfetto TrackEvent: `flow_ids`
/// (repeated fixed64, field 47; both ends of a flow carry its id, so the
/// earlier slice is its source) and a `critical_path` debug annotation (bool).
#pragma once

#include <cstddef>
#include <cstdint>

#include <tpuprof/sinks/detail/proto_writer.hpp>
#include <tpuprof/sinks/slice_marks.hpp>

namespace tpuprof::detail::perfetto {

/// Field numbers of TrackEvent and DebugAnnotation the marks use.
enum class mark_field : std::uint32_t {
  debug_annotations = 4,  // TrackEvent
  flow_ids = 47,          // TrackEvent, repeated fixed64
  name = 10,              // DebugAnnotation (plain name: no interning needed)
  bool_value = 2,         // DebugAnnotation
};

/// Bytes put_mark writes at most.
inline constexpr std::size_t mark_bound = 2 * 11 + 24;

inline std::uint8_t* put_flow_id(std::uint8_t* p, std::uint64_t id) noexcept {
  p = proto::put_key(p, static_cast<std::uint32_t>(mark_field::flow_ids), proto::fixed64);
  for (int i = 0; i < 8; ++i) *p++ = static_cast<std::uint8_t>(id >> (8 * i));
  return p;
}

/// Writes `m` into the TrackEvent being written at `p`.
inline std::uint8_t* put_mark(std::uint8_t* p, const sinks::slice_mark& m) noexcept {
  using namespace proto;
  if (m.flow_in) p = put_flow_id(p, m.flow_in);
  if (m.flow_out) p = put_flow_id(p, m.flow_out);
  if (m.critical) {
    auto* a = begin_nested(p, mark_field::debug_annotations);
    p = put_string(p, mark_field::name, "critical_path");
    p = put_uint(p, mark_field::bool_value, 1);
    p = end_nested(a, p);
  }
  return p;
}

}  // namespace tpuprof::detail::perfetto
