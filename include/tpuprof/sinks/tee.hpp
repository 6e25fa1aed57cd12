/// sinks::tee: one pass, several sinks (spdlog's dist_sink).
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

#include <tpuprof/event.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/sinks/counter_sample.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::sinks {

/// Forwards every call to each sink in order. Lvalue sinks are held by
/// reference (they must outlive the tee), rvalues are moved in.
template <class... S>
  requires(event_sink<std::remove_reference_t<S>> && ...)
class tee_sink {
 public:
  explicit tee_sink(S&&... s) : sinks_(std::forward<S>(s)...) {}

  void begin(const trace_info& info) {
    std::apply([&](auto&... s) { (detail::sink_begin(s, info), ...); }, sinks_);
  }
  void host(const io::host_trace& h) {
    std::apply([&](auto&... s) { (detail::sink_host(s, h), ...); }, sinks_);
  }
  void counter(const counter_sample& c) {
    std::apply([&](auto&... s) { (detail::sink_counter(s, c), ...); }, sinks_);
  }
  void write(const engine_event& e) {
    std::apply([&](auto&... s) { (s.write(e), ...); }, sinks_);
  }
  void finish() {
    std::apply([&](auto&... s) { (s.finish(), ...); }, sinks_);
  }

 private:
  std::tuple<S...> sinks_;
};

/// `auto t = sinks::tee(csv, perfetto); write_trace(trace, t);`
template <class... S>
  requires(event_sink<std::remove_reference_t<S>> && ...)
tee_sink<S...> tee(S&&... s) {
  return tee_sink<S...>(std::forward<S>(s)...);
}

}  // namespace tpuprof::sinks
