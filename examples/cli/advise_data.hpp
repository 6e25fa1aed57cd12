// What `tpuprof advise`, the report's Findings section and `convert --advise`
// share: the advisor and the roofline of a decoded trace (advise_data.cpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <tpuprof/algo/advisor.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/roofline.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/report/critical_path_summary.hpp>
#include <tpuprof/report/findings_summary.hpp>
#include <tpuprof/sinks/slice_marks.hpp>
#include <tpuprof/trace.hpp>

#include "cli.hpp"

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

/// Runs the advisor for outputs of `shown` (decoded with `o`, operands and
/// dependencies): on the times of `tpuprof advise` (analysis_options), so that
/// the findings are advise's; on `shown` itself when `o` asks for those times,
/// else on a second decode. Calls `use(analysed trace, result)`.
void with_advice(const common_options& o, const tpuprof::trace& shown, progress& p,
                 const std::function<void(const tpuprof::trace&, const advise_result&)>& use);

using advise_use = std::function<void(const tpuprof::trace&, const advise_result&)>;

/// The analysis sections of report.html (report.cpp).
struct report_sections {
  std::optional<tpuprof::report::critical_path_summary> critical_path;
  std::optional<tpuprof::report::findings_summary> findings;
};

/// The sections for `t` (decoded with `o`, operands and dependencies): the
/// critical path when `t` has dependency data, the findings when `advise`
/// (then one analysis gives both, and `also` gets it too, e.g. for the marks
/// of `convert --advise`).
report_sections report_analysis(const common_options& o, const tpuprof::trace& t, progress& p,
                                bool advise, const advise_use& also = {});

/// report.html with `s`.
void write_report(const std::string& file, const tpuprof::trace& t, const report_sections& s);

/// The report's Findings section (`analysed` and `r` from with_advice).
tpuprof::report::findings_summary report_findings(const tpuprof::trace& analysed,
                                                  const advise_result& r,
                                                  const tpuprof::trace& shown);

/// Adds the findings of `r` to `m` for the Perfetto / Chrome JSON sinks
/// (`convert --advise`): one note per finding over its commands' extent in
/// `shown`, and each command's slice pointing at the best-ranked finding it
/// is evidence of.
void add_advise_marks(const advise_result& r, const tpuprof::trace& shown,
                      tpuprof::sinks::slice_marks& m);

}  // namespace cli
