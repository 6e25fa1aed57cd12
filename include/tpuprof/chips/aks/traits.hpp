/// aks: traits of AKS = SG2260 = BM1690 ("TPUv7"), 8 cores, 11 CDMA ports.
#pragma once

#include <array>
#include <string_view>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/engine.hpp>

namespace tpuprof::chips {

/// SG2260 / BM1690. `arch=5` (model-runtime, old tpuDNN) or `arch=8800` (0x2260).
struct aks {
  static constexpr std::string_view name = "SG2260";
  static constexpr std::string_view cli_name = "aks";
  /// Vendor-tool name ("Chip Arch" in bigTpuProfile output).
  static constexpr std::string_view vendor_name = "AKS";
  static constexpr unsigned core_count = 8;
  static constexpr unsigned cdma_port_count = 11;
  /// PMU cycle counters run at 1 GHz for TIU and DMA (AKS_defs BD_FREQ/GDMA_FREQ).
  static constexpr double tiu_freq_mhz = 1000;
  static constexpr double dma_freq_mhz = 1000;
  static constexpr std::array<int, 2> arch_ids{5, 8800};
  /// EngineType: BD 0, GDMA 1, HAU 2, SDMA 3, CDMA 4, VSDMA 5.
  static constexpr cdm::dyn_engine_ids dyn_engines{0, 1, 2, 3, 4, 5};
  /// AKS never inserts RVT wrap commands.
  static constexpr std::uint32_t rvt_wrap_limit = 0;
  static constexpr unsigned init_cmd_num = 2;
  static constexpr cdm::cdm_chip_kind kind = cdm::cdm_chip_kind::aks;

  static constexpr bool has_engine(engine e) noexcept {
    return e == engine::tiu || e == engine::gdma || e == engine::sdma || e == engine::cdma ||
           e == engine::kernel_function;
  }
};

static_assert(chip_traits<aks>);
static_assert(cdm::cdm_chip<aks>);

}  // namespace tpuprof::chips
