/// algo::dependency_graph: hardware commands as nodes, with their same-engine
/// predecessor, the command their cmd_id_dep names and the send their wait_msg
/// pairs with; counts of resolved / none / unresolved / violated dependencies.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
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
  std::uint64_t self_waits = 0;  ///< resolved to the waiter itself: not used
  /// Dependency or sync edges not used because they point backwards in time
  /// order (zero-duration cycles, a send that began after its wait).
  std::uint64_t backward = 0;
};

/// Begin and end of one node, packed: the passes that jump between tracks (time
/// order, dependencies, slack) read 16 bytes per node instead of a 64-byte
/// event, so a million nodes fit in the last-level cache.
struct node_times {
  double begin = 0, end = 0;
};

/// The graph over `events` (index = position in the span given to
/// build_dependency_graph; the caller keeps the events alive).
struct dependency_graph {
  std::span<const engine_event> events;
  std::vector<std::uint32_t> prev;  ///< same-track predecessor, or no_node
  std::vector<std::uint32_t> dep;   ///< the event cmd_id_dep names, or no_node
  std::vector<std::uint32_t> sync;  ///< the send a wait pairs with, or no_node
  std::vector<std::uint8_t> state;  ///< per node: the flags below
  std::vector<node_times> time;     ///< per node: begin_ns and end_ns of its event
  /// Nodes in an order where every usable edge goes forward (begin time, then index).
  std::vector<std::uint32_t> order;
  dependency_counts counts;
  double begin_ns = 0, end_ns = 0;  ///< span of the events

  static constexpr std::uint8_t known = 1;         ///< descriptor decoded
  static constexpr std::uint8_t unresolved = 2;    ///< waits for an id no event has
  static constexpr std::uint8_t violated = 4;      ///< began before `dep` ended (edge not used)
  static constexpr std::uint8_t dep_unused = 8;    ///< `dep` is the node itself or points backwards
  static constexpr std::uint8_t sync_unused = 16;  ///< `sync` points backwards (not used)

  std::size_t size() const noexcept { return events.size(); }
  bool has_data() const noexcept { return counts.no_data < events.size(); }
  /// The dependency edge of n, when it can be used (resolved, not violated).
  std::uint32_t usable_dep(std::uint32_t n) const noexcept {
    return (state[n] & (violated | dep_unused)) ? no_node : dep[n];
  }
  /// The sync edge of n, when it can be used (goes forward in `order`).
  std::uint32_t usable_sync(std::uint32_t n) const noexcept {
    return (state[n] & sync_unused) ? no_node : sync[n];
  }
};

namespace detail {

/// [first, last) of each track of `g`, from its engine-order links (a track
/// starts at a node with no same-track predecessor): 4 bytes read per node,
/// not a 64-byte event.
inline std::vector<std::pair<std::uint32_t, std::uint32_t>> track_ranges(
    const dependency_graph& g) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> r;
  for (std::uint32_t i = 0; i < g.size(); ++i)
    if (g.prev[i] == no_node)
      r.emplace_back(i, i + 1);
    else
      r.back().second = i + 1;
  return r;
}

/// Merges the tracks' time orders into one (by begin, then track number; each
/// track keeps its own order). A binary heap of the tracks' next events whose
/// top is replaced in place, and runs of one track drained without the heap.
inline std::vector<std::uint32_t> merge_order(
    std::span<const node_times> ev,
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tracks) {
  std::vector<std::uint32_t> out;
  out.reserve(ev.size());
  struct head {
    double t;
    std::uint32_t k;
  };
  auto less = [](const head& a, const head& b) { return a.t < b.t || (a.t == b.t && a.k < b.k); };
  std::vector<std::uint32_t> at(tracks.size());  // next event of each track
  std::vector<head> h;
  h.reserve(tracks.size());
  for (std::uint32_t k = 0; k < tracks.size(); ++k) {
    at[k] = tracks[k].first;
    h.push_back({ev[at[k]].begin, k});
  }
  auto sift = [&](std::size_t i) {
    const head x = h[i];
    for (std::size_t c; (c = 2 * i + 1) < h.size(); i = c) {
      if (c + 1 < h.size() && less(h[c + 1], h[c])) ++c;
      if (!less(h[c], x)) break;
      h[i] = h[c];
    }
    h[i] = x;
  };
  for (std::size_t i = h.size() / 2; i-- > 0;) sift(i);
  while (!h.empty()) {
    const std::uint32_t k = h[0].k;
    double next = std::numeric_limits<double>::infinity();  // the first of the other tracks
    if (h.size() > 1) next = h[1].t;
    if (h.size() > 2) next = std::min(next, h[2].t);
    const std::uint32_t end = tracks[k].second;
    do out.push_back(at[k]++);
    while (at[k] < end && ev[at[k]].begin < next);
    if (at[k] < end) {
      h[0].t = ev[at[k]].begin;
    } else {
      h[0] = h.back();
      h.pop_back();
    }
    if (!h.empty()) sift(0);
  }
  return out;
}

