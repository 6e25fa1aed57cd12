/// event_sink: the concept every output implements, and the functions that
/// drain a decoded trace or any range of events into a sink.
#pragma once

#include <concepts>
#include <ranges>
#include <type_traits>
#include <utility>

#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/sinks/counter_sample.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof {

/// A sink takes events one by one (`write`) and completes its output in
/// `finish`. Optional hooks, called when present:
///  - `begin(const trace_info&)`: once, before anything else;
///  - `host(const io::host_trace&)`: host spans, after begin, before events;
///  - `counter(const counter_sample&)`: counter values, any time before finish.
/// Sinks are single-threaded; they never own the trace.
template <class S>
concept event_sink = requires(S& s, const engine_event& e) {
  s.write(e);
  s.finish();
};

namespace detail {
template <class S>
void sink_begin(S& s, const trace_info& info) {
  if constexpr (requires { s.begin(info); }) s.begin(info);
}
template <class S>
void sink_host(S& s, const io::host_trace& h) {
  if constexpr (requires { s.host(h); }) s.host(h);
}
template <class S>
void sink_counter(S& s, const counter_sample& c) {
  if constexpr (requires { s.counter(c); }) s.counter(c);
}
}  // namespace detail

/// Writes every event of `events` to `sink` (no begin/finish): for streaming
/// several ranges into one sink, or for sinks that need no trace_info.
template <event_range R, event_sink S>
void write_events(R&& events, S& sink) {
  for (auto&& e : events) sink.write(static_cast<const engine_event&>(e));
}

/// Writes a whole trace: begin(info), hardware events, derived spans, finish().
template <decoded_trace T, event_sink S>
void write_trace(const T& trace, S& sink) {
  detail::sink_begin(sink, trace.info());
  write_events(trace.events(), sink);
  write_events(trace.spans(), sink);
  sink.finish();
}

/// Same, with host spans from an external trace (already placed on the
/// device timeline) written after begin().
template <decoded_trace T, event_sink S>
void write_trace(const T& trace, const io::host_trace& host, S& sink) {
  detail::sink_begin(sink, trace.info());
  detail::sink_host(sink, host);
  write_events(trace.events(), sink);
  write_events(trace.spans(), sink);
  sink.finish();
}

namespace sinks {

/// Pipe closure made by sinks::to(sink); holds the sink by reference.
template <event_sink S>
struct to_closure {
  S& sink;
};

/// `trace | sinks::to(s)` = write_trace(trace, s);
/// `events | sinks::to(s)` = write_events(events, s) followed by s.finish().
template <event_sink S>
to_closure<S> to(S& sink) noexcept {
  return {sink};
}

template <decoded_trace T, event_sink S>
void operator|(const T& trace, to_closure<S> c) {
  write_trace(trace, c.sink);
}

template <event_range R, event_sink S>
  requires(!decoded_trace<std::remove_cvref_t<R>>)
void operator|(R&& events, to_closure<S> c) {
  write_events(std::forward<R>(events), c.sink);
  c.sink.finish();
}

}  // namespace sinks
}  // namespace tpuprof
