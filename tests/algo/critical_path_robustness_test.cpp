// Graphs that must not hang or mislead: a command waiting for itself, a cycle
// of zero-duration commands, a sync send that began after its wait; and the
// linear-time order equals the heap merge.
#include <cstdint>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/algo/whatif.hpp>

#include "algo/graph_test_util.hpp"

using namespace tpuprof;
using algo::edge_kind;
using algo::idle_cause;

namespace {

using graph_test::dep;
using graph_test::ev;

/// The invariants every graph keeps: the path adds up to the span, replay
/// reproduces it, causes sum to idle time.
void check_sound(const algo::dependency_graph& g) {
  const auto cp = algo::critical_path(g);
  REQUIRE_FALSE(cp.path.empty());
  CHECK(cp.path.size() <= g.size());
  CHECK(cp.path_sum_ns() == doctest::Approx(cp.span_ns()));
  for (double s : cp.slack_ns) CHECK(s >= -1e-9);
  name_table names;
  const auto w = algo::whatif(g, {}, names);
  CHECK(w.replayed_span_ns == doctest::Approx(w.measured_span_ns));
  for (const auto& q : algo::idle_causes(g)) {
    double sum = 0;
    for (double v : q.by_cause_ns) sum += v;
    CHECK(sum == doctest::Approx(q.total_ns));
  }
}

}  // namespace

TEST_CASE("dependency_graph: a command that waits for itself is counted, its edge not used") {
  // TIU t1 [0,10] waits for TIU id 1 (itself); t2 [20,20] (zero duration) waits for id 2 (itself).
  std::vector<engine_event> e{ev(engine::tiu, 1, 0, 10), ev(engine::tiu, 2, 20, 20)};
  std::vector<command_dep> d{dep(1, 1, engine::tiu), dep(2, 2, engine::tiu)};
  const auto g = algo::build_dependency_graph(e, d);
  CHECK(g.counts.self_waits == 2);
  CHECK(g.counts.resolved == 0);
  CHECK(g.counts.violations == 0);
  CHECK(g.usable_dep(0) == algo::no_node);
  CHECK(g.usable_dep(1) == algo::no_node);
  const auto cp = algo::critical_path(g);
  REQUIRE(cp.path.size() == 2);
  CHECK(cp.path[1].via == edge_kind::engine_order);
  // The gap before t2 has no usable dependency: unknown, not dispatch.
  const auto idle = algo::idle_causes(g);
  CHECK(idle[0].by_cause_ns[static_cast<std::size_t>(idle_cause::unknown)] == 10);
  check_sound(g);
}

TEST_CASE("dependency_graph: a cycle of zero-duration commands keeps one edge, no hang") {
  // TIU a [5,5] waits for GDMA b; GDMA b [5,5] waits for TIU a: neither is violated
  // (each began when the other ended), so they form a cycle. a comes first in the
  // order (same begin, TIU's track first): b -> a points backwards and is dropped.
  std::vector<engine_event> e{ev(engine::tiu, 0, 0, 2), ev(engine::tiu, 1, 5, 5),
                              ev(engine::gdma, 1, 5, 5), ev(engine::gdma, 2, 6, 9)};
  std::vector<command_dep> d{dep(9, 0, engine::gdma), dep(1, 1, engine::gdma),
                             dep(1, 1, engine::tiu), dep(2, 0, engine::tiu)};
  const auto g = algo::build_dependency_graph(e, d);
  CHECK(g.counts.resolved == 2);
  CHECK(g.counts.violations == 0);
  CHECK(g.counts.backward == 1);
  CHECK(g.usable_dep(1) == algo::no_node);  // a -> b dropped
  CHECK(g.usable_dep(2) == 1);              // b waits for a: kept
  const auto cp = algo::critical_path(g);
  // g2 [6,9] ends last: after b (engine order), b after a (dependency), a after t0.
  REQUIRE(cp.path.size() == 4);
  CHECK(cp.path[0].node == 0);
  CHECK(cp.path[1].node == 1);
  CHECK(cp.path[2].node == 2);
  CHECK(cp.path[2].via == edge_kind::dependency);
  CHECK(cp.path[3].node == 3);
  check_sound(g);
}

TEST_CASE("dependency_graph: a sync send that began after its wait is not used") {
  // TIU t0 [0,2]; TIU wait [5,20] for message 3; GDMA send of message 3 [10,12]:
  // it began before the wait ended (a pair), but after the wait began.
  std::vector<engine_event> e{ev(engine::tiu, 1, 0, 2), ev(engine::tiu, 2, 5, 20),
                              ev(engine::gdma, 1, 10, 12)};
  std::vector<command_dep> d{dep(1, 0, engine::gdma), dep(2, 0, engine::gdma),
                             dep(1, 0, engine::tiu)};
  d[1].role = sync_role::wait;
  d[1].msg_id = 3;
  d[2].role = sync_role::send;
  d[2].msg_id = 3;
  const auto g = algo::build_dependency_graph(e, d);
  CHECK(g.counts.sync_pairs == 1);
  CHECK(g.sync[1] == 2);
  CHECK(g.usable_sync(1) == algo::no_node);
  CHECK(g.counts.backward == 1);
  const auto cp = algo::critical_path(g);
  CHECK(cp.binding_kind[1] == edge_kind::engine_order);
  const auto idle = algo::idle_causes(g);
  CHECK(idle[0].by_cause_ns[static_cast<std::size_t>(idle_cause::sync)] == 0);
  CHECK(idle[0].by_cause_ns[static_cast<std::size_t>(idle_cause::dispatch)] == 3);  // [2,5)
  check_sound(g);
}

TEST_CASE("dependency_graph: the linear-time order equals the heap merge") {
  std::uint64_t x = 88172645463325252ull;
  auto rnd = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  std::vector<engine_event> e;
  for (int t = 0; t < 6; ++t) {
    double c = static_cast<double>(rnd() % 50);
    for (int i = 0; i < 400; ++i) {
      c += static_cast<double>(rnd() % 3);  // many equal begins across tracks
      auto v = ev(t % 2 ? engine::gdma : engine::tiu, static_cast<std::uint32_t>(i), c,
                  c + static_cast<double>(rnd() % 5));
      v.unit = static_cast<std::uint8_t>(t / 2);
      e.push_back(v);
    }
  }
  const auto tracks = algo::detail::track_ranges(algo::build_dependency_graph(e));
  REQUIRE(tracks.size() == 6);
  double t0 = e[0].begin_ns, t1 = e[0].end_ns;
  for (const auto& v : e) t0 = std::min(t0, v.begin_ns), t1 = std::max(t1, v.end_ns);
  std::vector<algo::node_times> t;
  for (const auto& v : e) t.push_back({v.begin_ns, v.end_ns});
  CHECK(algo::detail::topo_order(t, tracks, true, t0, t1) == algo::detail::merge_order(t, tracks));
}
