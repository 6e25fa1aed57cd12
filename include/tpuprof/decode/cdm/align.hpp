/// cdm align stage: puts every list of a decode on one timeline (core anchors,
/// then the shift to zero); both rule sets end with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <tpuprof/decode/cdm/normalize.hpp>
#include <tpuprof/decode/cdm/state.hpp>

namespace tpuprof::cdm::detail {

/// Core alignment on the anchors, then the shift to zero (the minimum over
/// all lists of the first record's start).
inline void align_and_shift(decode_state& st) {
  std::optional<std::int64_t> base;
  for (auto& cd : st.cores)
    if (cd.anchor) {
      base = cd.anchor;
      break;
    }
  auto anchor_of = [&](unsigned core) -> std::int64_t {
    for (auto& cd : st.cores)
      if (cd.core == core && cd.anchor && base) return *cd.anchor - *base;
    return 0;
  };
  for (auto& cd : st.cores)
    for (auto& l : cd.pmu) shift_cycles(l, anchor_of(cd.core));
  for (auto& pd : st.ports)
    if (pd.core) shift_cycles(pd.pmu, anchor_of(*pd.core));

  // Shifts are pending in each list (list::shift): subtract them here.
  std::optional<std::int64_t> first_min, global_min;
  auto scan = [&](const list l) {
    if (l.empty()) return;
    const std::int64_t first = l.front().start() - l.shift;
    first_min = first_min ? std::min(*first_min, first) : first;
    std::int64_t m = std::min(l.front().start(), l.front().end());
    for (std::size_t i = 1; i < l.size(); ++i) {
      const pmu_ref x = l[i];
      m = std::min(m, std::min(x.start(), x.end()));
    }
    m -= l.shift;
    global_min = global_min ? std::min(*global_min, m) : m;
  };
  for (auto& cd : st.cores)
    for (auto& l : cd.pmu) scan(l);
  for (auto& pd : st.ports) scan(pd.pmu);
  if (!first_min) return;
  std::int64_t t0 = *first_min;
  if (*global_min < t0) {
    st.info.diagnostics.add(diag::other, st.info.source, decode_error::no_offset,
                            "a record starts before the first record of every list: shifted by "
                            "the global minimum (the vendor tool aborts here)");
    t0 = *global_min;
  }
  st.tail_cycle = std::numeric_limits<std::int64_t>::min();
  for (auto& cd : st.cores)
    for (auto& l : cd.pmu) {
      shift_cycles(l, t0);
      if (!l.empty()) st.tail_cycle = std::max(st.tail_cycle, l.back().end() - l.shift);
    }
  for (auto& pd : st.ports) {
    shift_cycles(pd.pmu, t0);
    if (!pd.pmu.empty())
      st.tail_cycle = std::max(st.tail_cycle, pd.pmu.back().end() - pd.pmu.shift);
  }
  st.info.properties.emplace_back("pmu_tail_cycle", std::to_string(st.tail_cycle));
}

}  // namespace tpuprof::cdm::detail
