/// cdm_format: constants of the SG2260-family ("cdm") raw profile format shared by
/// AKS (SG2260/BM1690) and AKSV (SG2260E): block types, record sizes, DYN_DATA
/// record types, memory and data-type codes (docs/chips/aks.md, format-sg2260.md §1-2).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <tpuprof/cdm_format.hpp>

namespace tpuprof::cdm {

/// TLV block type of a `*.profile` binary file (u32 type, u32 length, bytes).
enum class block_type : std::uint32_t {
  summary = 1,
  compiler_log = 2,
  monitor_bd = 3,    ///< TIU PMU records, 16 B each
  monitor_gdma = 4,  ///< GDMA PMU records, 64 B each
  dyn_data = 5,      ///< firmware command stream (u32 words)
  dyn_extra = 6,     ///< mode 2: raw command bytes per node
  firmware_log = 7,
  command = 8,
  bmlib = 9,
  bmlib_extra = 10,
  monitor_sdma = 11,    ///< SDMA PMU records, 64 B each
  monitor_cdma = 12,    ///< CDMA PMU records, 128 B each
  block_des_bdc = 13,   ///< bmodel path: TIU command buffer
  block_des_gdma = 14,  ///< bmodel path: GDMA command buffer
  block_des_sdma = 15,  ///< bmodel path: SDMA command buffer (GDMA encoding)
  block_des_cdma = 16,
  block_des_kv = 17,  ///< operator path: one cached descriptor buffer
};

/// True for the 17 values the writers define; anything else is corrupt input.
constexpr bool is_known_block_type(std::uint32_t t) noexcept {
  return t >= 1 && t <= 17;
}

inline constexpr std::size_t tiu_record_size = 16;
inline constexpr std::size_t dma_record_size = 64;  ///< GDMA and SDMA
inline constexpr std::size_t cdma_record_size = 128;
inline constexpr std::size_t block_header_size = 8;

/// DYN_DATA word type (bits 6..0 of each u32 item, "generation C").
enum class dyn_type : std::uint8_t {
  func = 0,
  node_set = 1,
  node_wait = 2,
  cdma = 3,
  gde = 4,
  sort = 5,
  nms = 6,
  vsdma = 7,
  des_tiu = 8,
  des_gdma = 9,
  des_sdma = 10,
  des_cdma = 11,
  id_reset = 12,
  rvt_node_set = 13,
  batch_idx = 14,
  func_end = 15,
  custom = 100,
  unknown = 127,
};

/// Fields of one DYN_DATA word: type 7 b | engine 3 b | tsk 5 b | eu 5 b | extra 12 b.
struct dyn_word {
  std::uint32_t raw = 0;
  constexpr std::uint8_t type() const noexcept { return raw & 0x7F; }
  constexpr std::uint8_t engine() const noexcept { return (raw >> 7) & 0x7; }
  constexpr std::uint8_t tsk() const noexcept { return (raw >> 10) & 0x1F; }
  constexpr std::uint8_t eu() const noexcept { return (raw >> 15) & 0x1F; }
  constexpr std::uint16_t extra() const noexcept { return static_cast<std::uint16_t>(raw >> 20); }
  /// Everything above the type field (FUNC length, DES offset, BATCH_IDX value).
  constexpr std::uint32_t packed() const noexcept { return raw >> 7; }

  static constexpr dyn_word make(std::uint32_t type, std::uint32_t engine, std::uint32_t tsk,
                                 std::uint32_t eu, std::uint32_t extra) noexcept {
    return {(type & 0x7F) | (engine & 7) << 7 | (tsk & 0x1F) << 10 | (eu & 0x1F) << 15 |
            (extra & 0xFFF) << 20};
  }
};

/// Data-type codes (DATATYPE of the vendor tools); 10..15 are not defined.
inline constexpr std::array<std::string_view, 10> dtype_names{
    "INT8", "FP16", "FP32", "INT16", "INT32", "BFP16", "INT4", "FP8", "FP20", "TF32"};

/// System-command type codes (TIU tsk_typ / DMA cmd_type / CDMA cmd_type).
inline constexpr std::uint8_t tiu_sys_code = 15;
inline constexpr std::uint8_t dma_sys_code = 6;
inline constexpr std::uint8_t cdma_sys_code = 7;

}  // namespace tpuprof::cdm
