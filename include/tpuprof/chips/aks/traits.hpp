/// aks: traits of AKS = SG2260 = BM1690 ("TPUv7"), 8 cores, 11 CDMA ports.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <tpuprof/cdm_format.hpp>
#include <tpuprof/chip_ceilings.hpp>
#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/aks/regs.hpp>
#include <tpuprof/chips/sg2260/family.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/regs/reg_table.hpp>

namespace tpuprof::chips {

/// SG2260 / BM1690. `arch=5` (model-runtime, old tpuDNN) or `arch=8800` (0x2260).
struct aks : sg2260::family<aks> {
  static constexpr std::string_view name = "SG2260";
  /// Other names of the same chip, for people (help texts).
  static constexpr std::string_view other_names = "BM1690";
  static constexpr std::string_view cli_name = "aks";
  /// Vendor-tool name ("Chip Arch" in bigTpuProfile output).
  static constexpr std::string_view vendor_name = "AKS";
  static constexpr dump_family family = dump_family::cdm;
  static constexpr unsigned core_count = 8;
  static constexpr unsigned cdma_port_count = 11;
  /// PMU cycle counters run at 1 GHz for TIU and DMA (AKS_defs BD_FREQ/GDMA_FREQ).
  static constexpr double tiu_freq_mhz = 1000;
  static constexpr double dma_freq_mhz = 1000;
  /// Roofline ceilings per core (algo/roofline.hpp), from the chip constants of the dump's
  /// text header (format-sg2260.md, "Chip constants"): NPU Num 64, Execution Unit Number(int8)
  /// 64, DDR Max BW 68.264 GB/s per core, L2 Max BW 128 GB/s, 256 KiB LMEM per lane, bank
  /// address width 14 bits (16 KiB banks, 16 banks). No source states the cube's peak ops:
  /// 0 (the roofline leaves attainable ops unknown rather than guess).
  static constexpr chip_ceilings ceilings{64, 64, 0, 0, 0, 68.264e9, 128e9, 1u << 18, 16};
  static constexpr std::array<int, 2> arch_ids{5, 8800};
  /// EngineType: BD 0, GDMA 1, HAU 2, SDMA 3, CDMA 4, VSDMA 5.
  static constexpr cdm::dyn_engine_ids dyn_engines{0, 1, 2, 3, 4, 5};
  /// AKS never inserts RVT wrap commands.
  static constexpr std::uint32_t rvt_wrap_limit = 0;
  static constexpr unsigned init_cmd_num = 2;

  /// Command lengths (format-sg2260.md §2.8).
  static constexpr sg2260::framing framing{true, 1024, 768, 256, 128};
  /// Whether the EU tables (memmap EU_NUM / CUBE_NUM) list fp8 types.
  static constexpr bool has_fp8 = true;

  static constexpr bool has_engine(engine e) noexcept {
    return e == engine::tiu || e == engine::gdma || e == engine::sdma || e == engine::cdma ||
           e == engine::kernel_function;
  }

  /// The TIU form of a header; nullptr when there is none.
  static constexpr const regs::reg_table* tiu_table(unsigned type, unsigned eu,
                                                    bool short_form) noexcept {
    namespace R = regs::aks;
    switch (type) {
      case 0:
        if (eu == 1 || eu == 4) return short_form ? &R::s_conv_bw : &R::conv_bw;
        return short_form ? &R::s_conv : &R::conv;
      case 1:
        return short_form ? &R::s_pord : &R::pord;
      case 2:
        if (eu >= 4) return short_form ? &R::s_mm2 : &R::mm2;
        return short_form ? &R::s_mm : &R::mm;
      case 3:
        return short_form ? &R::s_ar : &R::ar;
      case 4:
        return short_form ? &R::s_rq_sdq : &R::rq_dq;
      case 5:
        return short_form ? &R::s_cw_sbc : &R::cw_bc;
      case 6:
        if (eu >= 17) return short_form ? &R::s_sgl : &R::sgl;
        return short_form ? &R::s_sg : &R::sg;
      case 7:
        return &R::lar;
      case 8:
        return &R::rand;
      case 9:
        return short_form ? &R::s_sfu : &R::sfu;
      case 10:
        return short_form ? &R::s_lin : &R::lin;
      case 12:
        return &R::sys_tr_acc;
      case 13:
        return short_form ? &R::s_cmp : &R::cmp;
      case 14:
        return short_form ? &R::s_vc : &R::vc;
      case 15:
        return &R::sys;
      default:
        return nullptr;
    }
  }