/// The same order as merge_order when every track is sorted by begin time
/// (`sorted`) and all times are finite, in linear time: a counting sort of the
/// events into about one time bucket each, in index order (so by track, then
/// position), then a stable sort by begin within each bucket.
inline std::vector<std::uint32_t> topo_order(
    std::span<const node_times> ev,
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tracks, bool sorted, double t0,
    double t1) {
  const std::size_t n = ev.size();
  if (!sorted || !(t1 - t0 < std::numeric_limits<double>::infinity()) || n < 64)
    return merge_order(ev, tracks);
  const double scale = t1 > t0 ? static_cast<double>(n - 1) / (t1 - t0) : 0.0;
  std::vector<std::uint32_t> bucket(n), start(n + 1, 0), out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = static_cast<std::uint32_t>((ev[i].begin - t0) * scale);
    bucket[i] = std::min<std::uint32_t>(b, static_cast<std::uint32_t>(n - 1));
    ++start[bucket[i] + 1];
  }
  for (std::size_t b = 0; b < n; ++b) start[b + 1] += start[b];
  // Scatter from the back, each bucket filled from its end (start[b + 1]):
  // stable, and no third array. Then start[b + 1] holds bucket b's first
  // position: shift it back.
  for (std::uint32_t i = static_cast<std::uint32_t>(n); i-- > 0;) out[--start[bucket[i] + 1]] = i;
  for (std::size_t b = 0; b < n; ++b) start[b] = start[b + 1];
  start[n] = static_cast<std::uint32_t>(n);
  auto by_begin = [&](std::uint32_t a, std::uint32_t b) { return ev[a].begin < ev[b].begin; };
  for (std::size_t b = 0; b < n; ++b) {
    const auto first = out.begin() + start[b], last = out.begin() + start[b + 1];
    if (last - first < 2) continue;
    if (last - first <= 16) {  // insertion sort: stable, and buckets are small
      for (auto i = first + 1; i != last; ++i)
        for (auto j = i; j != first && by_begin(*j, *(j - 1)); --j) std::iter_swap(j, j - 1);
    } else {
      std::stable_sort(first, last, by_begin);
    }
  }
  return out;
}

/// Where the self ids of one track are: `dense` when they count up by one from
/// `first` (then a lookup is one subtraction), else a sorted (id, node) list.
struct track_ids {
  std::uint32_t key = 0, b = 0, e = 0, first = 0;
  bool dense = false;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> list;
};

inline std::vector<track_ids> index_ids(
    std::span<const command_dep> deps,
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tracks,
    std::span<const engine_event> ev, std::uint32_t mask) {
  std::vector<track_ids> out(tracks.size());
  for (std::size_t k = 0; k < tracks.size(); ++k) {
    auto& t = out[k];
    const auto [b, e] = tracks[k];
    t.key = track_of(ev[b]).packed();
    t.b = b;
    t.e = e;
    t.first = deps[b].self_id & mask;
    t.dense = e - b - 1 <= mask;  // no id repeats
    for (std::uint32_t i = b; i < e && t.dense; ++i)
      t.dense = deps[i].known && (deps[i].self_id & mask) == ((t.first + (i - b)) & mask);
    if (t.dense) continue;
    t.list.reserve(e - b);
    for (std::uint32_t i = b; i < e; ++i)
      if (deps[i].known) t.list.emplace_back(deps[i].self_id & mask, i);
    if (!std::is_sorted(t.list.begin(), t.list.end())) std::sort(t.list.begin(), t.list.end());
  }
  std::sort(out.begin(), out.end(),
            [](const track_ids& a, const track_ids& b) { return a.key < b.key; });
  return out;
}

