/// The protobuf of a slice_mark inside a Perfetto TrackEvent: `flow_ids`
/// (repeated fixed64, field 47; both ends of a flow carry its id, so the
/// earlier slice is its source), a `critical_path` debug annotation (bool) and
/// the `advise.*` annotations of the finding the slice is evidence of.
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
  double_value = 5,       // DebugAnnotation
  string_value = 6,       // DebugAnnotation
};

/// Bytes put_mark writes at most.
inline constexpr std::size_t mark_bound = 2 * 11 + 24;

inline std::uint8_t* put_flow_id(std::uint8_t* p, std::uint64_t id) noexcept {
  p = proto::put_key(p, static_cast<std::uint32_t>(mark_field::flow_ids), proto::fixed64);
  for (int i = 0; i < 8; ++i) *p++ = static_cast<std::uint8_t>(id >> (8 * i));
  return p;
}

/// Bytes put_note writes at most.
template <class Note = sinks::slice_note>  // templates: compiled only where used
std::size_t note_bound(const Note& n, bool message) noexcept {
  return 5 * 40 + proto::string_bound(n.id) + proto::string_bound(n.rule) +
         proto::string_bound(n.severity) + (message ? proto::string_bound(n.message) : 0);
}

/// The finding `n` as debug annotations advise.finding_id, advise.rule,
/// advise.severity, advise.recoverable_ns (and advise.message) of a TrackEvent.
template <class Note = sinks::slice_note>
std::uint8_t* put_note(std::uint8_t* p, const Note& n, bool message) noexcept {
  using namespace proto;
  auto str = [&p](std::string_view k, std::string_view v) {
    auto* a = begin_nested(p, mark_field::debug_annotations);
    p = put_string(p, mark_field::name, k);
    p = put_string(p, mark_field::string_value, v);
    p = end_nested(a, p);
  };
  str("advise.finding_id", n.id);
  str("advise.rule", n.rule);
  str("advise.severity", n.severity);
  auto* a = begin_nested(p, mark_field::debug_annotations);
  p = put_string(p, mark_field::name, "advise.recoverable_ns");
  p = put_double(p, mark_field::double_value, n.recoverable_ns);
  p = end_nested(a, p);
  if (message) str("advise.message", n.message);
  return p;
}

/// Writes `m` (and `note`, its finding, when not null) into the TrackEvent
/// being written at `p`.
inline std::uint8_t* put_mark(std::uint8_t* p, const sinks::slice_mark& m,
                              const sinks::slice_note* note = nullptr) noexcept {
  using namespace proto;
  if (m.flow_in) p = put_flow_id(p, m.flow_in);
  if (m.flow_out) p = put_flow_id(p, m.flow_out);
  if (m.critical) {
    auto* a = begin_nested(p, mark_field::debug_annotations);
    p = put_string(p, mark_field::name, "critical_path");
    p = put_uint(p, mark_field::bool_value, 1);
    p = end_nested(a, p);
  }
  if (note) p = put_note(p, *note, false);
  return p;
}

}  // namespace tpuprof::detail::perfetto
