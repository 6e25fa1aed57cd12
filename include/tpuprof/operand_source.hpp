/// operand_source: what a decoder (or a side table) offers to tell the memory
/// an event's command touched. Core vocabulary: decoders provide it, views use it.
#pragma once

#include <concepts>
#include <ranges>

#include <tpuprof/event.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof {

/// Anything that tells the memory ranges an event's command reads and writes:
/// `src.operands(e)` returns a range of regs::mem_operand (empty when
/// unknown). bmprofile_decoder and operand_table satisfy it.
template <class P>
concept operand_source = requires(const P& src, const engine_event& e) {
  { src.operands(e) } -> std::ranges::input_range;
  requires std::convertible_to<std::ranges::range_reference_t<decltype(src.operands(e))>,
                               const regs::mem_operand&>;
};

/// An operand_source that also names the address ranges of its memories
/// (local memory banks, global buffers): `src.memory_regions()`.
template <class P>
concept region_source = operand_source<P> && requires(const P& src) {
  { src.memory_regions() } -> std::ranges::input_range;
  requires std::convertible_to<std::ranges::range_reference_t<decltype(src.memory_regions())>,
                               const regs::memory_region&>;
};

}  // namespace tpuprof
