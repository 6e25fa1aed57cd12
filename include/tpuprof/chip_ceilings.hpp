/// chip_ceilings: the roofline ceilings of one core of a chip (peak ops/s per
/// data type, DDR and L2 bandwidth, local-memory banks), stated by each chip's
/// traits (`static constexpr chip_ceilings ceilings`) with where each number
/// comes from. 0 = not known for this chip (the roofline says `unknown`).
#pragma once

namespace tpuprof {

struct chip_ceilings {
  unsigned lanes = 0;          ///< NPU lanes (NPU_NUM)
  unsigned eu_int8 = 0;        ///< execution units per lane for 8-bit data
  double peak_int8_ops = 0;    ///< ops/s of the cube (conv / matmul), int8
  double peak_fp16_ops = 0;    ///< ops/s, fp16 / bf16
  double peak_fp32_ops = 0;    ///< ops/s, fp32
  double ddr_bytes_per_s = 0;  ///< DDR <-> local memory, per core
  double l2_bytes_per_s = 0;   ///< L2 (shared) <-> local memory
  unsigned lmem_bytes = 0;     ///< local memory per lane
  unsigned lmem_banks = 0;     ///< banks of the local memory
  /// The cube pads a conv's input channels to the lanes as well as its output
  /// channels (the arch ops of the chip's ISA); false: output channels only.
  bool conv_input_lanes = false;
  constexpr unsigned bank_bytes() const noexcept {
    return lmem_banks ? lmem_bytes / lmem_banks : 0;
  }
  constexpr bool known() const noexcept { return peak_int8_ops > 0 || ddr_bytes_per_s > 0; }
};

}  // namespace tpuprof
