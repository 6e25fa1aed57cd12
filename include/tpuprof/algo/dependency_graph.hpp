/// algo::dependency_graph: hardware commands as nodes, with their same-engine
/// predecessor, the command their cmd_id_dep names and the send their wait_msg
/// pairs with; counts of resolved / none / unresolved / violated dependencies.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <queue>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <tpuprof/command_dep.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof::algo {

/// How a command was reached from its predecessor on a path.
enum class edge_kind : std::uint8_t { start = 0, engine_order, dependency, sync };

constexpr std::string_view name(edge_kind k) noexcept {
  constexpr std::array<std::string_view, 4> n{"start", "engine_order", "dependency", "sync"};
  return n[static_cast<std::size_t>(k)];
}

/// No node (no predecessor, unresolved id).
inline constexpr std::uint32_t no_node = std::numeric_limits<std::uint32_t>::max();

/// What the dependency ids of a trace resolved to.
struct dependency_counts {
  std::uint64_t resolved = 0;    ///< names an event that exists (violations included)
  std::uint64_t none = 0;        ///< descriptor says: waits for nothing
  std::uint64_t unresolved = 0;  ///< names an id no event of that engine and core has
  std::uint64_t violations = 0;  ///< resolved, but started before the awaited command ended
  std::uint64_t no_data = 0;     ///< no descriptor: nothing known (SG2260 modes 0/1)
  std::uint64_t sync_pairs = 0;  ///< wait commands paired with a send
};

/// The graph over `events` (index = position in the span given to
/// build_dependency_graph; the caller keeps the events alive).
struct dependency_graph {
  std::span<const engine_event> events;
  std::vector<std::uint32_t> prev;  ///< same-track predecessor, or no_node
  std::vector<std::uint32_t> dep;   ///< the event cmd_id_dep names, or no_node
  std::vector<std::uint32_t> sync;  ///< the send a wait pairs with, or no_node
  std::vector<std::uint8_t> state;  ///< per node: the flags below
  /// Nodes in an order where every usable edge goes forward (begin time, then index).
  std::vector<std::uint32_t> order;
  dependency_counts counts;
  double begin_ns = 0, end_ns = 0;  ///< span of the events

  static constexpr std::uint8_t known = 1;       ///< descriptor decoded
  static constexpr std::uint8_t unresolved = 2;  ///< waits for an id no event has
  static constexpr std::uint8_t violated = 4;    ///< began before `dep` ended (edge not used)

  std::size_t size() const noexcept { return events.size(); }
  bool has_data() const noexcept { return counts.no_data < events.size(); }
  /// The dependency edge of n, when it can be used (resolved, not violated).
  std::uint32_t usable_dep(std::uint32_t n) const noexcept {
    return (state[n] & violated) ? no_node : dep[n];
  }
};

namespace detail {

/// [first, last) of each track (events are grouped by track).
inline std::vector<std::pair<std::uint32_t, std::uint32_t>> track_ranges(
    std::span<const engine_event> ev) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> r;
  for (std::uint32_t i = 0; i < ev.size(); ++i)
    if (i == 0 || track_of(ev[i]) != track_of(ev[i - 1]))
      r.emplace_back(i, i + 1);
    else
      r.back().second = i + 1;
  return r;
}

/// Merges the tracks' time orders into one (tracks sorted by begin unless not).
inline std::vector<std::uint32_t> topo_order(
    std::span<const engine_event> ev,
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tracks) {
  std::vector<std::uint32_t> out;
  out.reserve(ev.size());
  std::vector<std::uint32_t> at(tracks.size());   // next event of each track
  using item = std::pair<double, std::uint32_t>;  // its begin, track number
  std::priority_queue<item, std::vector<item>, std::greater<>> heap;
  for (std::uint32_t k = 0; k < tracks.size(); ++k) {
    at[k] = tracks[k].first;
    heap.emplace(ev[at[k]].begin_ns, k);
  }
  while (!heap.empty()) {
    const std::uint32_t k = heap.top().second;
    heap.pop();
    // Drain the track while it stays first (the common case: long runs).
    const double next = heap.empty() ? std::numeric_limits<double>::infinity() : heap.top().first;
    do out.push_back(at[k]++);
    while (at[k] < tracks[k].second && ev[at[k]].begin_ns < next);
    if (at[k] < tracks[k].second) heap.emplace(ev[at[k]].begin_ns, k);
  }
  return out;
}