/// The node of `t` whose self id is `id`: of several, the last that began no
/// later than `n`, else the first (ids wrap, and restart per subnet or iteration).
inline std::uint32_t find_id(const track_ids& t, std::uint32_t id, std::uint32_t mask,
                             std::span<const node_times> ev, std::uint32_t n, std::size_t& hint) {
  if (t.dense) {
    const std::uint32_t off = (id - t.first) & mask;
    return off < t.e - t.b ? t.b + off : no_node;
  }
  const auto& v = t.list;
  const std::pair key{id, 0u};
  // Awaited ids mostly grow with time: try just past the previous hit first.
  auto lo = hint < v.size() && v[hint] < key && (hint + 1 == v.size() || !(v[hint + 1] < key))
                ? v.begin() + static_cast<std::ptrdiff_t>(hint + 1)
                : std::lower_bound(v.begin(), v.end(), key);
  hint = static_cast<std::size_t>(lo - v.begin());
  std::uint32_t found = no_node;
  for (; lo != v.end() && lo->first == id; ++lo)
    if (found == no_node || ev[lo->second].begin <= ev[n].begin) found = lo->second;
  return found;
}

/// Resolves each known wait id to the event of its engine and core whose
/// self_id it is (modulo 2^id_bits). A command resolved to itself is counted
/// in self_waits and its edge is not used. `check` gets the edges whose
/// direction in `order` begin times alone do not prove.
inline void resolve_ids(dependency_graph& g, std::span<const command_dep> deps,
                        const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tracks,
                        std::vector<std::uint32_t>& check) {
  const auto ev = g.events;
  unsigned bits = 0;
  for (const command_dep& d : deps)
    if (d.known && d.id_bits) {
      bits = d.id_bits;
      break;
    }
  const std::uint32_t mask =
      bits == 0 || bits >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << bits) - 1;
  const std::vector<track_ids> ids = index_ids(deps, tracks, ev, mask);
  std::uint32_t last_key = ~std::uint32_t{0};
  const track_ids* last = nullptr;
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
    const std::uint32_t tk = track_key{ev[n].device, ev[n].unit, d.on}.packed();
    if (tk != last_key) {  // waiters come grouped by track: one search per run
      last_key = tk;
      auto it = std::lower_bound(ids.begin(), ids.end(), tk,
                                 [](const track_ids& t, std::uint32_t k) { return t.key < k; });
      last = it != ids.end() && it->key == tk ? &*it : nullptr;
      hint = 0;
    }
    const std::uint32_t found =
        last ? find_id(*last, d.wait_id & mask, mask, g.time, n, hint) : no_node;
    if (found == n) {
      g.state[n] |= dependency_graph::dep_unused;
      ++g.counts.self_waits;
      continue;
    }
    if (found == no_node) {
      g.state[n] |= dependency_graph::unresolved;
      ++g.counts.unresolved;
      continue;
    }
    g.dep[n] = found;
    ++g.counts.resolved;
    const auto& t = g.time;
    if (t[n].begin < t[found].end) {
      g.state[n] |= dependency_graph::violated;
      ++g.counts.violations;
    } else if (!(t[found].begin < t[n].begin)) {
      check.push_back(n);  // a zero-duration command at the waiter's begin
    }
  }
}

