/// All lazy views (filters, time windows, idle gaps, bandwidth samples), the
/// track layout and the decoder ordering contract; and, for convenience, the
/// eager algorithms (algo.hpp).
#pragma once

#include <tpuprof/algo.hpp>
#include <tpuprof/views/bandwidth.hpp>
#include <tpuprof/views/event_range.hpp>
#include <tpuprof/views/filter.hpp>
#include <tpuprof/views/idle_gaps.hpp>
#include <tpuprof/views/operand_table.hpp>
#include <tpuprof/views/time_window.hpp>
#include <tpuprof/views/track_layout.hpp>
#include <tpuprof/views/track_order.hpp>

namespace tpuprof::views {
// The algorithms under their names before issue #13, for code not moved to
// algo:: yet (the CLI). TEMPORARY: the lead removes these with the CLI's move.
using algo::bandwidth_series;
using algo::memory_map;
using algo::summary;
using algo::top_n;
using algo::utilization;
inline constexpr const auto& group_by = algo::group_stats_by;
}  // namespace tpuprof::views
