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
