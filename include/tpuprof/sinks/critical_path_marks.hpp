/// critical_path_marks: the slice_marks of a critical path, for the Perfetto
/// and Chrome JSON sinks: every command on the path flagged, and a flow (an
/// arrow in the Perfetto UI) along each dependency or sync edge of the path.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/sinks/slice_marks.hpp>

namespace tpuprof::sinks {

/// The marks of `cp` (a path of `g`) on `shown`, the events the sinks will
/// write: the graph's own, or those of another decode of the same dump (e.g.
/// vendor times shown, shared-counter times analysed). Flow ids count from 1
/// along the path. Throws std::invalid_argument when `shown` are not the
/// graph's commands in the same order (algo::same_commands).
inline slice_marks critical_path_marks(const algo::dependency_graph& g,
                                       const algo::critical_path_result& cp,
                                       std::span<const engine_event> shown) {
  if (!algo::same_commands(g.events, shown))
    throw std::invalid_argument(
        "critical_path_marks: the events shown are not the analysed commands");
  slice_marks m;
  std::uint64_t flow = 0;
  for (std::size_t i = 0; i < cp.path.size(); ++i) {
    const algo::path_step& st = cp.path[i];
    m.at(shown[st.node]).critical = true;
    if (i == 0 || (st.via != algo::edge_kind::dependency && st.via != algo::edge_kind::sync))
      continue;
    ++flow;
    m.at(shown[cp.path[i - 1].node]).flow_out = flow;
    m.at(shown[st.node]).flow_in = flow;
  }
  return m;
}

}  // namespace tpuprof::sinks