  /// The GDMA/SDMA form of a command type; nullptr when there is none.
  static constexpr const regs::reg_table* dma_table(unsigned type) noexcept {
    namespace R = regs::aks;
    switch (type) {
      case 0:
        return &R::dma_tensor;
      case 1:
        return &R::dma_matrix;
      case 2:
        return &R::dma_masked_select;
      case 3:
        return &R::dma_general;
      case 4:
        return &R::dma_cw_transpose;
      case 5:
        return &R::dma_nonzero;
      case 6:
        return &R::s_dma_sys;
      case 7:
        return &R::dma_gather;
      case 8:
        return &R::dma_scatter;
      case 9:
        return &R::dma_reverse;
      case 10:
        return &R::dma_compress;
      case 11:
        return &R::dma_decompress;
      case 12:
        return &R::dma_lossy_compress;
      case 13:
        return &R::dma_lossy_decompress;
      case 15:
        return &R::dma_randmask;
      case 16:
        return &R::dma_tansfer;
      default:
        return nullptr;
    }
  }

  /// Calls `fn.template operator()<T>()` with the TIU form `table` points to
  /// (compile-time field offsets per form); `fallback()` for forms without
  /// operands (SYS, SYS_TR_ACC, LAR, RAND).
  template <class Fn, class Fallback>
  static decltype(auto) with_tiu_form(const regs::reg_table* table, Fn&& fn, Fallback&& fallback) {
    namespace R = regs::aks;
    if (table == &R::s_conv) return fn.template operator()<R::s_conv>();
    if (table == &R::conv) return fn.template operator()<R::conv>();
    if (table == &R::s_conv_bw) return fn.template operator()<R::s_conv_bw>();
    if (table == &R::conv_bw) return fn.template operator()<R::conv_bw>();
    if (table == &R::s_pord) return fn.template operator()<R::s_pord>();
    if (table == &R::pord) return fn.template operator()<R::pord>();
    if (table == &R::s_mm) return fn.template operator()<R::s_mm>();
    if (table == &R::mm) return fn.template operator()<R::mm>();
    if (table == &R::s_mm2) return fn.template operator()<R::s_mm2>();
    if (table == &R::mm2) return fn.template operator()<R::mm2>();
    if (table == &R::s_ar) return fn.template operator()<R::s_ar>();
    if (table == &R::ar) return fn.template operator()<R::ar>();
    if (table == &R::s_rq_sdq) return fn.template operator()<R::s_rq_sdq>();
    if (table == &R::rq_dq) return fn.template operator()<R::rq_dq>();
    if (table == &R::s_cw_sbc) return fn.template operator()<R::s_cw_sbc>();
    if (table == &R::cw_bc) return fn.template operator()<R::cw_bc>();
    if (table == &R::s_sg) return fn.template operator()<R::s_sg>();
    if (table == &R::sg) return fn.template operator()<R::sg>();
    if (table == &R::s_sgl) return fn.template operator()<R::s_sgl>();
    if (table == &R::sgl) return fn.template operator()<R::sgl>();
    if (table == &R::s_sfu) return fn.template operator()<R::s_sfu>();
    if (table == &R::sfu) return fn.template operator()<R::sfu>();
    if (table == &R::s_lin) return fn.template operator()<R::s_lin>();
    if (table == &R::lin) return fn.template operator()<R::lin>();
    if (table == &R::s_cmp) return fn.template operator()<R::s_cmp>();
    if (table == &R::cmp) return fn.template operator()<R::cmp>();
    if (table == &R::s_vc) return fn.template operator()<R::s_vc>();
    if (table == &R::vc) return fn.template operator()<R::vc>();
    return fallback();
  }

  /// The same for the DMA forms that have a converter.
  template <class Fn, class Fallback>
  static decltype(auto) with_dma_form(const regs::reg_table* table, Fn&& fn, Fallback&& fallback) {
    namespace R = regs::aks;
    if (table == &R::dma_tensor) return fn.template operator()<R::dma_tensor>();
    if (table == &R::dma_matrix) return fn.template operator()<R::dma_matrix>();
    if (table == &R::dma_masked_select) return fn.template operator()<R::dma_masked_select>();
    if (table == &R::dma_general) return fn.template operator()<R::dma_general>();
    if (table == &R::dma_cw_transpose) return fn.template operator()<R::dma_cw_transpose>();
    if (table == &R::dma_nonzero) return fn.template operator()<R::dma_nonzero>();
    if (table == &R::dma_gather) return fn.template operator()<R::dma_gather>();
    if (table == &R::dma_scatter) return fn.template operator()<R::dma_scatter>();
    if (table == &R::dma_reverse) return fn.template operator()<R::dma_reverse>();
    return fallback();
  }

  /// The short TIU forms the synthetic generator writes, by class.
  struct short_tiu_forms {
    static constexpr auto& conv = regs::aks::s_conv;
    static constexpr auto& mm2 = regs::aks::s_mm2;
    static constexpr auto& ar = regs::aks::s_ar;
    static constexpr auto& cast = regs::aks::s_ar;
    static constexpr auto& pord = regs::aks::s_pord;
    static constexpr auto& sfu = regs::aks::s_sfu;
    static constexpr auto& rqdq = regs::aks::s_rq_sdq;
    static constexpr auto& cwbc = regs::aks::s_cw_sbc;
    static constexpr auto& vc = regs::aks::s_vc;
  };
};

static_assert(chip_traits<aks>);

}  // namespace tpuprof::chips
