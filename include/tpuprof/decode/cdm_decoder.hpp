/// cdm_decoder: decodes an SG2260-family dump (AKS, AKSV) into engine_events:
/// the operator path (DYN_DATA, modes 0/1/2, bigTpuProfile rules) and the
/// bmodel path (BLOCK_DES_*, tpu-mlir PerfAI rules). docs/chips/aks.md lists
/// every deliberate difference from the vendor tools. The stages live in
/// decode/cdm/: read, operator_path or bmodel_path, align, emit. A cdm_decoder is a
/// decoded_trace (static_assert in tests/decode/cdm_corrupt_test.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include <tpuprof/command_dep.hpp>
#include <tpuprof/decode/cdm/bmodel_path.hpp>
#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/decode/cdm/emit.hpp>
#include <tpuprof/decode/cdm/operator_path.hpp>
#include <tpuprof/decode/cdm/options.hpp>
#include <tpuprof/decode/cdm/read.hpp>
#include <tpuprof/decode/cdm/state.hpp>
#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::cdm {

/// Decoder of one SG2260-family dump for chip `Chip` (a cdm_chip traits type).
/// Everything is decoded in the constructor; the object then owns the events
/// (64 B each, grouped by track in track_less order, time order within a track).
/// Per event: op = vendor "Function Name", op_type = "Function Type", function
/// = kernel function, group = func_scope_id (kernel-function instance; 0 with
/// function 0 when none), dir = vendor Direction, bytes = PMU byte counter. Throws decode_error for
/// input that cannot be decoded; data problems that lose nothing essential go to
/// info().diagnostics.
template <cdm_chip Chip>
class cdm_decoder {
 public:
  explicit cdm_decoder(const io::dump_files& files, cdm_options opt = {}) {
    st_.opt = opt;
    decode(files);
  }

  const trace_info& info() const noexcept { return st_.info; }
  /// Hardware events (TIU, GDMA, SDMA per core; CDMA per port).
  const std::vector<engine_event>& events() const noexcept { return st_.events; }
  /// Kernel-function spans (engine::kernel_function, unit = core or CDMA port).
  const std::vector<engine_event>& spans() const noexcept { return st_.spans; }
  /// Moves info, events and spans out (no copy: a 3 M-event dump would need
  /// another 200 MB); the decoder keeps only its command tables after this.
  materialized_trace take() && {
    materialized_trace m;
    m.meta = std::move(st_.info);
    m.hw = std::move(st_.events);
    m.derived = std::move(st_.spans);
    return m;
  }
  /// True when the bmodel rule set was used.
  bool bmodel_path() const noexcept { return st_.bmodel; }
  /// PMU cycle of the last record (before system-command removal), on the common timeline.
  std::int64_t pmu_tail_cycle() const noexcept { return st_.tail_cycle; }

  /// The decoded descriptor of a TIU, GDMA or SDMA event from events(); nullptr
  /// when the event has no register-level command (condensed nodes, unmatched
  /// records, CDMA) or cdm_options::keep_instructions was off.
  const regs::instruction* command(const engine_event& e) const {
    const detail::ins_key k{static_cast<std::uint8_t>(e.engine), e.unit, e.cmd_id, e.begin_cycle,
                            0};
    const auto& index = st_.ins_index;
    auto it = std::lower_bound(index.begin(), index.end(), k, detail::ins_less);
    if (it == index.end() || detail::ins_less(k, *it)) return nullptr;
    return &st_.instructions[it->index];
  }
  /// Memory ranges an event's command reads and writes (empty when unknown).
  std::span<const regs::mem_operand> operands(const engine_event& e) const {
    const auto* c = command(e);
    return c ? std::span<const regs::mem_operand>(c->memory) : std::span<const regs::mem_operand>{};
  }

  /// What an event's command waits for (its descriptor's cmd_id_dep, read by
  /// the chip); known = false without a kept descriptor (modes 0/1, CDMA, or
  /// cdm_options::keep_instructions off): "no dependency data".
  command_dep dependency(const engine_event& e) const {
    command_dep d;
    const auto* c = command(e);
    if (!c) return d;
    d.known = true;
    d.self_id = e.cmd_id;  // the descriptors carry no own id: the 1-based command number
    d.wait_id = c->dep_id;
    d.on = Chip::dep_engine(e.engine);
    d.id_bits = static_cast<std::uint8_t>(Chip::dep_id_bits);
    d.role = c->sync;  // send / wait: the chip's message layout (chips/)
    d.msg_id = c->msg_id;
    return d;
  }

 private:
  void decode(const io::dump_files& files) {
    detail::read_dump<Chip>(files, st_);
    bool has_des = false, has_dyn = false;
    for (auto& cd : st_.cores) {
      has_des = has_des || cd.has_des_blocks;
      has_dyn = has_dyn || cd.has_dyn;
    }
    const auto path = st_.opt.path;
    st_.bmodel = path == capture_path::bmodel ||
                 (path == capture_path::automatic && (st_.global.bmodel || (has_des && !has_dyn)));
    if (st_.bmodel)
      detail::run_bmodel<Chip>(st_);
    else
      detail::run_operator<Chip>(st_);
    detail::emit<Chip>(st_);
  }

  detail::decode_state st_;
};

}  // namespace tpuprof::cdm
