/// Field numbers of the Perfetto trace protos the perfetto_sink writes, one
/// enum class per message (as protozero's pbf_builder<Tag>), so the sink
/// reads `track_event::type` instead of a bare 9. From perfetto's
/// protos/perfetto/trace/{trace,trace_packet,clock_snapshot}.proto and
/// track_event/{track_event,track_descriptor,debug_annotation}.proto.
#pragma once

#include <cstdint>

namespace tpuprof::detail::perfetto {

/// The top-level Trace message (named so it does not clash with tpuprof::trace).
enum class trace_root : std::uint32_t { packet = 1 };

enum class trace_packet : std::uint32_t {
  clock_snapshot = 6,
  timestamp = 8,
  trusted_packet_sequence_id = 10,
  track_event = 11,
  interned_data = 12,
  sequence_flags = 13,
  timestamp_clock_id = 58,
  trace_packet_defaults = 59,
  track_descriptor = 60,
};

enum class trace_packet_defaults : std::uint32_t {
  track_event_defaults = 11,
  timestamp_clock_id = 58
};
enum class track_event_defaults : std::uint32_t { track_uuid = 11 };

enum class clock_snapshot : std::uint32_t { clocks = 1 };
enum class clock : std::uint32_t { clock_id = 1, timestamp = 2, is_incremental = 3 };

enum class interned_data : std::uint32_t {
  event_names = 2,
  debug_annotation_names = 3,
  debug_annotation_string_values = 29,
};
/// EventName, DebugAnnotationName and InternedString share this layout.
enum class interned_string : std::uint32_t { iid = 1, name = 2 };

enum class track_event : std::uint32_t {
  debug_annotations = 4,
  type = 9,
  name_iid = 10,
  track_uuid = 11,
  categories = 22,
  name = 23,
  double_counter_value = 44,
};

enum class debug_annotation : std::uint32_t {
  name_iid = 1,
  bool_value = 2,
  int_value = 4,
  double_value = 5,
  string_value_iid = 17,
};

enum class track_descriptor : std::uint32_t {
  uuid = 1,
  name = 2,
  process = 3,
  thread = 4,
  parent_uuid = 5,
  counter = 8,
  child_ordering = 11,
  sibling_order_rank = 12,
};
enum class process_descriptor : std::uint32_t { pid = 1, process_name = 6 };
enum class thread_descriptor : std::uint32_t { pid = 1, tid = 2, thread_name = 5 };
enum class counter_descriptor : std::uint32_t { unit_name = 6 };

/// Enum values the sink writes.
namespace value {
inline constexpr std::uint64_t slice_begin = 1, slice_end = 2, counter = 4;  // TrackEvent.Type
inline constexpr std::uint64_t incremental_state_cleared = 1;                // sequence_flags
inline constexpr std::uint64_t needs_incremental_state = 2;                  // sequence_flags
inline constexpr std::uint64_t child_ordering_explicit = 3;                  // TrackDescriptor
inline constexpr std::uint64_t clock_boottime = 6;                           // builtin clock id
inline constexpr std::uint64_t clock_incremental_ns = 64;  // first sequence-scoped clock id
}  // namespace value

}  // namespace tpuprof::detail::perfetto
