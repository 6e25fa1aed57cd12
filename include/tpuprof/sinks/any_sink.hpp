/// any_sink: a type-erased sink for choosing the output format at run time
/// (the only sink with a virtual call per event).
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

#include <tpuprof/event.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/sinks/counter_sample.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::sinks {

/// Owns any event_sink (moved in) and forwards every hook it has.
/// An empty any_sink (default-constructed or moved-from) ignores all calls.
class any_sink {
 public:
  any_sink() = default;
  template <class S>
    requires(event_sink<std::remove_cvref_t<S>> &&
             !std::is_same_v<std::remove_cvref_t<S>, any_sink>)
  any_sink(S&& s)  // NOLINT(google-explicit-constructor): a sink converts implicitly
      : self_(std::make_unique<model<std::remove_cvref_t<S>>>(std::forward<S>(s))) {}

  void begin(const trace_info& info) {
    if (self_) self_->begin(info);
  }
  void host(const io::host_trace& h) {
    if (self_) self_->host(h);
  }
  void counter(const counter_sample& c) {
    if (self_) self_->counter(c);
  }
  void write(const engine_event& e) {
    if (self_) self_->write(e);
  }
  void finish() {
    if (self_) self_->finish();
  }
  explicit operator bool() const noexcept { return self_ != nullptr; }

  /// The wrapped sink, or nullptr if it is not an S.
  template <class S>
  S* target() noexcept {
    auto* m = dynamic_cast<model<S>*>(self_.get());
    return m ? &m->sink : nullptr;
  }

 private:
  struct concept_ {
    virtual ~concept_() = default;
    virtual void begin(const trace_info&) = 0;
    virtual void host(const io::host_trace&) = 0;
    virtual void counter(const counter_sample&) = 0;
    virtual void write(const engine_event&) = 0;
    virtual void finish() = 0;
  };
  template <class S>
  struct model final : concept_ {
    template <class A>
    explicit model(A&& a) : sink(std::forward<A>(a)) {}
    void begin(const trace_info& info) override { detail::sink_begin(sink, info); }
    void host(const io::host_trace& h) override { detail::sink_host(sink, h); }
    void counter(const counter_sample& c) override { detail::sink_counter(sink, c); }
    void write(const engine_event& e) override { sink.write(e); }
    void finish() override { sink.finish(); }
    S sink;
  };
  std::unique_ptr<concept_> self_;
};

static_assert(event_sink<any_sink>);

}  // namespace tpuprof::sinks
