/// Opt-in fmt::formatter specializations (as fmt's own `formatter<T>`): engine,
/// direction, engine_event (one compact line), track and track_key. Not in the
/// umbrella: a TU that prints tpuprof types includes this, nobody else pays.
#pragma once

#include <string_view>

#include <fmt/format.h>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::detail {

/// "dev0.core1.TIU"; CDMA units are ports: "dev0.port1.CDMA".
template <class Out>
Out format_track(Out out, unsigned device, unsigned unit, engine e) {
  return fmt::format_to(out, "dev{}.{}{}.{}", device, e == engine::cdma ? "port" : "core", unit,
                        name(e));
}

/// Formatters without a format spec accept only `{}`.
constexpr auto parse_empty_spec(fmt::format_parse_context& ctx) {
  auto it = ctx.begin();
  if (it != ctx.end() && *it != '}') throw fmt::format_error("tpuprof: no format spec expected");
  return it;
}

}  // namespace tpuprof::detail

/// "TIU", "GDMA", ...; string specs apply (`{:>5}`).
template <>
struct fmt::formatter<tpuprof::engine> : fmt::formatter<std::string_view> {
  auto format(tpuprof::engine e, fmt::format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(tpuprof::name(e), ctx);
  }
};

/// "S2L", "L2S", ... ("" for none); string specs apply.
template <>
struct fmt::formatter<tpuprof::direction> : fmt::formatter<std::string_view> {
  auto format(tpuprof::direction d, fmt::format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(tpuprof::name(d), ctx);
  }
};

/// One line: engine/unit, command id, [begin, end) in ns with 3 decimals (ps),
/// op name id: "TIU/0 #12 [1000.000, 1250.500) ns op=3".
template <>
struct fmt::formatter<tpuprof::engine_event> {
  constexpr auto parse(fmt::format_parse_context& ctx) {
    return tpuprof::detail::parse_empty_spec(ctx);
  }
  auto format(const tpuprof::engine_event& e, fmt::format_context& ctx) const {
    return fmt::format_to(ctx.out(), "{}/{} #{} [{:.3f}, {:.3f}) ns op={}", tpuprof::name(e.engine),
                          e.unit, e.cmd_id, e.begin_ns, e.end_ns, e.op);
  }
};

/// "dev0.core1.TIU" (trace_info's track; clocks and counts are not printed).
template <>
struct fmt::formatter<tpuprof::track> {
  constexpr auto parse(fmt::format_parse_context& ctx) {
    return tpuprof::detail::parse_empty_spec(ctx);
  }
  auto format(const tpuprof::track& t, fmt::format_context& ctx) const {
    return tpuprof::detail::format_track(ctx.out(), t.device, t.unit, t.eng);
  }
};

/// "dev0.core1.TIU", the same form as track.
template <>
struct fmt::formatter<tpuprof::track_key> {
  constexpr auto parse(fmt::format_parse_context& ctx) {
    return tpuprof::detail::parse_empty_spec(ctx);
  }
  auto format(const tpuprof::track_key& t, fmt::format_context& ctx) const {
    return tpuprof::detail::format_track(ctx.out(), t.device, t.unit, t.eng);
  }
};
