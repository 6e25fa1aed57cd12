/// cdm stream facts: what the first pass of cdm::stream keeps of each core and
/// list (a few numbers, no records), from which the global alignment, time
/// span and tracks are computed before any event is emitted; and what the
/// second pass hands from a worker to the calling thread (core_output, whose
/// local name ids intern_names and renamed map to the dump's).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tpuprof/decode/cdm/operator_path.hpp>
#include <tpuprof/decode/cdm/state.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>

namespace tpuprof::cdm::detail {

/// One list after matching, in cycles with its pending shift subtracted.
struct list_facts {
  bool any = false;             ///< records before system-command removal
  std::int64_t first = 0;       ///< start of the first record
  std::int64_t low = 0;         ///< lowest start or end of any record
  std::int64_t back_end = 0;    ///< end of the last record
  std::size_t n[2] = {0, 0};    ///< records after removal, [remain]
  std::int64_t lo[2] = {0, 0};  ///< lowest start after removal
  std::int64_t hi[2] = {0, 0};  ///< highest end after removal
};

/// One core: its lists, anchor, names, scope count and diagnostics by stage.
struct core_facts {
  list_facts l[3];
  std::optional<std::int64_t> anchor;
  std::vector<std::string> names;  ///< kernel-function names, in interning order
  std::int32_t scopes = 0;         ///< func_scope_ids the core's DYN walk assigns
  bool has_dyn = false, has_extra = false;
  decode_diagnostics read, op;  ///< read stage, path stage
};

/// One core's second pass: its events (then, for the core the CDMA ports
/// attach to, the ports' events), spans, local names and emit counts.
struct core_output {
  std::vector<engine_event> events;
  std::size_t core_events = 0;  ///< events of the core; the ports' follow
  std::vector<engine_event> spans;
  name_table names;            ///< local ids of events and spans
  std::size_t core_names = 0;  ///< names [0, core_names) occur before the ports
  decode_diagnostics diag;     ///< the emit stage's counts
  std::uint64_t unmatched_out = 0, descriptors_unsupported = 0;
  bool global_names = false;  ///< events [0, core_events) carry the dump's name ids
};

/// The ids in `table` of a core's local names [0, n), interned in local-id
/// order (the materialized emit's order); other local ids map to 0.
inline std::vector<name_id> intern_names(const name_table& local, std::size_t n,
                                         name_table& table) {
  std::vector<name_id> map(local.size(), 0);
  for (std::size_t k = 0; k < n; ++k) map[k] = table.intern(local[static_cast<name_id>(k)]);
  return map;
}

/// `e` with its name ids looked up in `map` (intern_names).
inline engine_event renamed(engine_event e, const std::vector<name_id>& map) {
  e.op = map[e.op];
  e.op_type = map[e.op_type];
  e.function = map[e.function];
  return e;
}

/// The pre-removal facts of `l` (what align_and_shift reads).
inline void facts_before(const pmu_list l, list_facts& f) {
  if (l.empty()) return;
  f.any = true;
  f.first = l.front().start() - l.shift;
  std::int64_t m = std::min(l.front().start(), l.front().end());
  for (std::size_t i = 1; i < l.size(); ++i) {
    const pmu_ref x = l[i];
    m = std::min(m, std::min(x.start(), x.end()));
  }
  f.low = m - l.shift;
  f.back_end = l.back().end() - l.shift;
}

/// The post-removal facts of `l` as variant `v` (0: no CDMA remains, 1: some does).
inline void facts_after(const pmu_list l, int v, list_facts& f) {
  f.n[v] = l.size();
  if (l.empty()) return;
  std::int64_t lo = l.front().start(), hi = l.front().end();
  for (std::size_t i = 1; i < l.size(); ++i) {
    const pmu_ref x = l[i];
    lo = std::min(lo, x.start());
    hi = std::max(hi, x.end());
  }
  f.lo[v] = lo - l.shift;
  f.hi[v] = hi - l.shift;
}

/// Both variants of the operator path's system-command removal of a core
/// list (which one applies is known once the CDMA ports are done). `l` and
/// its records stay as they are: a kept core is emitted from them.
inline void facts_removal(const pmu_list l, std::uint8_t code, list_facts& f) {
  pmu_list kept = l;
  omit_system_op(kept, code, true);  // moves the window only
  facts_after(kept, 1, f);
  if (kept.size() > 2) {  // the other variant only differs on lists of <= 2
    facts_after(kept, 0, f);
    return;
  }
  engine_event few[2];  // that one compacts records: on copies
  for (std::size_t i = 0; i < kept.size(); ++i) few[i] = kept.slot(i);
  pmu_list dropped(few, 0, kept.size());
  dropped.shift = kept.shift;
  omit_system_op(dropped, code, false);
  facts_after(dropped, 0, f);
}

/// Same variant either way (bmodel path, CDMA ports).
inline void facts_same(const pmu_list l, list_facts& f) {
  facts_after(l, 0, f);
  facts_after(l, 1, f);
}

/// Second pass with cores formatted on workers: each core's names, published
/// once its worker emitted it, so that core i's worker can give its new names
/// the ids commit() will (the table plus cores [0, i)'s names, in core order)
/// without waiting for the earlier cores' commit, which waits for their
/// formatting. The streamer calls publish() under its lock.
struct emitted_names {
  std::vector<std::vector<std::string>> names;  ///< per core: names [1, n) of its table
  std::vector<char> set;                        ///< names[i] is published
  std::size_t prefix = 0;                       ///< set[0, prefix) are all true

  void resize(std::size_t n) {
    names.resize(n);
    set.assign(n, 0);
  }
  void publish(std::size_t i, const name_table& local, std::size_t n) {
    for (std::size_t k = 1; k < n; ++k) names[i].emplace_back(local[static_cast<name_id>(k)]);
    set[i] = 1;
    while (prefix < set.size() && set[prefix]) ++prefix;
  }
  /// Cores [0, i)'s names into `table`, in core order (interning is
  /// idempotent: names already there keep their ids). Needs prefix >= i;
  /// those entries are written once, before prefix passed them.
  void intern_before(std::size_t i, name_table& table) const {
    for (std::size_t c = 0; c < i; ++c)
      for (const auto& n : names[c]) table.intern(n);
  }
};

}  // namespace tpuprof::cdm::detail
