/// sinks::callback: a sink made from functions (spdlog's callback_sink).
#pragma once

#include <concepts>
#include <utility>

#include <tpuprof/event.hpp>
#include <tpuprof/sinks/sink.hpp>

namespace tpuprof::sinks {

/// Calls `on_event(e)` for each event and `on_finish()` once at the end.
template <std::invocable<const engine_event&> F, std::invocable<> G>
class callback_sink {
 public:
  callback_sink(F on_event, G on_finish)
      : on_event_(std::move(on_event)), on_finish_(std::move(on_finish)) {}
  void write(const engine_event& e) { on_event_(e); }
  void finish() { on_finish_(); }

 private:
  F on_event_;
  G on_finish_;
};

struct no_op {
  void operator()() const noexcept {}
};

/// Sink from a lambda: `sinks::callback([&](const engine_event& e) { ... })`.
template <std::invocable<const engine_event&> F, std::invocable<> G = no_op>
callback_sink<F, G> callback(F on_event, G on_finish = {}) {
  return {std::move(on_event), std::move(on_finish)};
}

static_assert(event_sink<callback_sink<void (*)(const engine_event&), no_op>>);

}  // namespace tpuprof::sinks
