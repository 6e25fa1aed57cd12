/// All analysis views: filters, time windows, idle gaps, bandwidth,
/// utilization, summary, top_n, group_by and memory_map.
#pragma once

#include <tpuprof/views/bandwidth.hpp>
#include <tpuprof/views/diff.hpp>
#include <tpuprof/views/event_range.hpp>
#include <tpuprof/views/filter.hpp>
#include <tpuprof/views/group_by.hpp>
#include <tpuprof/views/idle_gaps.hpp>
#include <tpuprof/views/memory_map.hpp>
#include <tpuprof/views/operand_table.hpp>
#include <tpuprof/views/summary.hpp>
#include <tpuprof/views/time_window.hpp>
#include <tpuprof/views/top_n.hpp>
#include <tpuprof/views/track_order.hpp>
#include <tpuprof/views/utilization.hpp>