/// Resolves each known wait id to the event of its engine and core whose
/// self_id it is (modulo 2^id_bits): the last such event that began no later than the waiter, else
/// the first one (ids wrap, and restart per subnet or iteration).
inline void resolve_ids(dependency_graph& g, std::span<const command_dep> deps,
                        const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tracks) {
  const auto ev = g.events;
  unsigned bits = 0;
  for (const command_dep& d : deps)
    if (d.known && d.id_bits) {
      bits = d.id_bits;
      break;
    }
  const std::uint32_t mask =
      bits == 0 || bits >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << bits) - 1;
  std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> by_track;
  for (auto [b, e] : tracks) {
    auto& v = by_track[track_of(ev[b]).packed()];
    v.reserve(e - b);
    for (std::uint32_t i = b; i < e; ++i)
      if (deps[i].known) v.emplace_back(deps[i].self_id & mask, i);
    if (!std::is_sorted(v.begin(), v.end())) std::sort(v.begin(), v.end());
  }
  std::uint32_t last_key = ~std::uint32_t{0};
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>* last = nullptr;
  std::size_t hint = 0;
  for (std::uint32_t n = 0; n < ev.size(); ++n) {
    const command_dep& d = deps[n];
    if (!d.known) {
      ++g.counts.no_data;
      continue;
    }
    g.state[n] |= dependency_graph::known;
    if (d.wait_id == 0) {
      ++g.counts.none;
      continue;
    }
    std::uint32_t found = no_node;
    const std::uint32_t tk = track_key{ev[n].device, ev[n].unit, d.on}.packed();
    if (tk != last_key) {  // waiters come grouped by track: one map lookup per run
      last_key = tk;
      auto it = by_track.find(tk);
      last = it == by_track.end() ? nullptr : &it->second;
    }
    if (last) {
      const auto& v = *last;
      const std::pair key{d.wait_id & mask, 0u};
      // Awaited ids mostly grow with time: try just past the previous hit first.
      auto lo = hint < v.size() && v[hint] < key && (hint + 1 == v.size() || !(v[hint + 1] < key))
                    ? v.begin() + static_cast<std::ptrdiff_t>(hint + 1)
                    : std::lower_bound(v.begin(), v.end(), key);
      hint = static_cast<std::size_t>(lo - v.begin());
      for (; lo != v.end() && lo->first == (d.wait_id & mask); ++lo)
        if (found == no_node || ev[lo->second].begin_ns <= ev[n].begin_ns) found = lo->second;
    }
    if (found == no_node) {
      g.state[n] |= dependency_graph::unresolved;
      ++g.counts.unresolved;
      continue;
    }
    g.dep[n] = found;
    ++g.counts.resolved;
    if (ev[n].begin_ns < ev[found].end_ns) {
      g.state[n] |= dependency_graph::violated;
      ++g.counts.violations;
    }
  }
}

/// Pairs each wait with the last send of the same device and message id that
/// began before the wait ended.
inline void pair_messages(dependency_graph& g, std::span<const command_dep> deps) {
  const auto ev = g.events;
  std::map<std::pair<std::uint8_t, std::uint32_t>, std::vector<std::uint32_t>> sends;
  for (std::uint32_t n : g.order)
    if (deps[n].known && deps[n].role == sync_role::send)
      sends[{ev[n].device, deps[n].msg_id}].push_back(n);
  for (std::uint32_t n = 0; n < ev.size(); ++n) {
    if (!deps[n].known || deps[n].role != sync_role::wait) continue;
    auto it = sends.find({ev[n].device, deps[n].msg_id});
    if (it == sends.end()) continue;
    const auto& v = it->second;
    auto up = std::upper_bound(v.begin(), v.end(), ev[n].end_ns,
                               [&](double t, std::uint32_t s) { return t < ev[s].begin_ns; });
    if (up == v.begin()) continue;
    g.sync[n] = *(up - 1);
    ++g.counts.sync_pairs;
  }
}

}  // namespace detail

/// Builds the graph of `events` (grouped by track, time ordered within one, as
/// trace::events()) with `deps` parallel to them; empty `deps` = no dependency
/// data (engine order only).
inline dependency_graph build_dependency_graph(std::span<const engine_event> events,
                                               std::span<const command_dep> deps = {}) {
  dependency_graph g;
  g.events = events;
  const auto n = events.size();
  g.prev.assign(n, no_node);
  g.dep.assign(n, no_node);
  g.sync.assign(n, no_node);
  g.state.assign(n, 0);
  if (n == 0) return g;
  const auto tracks = detail::track_ranges(events);
  g.begin_ns = events[0].begin_ns;
  g.end_ns = events[0].end_ns;
  for (auto [b, e] : tracks)
    for (std::uint32_t i = b; i < e; ++i) {
      if (i > b) g.prev[i] = i - 1;
      g.begin_ns = std::min(g.begin_ns, events[i].begin_ns);
      g.end_ns = std::max(g.end_ns, events[i].end_ns);
    }
  g.order = detail::topo_order(events, tracks);
  if (deps.size() == n) {
    detail::resolve_ids(g, deps, tracks);
    detail::pair_messages(g, deps);
  } else {
    g.counts.no_data = n;
  }
  return g;
}

/// The graph of a trace opened with open_options::dependencies (anything with
/// events() and dependencies() parallel to them).
template <class T>
  requires requires(const T& t) {
    { t.events() } -> std::convertible_to<std::span<const engine_event>>;
    { t.dependencies() } -> std::convertible_to<std::span<const command_dep>>;
  }
dependency_graph build_dependency_graph(const T& t) {
  return build_dependency_graph(std::span<const engine_event>(t.events()), t.dependencies());
}

}  // namespace tpuprof::algo
