// What `tpuprof advise`, the report's Findings section and `convert --advise`
// share: the advisor and the roofline of a decoded trace (advise_data.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <tpuprof/algo/advisor.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/roofline.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/trace.hpp>

namespace cli {

struct advise_result {
  tpuprof::algo::dependency_graph graph;  ///< over the trace's events (the trace outlives it)
  tpuprof::algo::advice advice;
  std::vector<tpuprof::algo::layer_roofline> layers;
  std::vector<std::string> layer_names;  ///< parallel to layers ("" = none)
};

/// The decoded descriptor of an event (registers.hpp), nullptr when none.
using command_fn = std::function<const tpuprof::regs::instruction*(const tpuprof::engine_event&)>;

/// Findings and roofline of `t` (decoded with dependencies, ideally with
/// operands); `dir` is the input directory (net_stat.sim, when there);
/// `command` (may be empty) gives the TIU commands' alg ops for the roofline.
advise_result run_advisor(const tpuprof::trace& t, const std::string& dir,
                          const command_fn& command = {});

/// A finding as JSON (the schema of docs/cli.md, "advise"); `origin_ns` is
/// subtracted from command times.
std::string finding_json(const tpuprof::trace& t, const advise_result& r,
                         const tpuprof::algo::finding& f, double origin_ns);

}  // namespace cli