/// Pairs each wait with the last send of the same device and message id that
/// began before the wait ended.
inline void pair_messages(dependency_graph& g, std::span<const command_dep> deps,
                          std::vector<std::uint32_t>& check) {
  const auto ev = g.events;
  struct send {
    std::uint8_t device;
    std::uint32_t msg;
    double begin;
    std::uint32_t node;
  };
  auto key = [](const send& s) { return std::tuple(s.device, s.msg, s.begin, s.node); };
  std::vector<send> sends;
  bool waits = false;
  for (std::uint32_t n = 0; n < ev.size(); ++n) {
    if (!deps[n].known || deps[n].role == sync_role::none) continue;
    if (deps[n].role == sync_role::send)
      sends.push_back({ev[n].device, deps[n].msg_id, ev[n].begin_ns, n});
    else
      waits = true;
  }
  if (sends.empty() || !waits) return;
  std::sort(sends.begin(), sends.end(),
            [&](const send& a, const send& b) { return key(a) < key(b); });
  for (std::uint32_t n = 0; n < ev.size(); ++n) {
    if (!deps[n].known || deps[n].role != sync_role::wait) continue;
    const send probe{ev[n].device, deps[n].msg_id, ev[n].end_ns, no_node};
    auto up = std::upper_bound(sends.begin(), sends.end(), probe,
                               [&](const send& a, const send& b) { return key(a) < key(b); });
    if (up == sends.begin()) continue;
    --up;
    if (up->device != probe.device || up->msg != probe.msg) continue;
    g.sync[n] = up->node;
    ++g.counts.sync_pairs;
    if (!(ev[up->node].begin_ns < ev[n].begin_ns)) check.push_back(n);
  }
}

/// Marks the edges of `check` (or of every node when `all`) that point
/// backwards in `order`, or close a cycle of zero-duration commands, as unused.
inline void drop_backward(dependency_graph& g, const std::vector<std::uint32_t>& check, bool all) {
  if (check.empty() && !all) return;
  std::vector<std::uint32_t> pos(g.size());
  for (std::uint32_t i = 0; i < g.order.size(); ++i) pos[g.order[i]] = i;
  auto visit = [&](std::uint32_t n) {
    if (const auto d = g.usable_dep(n); d != no_node && pos[d] >= pos[n]) {
      g.state[n] |= dependency_graph::dep_unused;
      ++g.counts.backward;
    }
    if (const auto s = g.usable_sync(n); s != no_node && pos[s] >= pos[n]) {
      g.state[n] |= dependency_graph::sync_unused;
      ++g.counts.backward;
    }
  };
  if (all)
    for (std::uint32_t n = 0; n < g.size(); ++n) visit(n);
  else
    for (std::uint32_t n : check) visit(n);
}

}  // namespace detail

/// Builds the graph of `events` (grouped by track, time ordered within one, as
/// trace::events()) with `deps` parallel to them; empty `deps` = no dependency
/// data (engine order only). Every usable edge goes forward in `order`: a
/// command waiting for itself, and edges that would point backwards (cycles of
/// zero-duration commands, a send that began after its wait) are counted
/// (self_waits, backward) and not used.
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
  g.time.reserve(n);
  // One pass: the tracks, engine order, the span, and whether every track is
  // sorted by (finite) begin time: then begin < begin proves an edge's direction.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tracks;
  g.begin_ns = events[0].begin_ns;
  g.end_ns = events[0].end_ns;
  bool sorted = true;
  std::uint32_t key = ~std::uint32_t{0};
  for (std::uint32_t i = 0; i < n; ++i) {
    const engine_event& e = events[i];
    const std::uint32_t k = track_of(e).packed();
    g.time.push_back({e.begin_ns, e.end_ns});
    sorted = sorted && std::isfinite(e.begin_ns);
    if (i == 0 || k != key) {
      tracks.emplace_back(i, i + 1);
      key = k;
    } else {
      tracks.back().second = i + 1;
      g.prev[i] = i - 1;
      sorted = sorted && events[i - 1].begin_ns <= e.begin_ns;
    }
    g.begin_ns = std::min(g.begin_ns, e.begin_ns);
    g.end_ns = std::max(g.end_ns, e.end_ns);
  }
  g.order = detail::topo_order(g.time, tracks, sorted, g.begin_ns, g.end_ns);
  if (deps.size() == n) {
    std::vector<std::uint32_t> check;
    detail::resolve_ids(g, deps, tracks, check);
    detail::pair_messages(g, deps, check);
    detail::drop_backward(g, check, !sorted);
  } else {
    g.counts.no_data = n;
  }
  return g;
}

/// True when `a` and `b` hold the same commands in the same order (track and
/// cmd id per position): two decodes of one dump at different time bases, so
/// results on one (node indices) apply to the other's events.
inline bool same_commands(std::span<const engine_event> a, std::span<const engine_event> b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].cmd_id != b[i].cmd_id || track_of(a[i]) != track_of(b[i])) return false;
  return true;
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
