/// html_options: what the HTML report contains.
#pragma once

#include <cstddef>
#include <string>

#include <tpuprof/views/track_layout.hpp>

namespace tpuprof::report {

struct critical_path_summary;  // report/critical_path_summary.hpp
struct findings_summary;       // report/findings_summary.hpp

/// What the HTML report contains.
struct html_options {
  std::string title;                       ///< page title; empty = "<chip> profile: <source>"
  std::size_t top_n = 100;                 ///< rows of the top-N tables (by duration, by bandwidth)
  std::size_t gap_list = 50;               ///< longest idle gaps listed
  double min_gap_ns = default_min_gap_ns;  ///< idle gaps shorter than this are not counted
  std::size_t bandwidth_windows = 2000;    ///< about this many windows in the bandwidth series
  /// Memory operands kept for the LOCAL / GLOBAL MEM charts (about 8 bytes
  /// each in the page); past this many the rest are counted, not drawn.
  std::size_t max_memory_rects = std::size_t{1} << 22;
  std::size_t buffer_bytes = std::size_t{1} << 18;
  /// The critical path and idle causes to show (a section, and an outline on
  /// the timeline); caller-owned, null = none (the page is unchanged).
  const critical_path_summary* critical_path = nullptr;
  /// The advisor's findings to show first (a section at the top, each linked
  /// to its commands on the timeline); caller-owned, null = none.
  const findings_summary* findings = nullptr;
};
}  // namespace tpuprof::report

namespace tpuprof::sinks {
using report::html_options;  ///< the report's options keep their sinks:: name
}  // namespace tpuprof::sinks
