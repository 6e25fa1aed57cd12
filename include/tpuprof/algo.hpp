/// All eager algorithms (range-v3's algorithm/ to the lazy views/): summary,
/// group_stats_by, top_n, utilization, bandwidth_series, bandwidth_totals,
/// gap_stats, diff_runs and memory_map. Each returns a plain struct or vector.
#pragma once

#include <tpuprof/algo/bandwidth_series.hpp>
#include <tpuprof/algo/bandwidth_totals.hpp>
#include <tpuprof/algo/diff.hpp>
#include <tpuprof/algo/gap_stats.hpp>
#include <tpuprof/algo/group_stats.hpp>
#include <tpuprof/algo/memory_map.hpp>
#include <tpuprof/algo/summary.hpp>
#include <tpuprof/algo/top_n.hpp>
#include <tpuprof/algo/utilization.hpp>
