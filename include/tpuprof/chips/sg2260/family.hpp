/// sg2260 family: what the SG2260-family chips (AKS, AKSV) share, as a base of
/// their traits. Generic code (the cdm decoder, the generator) calls these
/// static members on a chip's traits; each chip supplies what differs: its
/// `framing` (command lengths), `has_fp8`, and its register forms
/// (`tiu_table`, `dma_table`, `with_tiu_form`, `with_dma_form`).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include <tpuprof/cdm_format.hpp>
#include <tpuprof/chips/common/sync_messages.hpp>
#include <tpuprof/chips/sg2260/commands.hpp>
#include <tpuprof/chips/sg2260/isa.hpp>
#include <tpuprof/chips/sg2260/names.hpp>
#include <tpuprof/chips/sg2260/op_names.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::chips::sg2260 {

/// Base of an SG2260-family chip's traits (`struct aks : sg2260::family<aks>`).
template <class Chip>
struct family {
  using op_names = sg2260::op_names;
  using decode_status = regs::sg2260::decode_status;

  /// Register class of a TIU command (name and length); nullopt when none.
  static constexpr std::optional<tiu_class> tiu_class_of(unsigned tsk, unsigned eu,
                                                         bool is_short) noexcept {
    return find_tiu_class(tsk, eu, is_short, Chip::framing);
  }
  /// Length in bits of a DMA (GDMA/SDMA) command of `type`; 0 = no register class.
  static constexpr unsigned dma_bits(unsigned type) noexcept {
    return dma_command_bits(type, Chip::framing);
  }
  /// Length in bits of a CDMA command of `type`; 0 = no register class.
  static constexpr unsigned cdma_bits(unsigned type) noexcept {
    return cdma_command_bits(type, Chip::framing);
  }

  /// Op name of a decoded TIU command (opdef names, e.g. "arith.cast").
  static constexpr std::string_view tiu_op(unsigned tsk, unsigned eu) noexcept {
    return tiu_op_name(tsk, eu);
  }
  /// Condensed (mode 0/1) TIU names of bigTpuProfile.
  static op_names tiu_names(unsigned tsk, unsigned eu) { return tiu_condensed_names(tsk, eu); }
  /// DMA names; `sys_name` is "sys" (bigTpuProfile) or "DMA_sys" (tpu-mlir).
  static op_names dma_op_names(unsigned type, unsigned sp, cdm::mem_kind src, cdm::mem_kind dst,
                               std::string_view sys_name = "sys") {
    return dma_names(type, sp, src, dst, sys_name);
  }
  static op_names cdma_op_names(unsigned type, unsigned sp) { return cdma_names(type, sp); }

  /// Dependencies (instruction::dep_id): ids are 20 bits wide; TIU waits for
  /// GDMA commands, GDMA and SDMA for TIU commands.
  static constexpr unsigned dep_id_bits = 20;
  static constexpr engine dep_engine(engine e) noexcept {
    return e == engine::tiu ? engine::gdma : engine::tiu;
  }
  /// Sync messages, AKS (tpu-mlir target_1690/opparam.py and bigTpuProfile's opparam.py,
  /// SYS_converter / sDMA_sys_converter): TIU `imm` bits 0-8 id, 16-22 count; DMA
  /// `constant_value` bits 0-8 id, 9-15 count. AKSV overrides it.
  static constexpr common::msg_layout messages{{9, 0, 0, 16, 7}, {9, 0, 0, 9, 7}};
  /// Decodes the descriptor at the start of `data` (TIU, GDMA or SDMA) into `out`.
  static decode_status decode_descriptor(engine eng, std::span<const std::byte> data,
                                         regs::instruction& out) {
    return regs::sg2260::decode<Chip>(eng, data, out);
  }
  /// Alg and arch ops of the TIU descriptor at the start of `data`.
  static regs::sg2260::ops_result descriptor_ops(std::span<const std::byte> data) {
    return regs::sg2260::tiu_ops<Chip>(data);
  }
};

}  // namespace tpuprof::chips::sg2260
