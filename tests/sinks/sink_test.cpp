#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/sinks/any_sink.hpp>
#include <tpuprof/sinks/callback.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/sinks/tee.hpp>

#include "sinks/sample_trace.hpp"

using namespace tpuprof;

namespace {
struct counting_sink {
  int events = 0, begun = 0, finished = 0, hosts = 0, counters = 0;
  void write(const engine_event&) { ++events; }
  void finish() { ++finished; }
};
struct full_sink : counting_sink {
  void begin(const trace_info&) { ++begun; }
  void host(const io::host_trace&) { ++hosts; }
  void counter(const counter_sample&) { ++counters; }
};
}  // namespace

static_assert(event_sink<counting_sink>);
static_assert(!event_sink<int>);
static_assert(event_sink<sinks::any_sink>);

TEST_CASE("write_trace drives begin, every event and span, then finish") {
  auto t = sink_test::sample();
  full_sink s;
  io::host_trace h;
  write_trace(t, h, s);
  CHECK(s.begun == 1);
  CHECK(s.hosts == 1);
  CHECK(s.events == int(t.hw.size() + t.derived.size()));
  CHECK(s.finished == 1);
  counting_sink minimal;  // no optional hooks: still fine
  write_trace(t, minimal);
  CHECK(minimal.events == int(t.hw.size() + t.derived.size()));
}

TEST_CASE("ranges and traces pipe into a sink") {
  auto t = sink_test::sample();
  counting_sink a;
  t.hw | sinks::to(a);
  CHECK(a.events == int(t.hw.size()));
  CHECK(a.finished == 1);
  counting_sink b;
  t | sinks::to(b);
  CHECK(b.events == int(t.hw.size() + t.derived.size()));
  std::vector<engine_event> only_tiu;
  for (const auto& e :
       t.hw | std::views::filter([](const engine_event& e) { return e.engine == engine::tiu; }))
    only_tiu.push_back(e);
  counting_sink c;
  write_events(
      t.hw | std::views::filter([](const engine_event& e) { return e.engine == engine::tiu; }), c);
  CHECK(c.events == int(only_tiu.size()));
}

TEST_CASE("tee fans out every hook; callback and any_sink forward") {
  auto t = sink_test::sample();
  full_sink a;
  counting_sink b;
  std::vector<std::uint32_t> ids;
  bool done = false;
  auto cb = sinks::callback([&](const engine_event& e) { ids.push_back(e.cmd_id); },
                            [&] { done = true; });
  auto tee = sinks::tee(a, b, cb);
  tee.counter({"x", "", 0, 1, 0, -1});
  write_trace(t, tee);
  CHECK(a.events == b.events);
  CHECK(a.counters == 1);
  CHECK(a.begun == 1);
  CHECK(ids.size() == t.hw.size() + t.derived.size());
  CHECK(done);

  sinks::any_sink any = full_sink{};
  write_trace(t, any);
  REQUIRE(any.target<full_sink>() != nullptr);
  CHECK(any.target<full_sink>()->events == int(t.hw.size() + t.derived.size()));
  CHECK(any.target<full_sink>()->begun == 1);
  CHECK(any.target<counting_sink>() == nullptr);
  sinks::any_sink empty;
  empty.write(t.hw[0]);  // ignored
  CHECK_FALSE(empty);
}
