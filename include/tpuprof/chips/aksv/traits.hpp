/// aksv: traits of AKSV = SG2260E = BM1690E, 4 cores, 10 CDMA ports, no HAU.
#pragma once

#include <array>
#include <string_view>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/engine.hpp>

namespace tpuprof::chips {

/// SG2260E. `arch=6` (model-runtime) or `arch=140814` (0x2260E).
struct aksv {
  static constexpr std::string_view name = "SG2260E";
  static constexpr std::string_view cli_name = "aksv";
  static constexpr std::string_view vendor_name = "AKSV";
  static constexpr unsigned core_count = 4;
  static constexpr unsigned cdma_port_count = 10;
  static constexpr double tiu_freq_mhz = 1000;
  static constexpr double dma_freq_mhz = 1000;
  static constexpr std::array<int, 2> arch_ids{6, 140814};
  /// EngineType: BD 0, GDMA 1, SDMA 2, CDMA 3, VSDMA 4 (HAU removed).
  static constexpr cdm::dyn_engine_ids dyn_engines{0, 1, -1, 2, 3, 4};
  /// RVT command ids wrap at 0x3FFFF: the runtime resets TIU/GDMA counters there.
  static constexpr std::uint32_t rvt_wrap_limit = 0x3FFFF;
  static constexpr unsigned init_cmd_num = 2;
  static constexpr cdm::cdm_chip_kind kind = cdm::cdm_chip_kind::aksv;

  static constexpr bool has_engine(engine e) noexcept {
    return e == engine::tiu || e == engine::gdma || e == engine::sdma || e == engine::cdma ||
           e == engine::kernel_function;
  }
};

static_assert(chip_traits<aksv>);
static_assert(cdm::cdm_chip<aksv>);

}  // namespace tpuprof::chips
