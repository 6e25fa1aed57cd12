/// cdm descriptors: the register-level side of emitted events: uArch rates and,
/// when kept, the decoded instruction of each event with a register image
/// (decoded by the chip's traits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/decode/cdm/state.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::cdm::detail {

/// uArch rate (TIU) and, when kept, the decoded descriptor of an event whose
/// command has a register image in the core file.
template <class Chip>
void attach_descriptor(decode_state& st, const core_data& cd, const command& c, engine_event& ev) {
  if (!st.opt.keep_instructions && (ev.engine != engine::tiu || !st.opt.uarch))
    return;  // nothing to compute
  unsigned bits = 0;
  if (ev.engine == engine::tiu) {
    const auto cls = Chip::tiu_class_of(c.tsk, c.eu, c.is_short);
    bits = cls ? cls->bits : 0;
  } else {
    bits = Chip::dma_bits(c.tsk);
  }
  const std::size_t len = bits / 8;
  if (len == 0 || c.offset >= cd.bytes.size() || len > cd.bytes.size() - c.offset) return;
  const auto d = cd.bytes.bytes().subspan(c.offset, len);
  if (st.opt.keep_instructions) {
    regs::instruction ins;
    const auto status = Chip::decode_descriptor(ev.engine, d, ins);
    if (ev.engine == engine::tiu) {
      ins.op = Chip::tiu_op(c.tsk, c.eu);
      if (st.opt.uarch) {  // the kept instruction has its ops either way
        ev.uarch_rate = ins.uarch_rate();
        if (status != Chip::decode_status::ok) ++st.descriptors_unsupported;
      }
    }
    if (status == Chip::decode_status::ok || status == Chip::decode_status::unsupported) {
      st.ins_index.push_back({static_cast<std::uint8_t>(ev.engine), ev.unit, ev.cmd_id,
                              ev.begin_cycle, static_cast<std::uint32_t>(st.instructions.size())});
      st.instructions.push_back(std::move(ins));
    }
  } else if (ev.engine == engine::tiu) {
    const auto r = Chip::descriptor_ops(d);
    ev.uarch_rate = r.uarch_rate();
    if (r.status != Chip::decode_status::ok) ++st.descriptors_unsupported;
  }
}

}  // namespace tpuprof::cdm::detail
