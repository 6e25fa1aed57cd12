/// aksv: traits of AKSV = SG2260E = BM1690E, 4 cores, 10 CDMA ports, no HAU.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <tpuprof/cdm_format.hpp>
#include <tpuprof/chip_ceilings.hpp>
#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/aksv/regs.hpp>
#include <tpuprof/chips/sg2260/family.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/regs/reg_table.hpp>

namespace tpuprof::chips {

/// SG2260E. `arch=6` (model-runtime) or `arch=140814` (0x2260E).
struct aksv : sg2260::family<aksv> {
  static constexpr std::string_view name = "SG2260E";
  static constexpr std::string_view cli_name = "aksv";
  static constexpr std::string_view vendor_name = "AKSV";
  static constexpr dump_family family = dump_family::cdm;
  static constexpr unsigned core_count = 4;
  static constexpr unsigned cdma_port_count = 10;
  static constexpr double tiu_freq_mhz = 1000;
  static constexpr double dma_freq_mhz = 1000;
  /// Roofline ceilings per core (algo/roofline.hpp), from the chip constants of the dump's
  /// text header (format-sg2260.md, "Chip constants"): NPU Num 64, Execution Unit Number(int8)
  /// 64, DDR Max BW 68.264 GB/s per core, L2 Max BW 128 GB/s, 256 KiB LMEM per lane, bank
  /// address width 14 bits (16 KiB banks, 16 banks). No source states the cube's peak ops:
  /// 0 (the roofline leaves attainable ops unknown rather than guess).
  static constexpr chip_ceilings ceilings{64, 64, 0, 0, 0, 68.264e9, 128e9, 1u << 18, 16};
  static constexpr std::array<int, 2> arch_ids{6, 140814};
  /// EngineType: BD 0, GDMA 1, SDMA 2, CDMA 3, VSDMA 4 (HAU removed).
  static constexpr cdm::dyn_engine_ids dyn_engines{0, 1, -1, 2, 3, 4};
  /// RVT command ids wrap at 0x3FFFF: the runtime resets TIU/GDMA counters there.
  static constexpr std::uint32_t rvt_wrap_limit = 0x3FFFF;
  static constexpr unsigned init_cmd_num = 2;

  /// Sync messages (tpu-mlir target_1690e/opparam.py SYS_converter, sDMA_sys_converter): id =
  /// bits 0-7 | bits 32-33 << 8, count bits 8-14, of TIU `imm` and of DMA `constant_value`
  /// (a 32-bit field: its bits 32-33 read 0, as in the vendor's expression).
  static constexpr common::msg_layout messages{{8, 32, 2, 8, 7}, {8, 32, 2, 8, 7}};
  /// Command lengths (format-sg2260.md §2.8).
  static constexpr sg2260::framing framing{false, 384, 0, 384, 0};
  /// Whether the EU tables (memmap EU_NUM / CUBE_NUM) list fp8 types.
  static constexpr bool has_fp8 = false;

  static constexpr bool has_engine(engine e) noexcept {
    return e == engine::tiu || e == engine::gdma || e == engine::sdma || e == engine::cdma ||
           e == engine::kernel_function;
  }

  /// The TIU form of a header; nullptr when there is none.
  static constexpr const regs::reg_table* tiu_table(unsigned type, unsigned eu,
                                                    bool short_form) noexcept {
    namespace V = regs::aksv;
    if (!short_form && type != 8 && type != 12 && type != 15) return nullptr;
    switch (type) {
      case 0:
        return eu == 1 || eu == 4 ? &V::s_conv_bw : &V::s_conv;
      case 1:
        return eu >= 5 ? &V::s_pord_roi : &V::s_pord;
      case 2:
        return eu >= 4 ? &V::s_mm2 : &V::s_mm;
      case 3:
        return eu == 14 ? &V::s_ar_cvt : &V::s_ar;
      case 4:
        return &V::s_rqdq;
      case 5:
        return &V::s_bc_cwt;
      case 6:
        return eu >= 17 ? &V::s_sgl : &V::s_sg;
      case 8:
        return &V::s_rand;
      case 9:
        return &V::s_sfu;
      case 10:
        return &V::s_lin;
      case 12:
        return &V::sys_tr_wr;
      case 13:
        return &V::s_cmp;
      case 14:
        return &V::s_vc;
      case 15:
        return &V::s_sys;
      default:
        return nullptr;
    }
  }

  /// The GDMA/SDMA form of a command type; nullptr when there is none.
  static constexpr const regs::reg_table* dma_table(unsigned type) noexcept {
    namespace V = regs::aksv;
    switch (type) {
      case 0:
        return &V::dma_tensor;
      case 1:
        return &V::dma_matrix;
      case 2:
        return &V::dma_mask_select;
      case 3:
        return &V::dma_general;
      case 5:
        return &V::dma_nonzero;
      case 6:
        return &V::dma_sys;
      case 7:
      case 8:
        return &V::dma_gather_scatter;
      case 9:
        return &V::dma_reverse;
      case 12:
        return &V::dma_lossy_compress;
      default:
        return nullptr;
    }
  }

  /// Calls `fn.template operator()<T>()` with the TIU form `table` points to
  /// (compile-time field offsets per form); `fallback()` for forms without
  /// operands (SYS, SYS_TR_ACC, LAR, RAND).
  template <class Fn, class Fallback>
  static decltype(auto) with_tiu_form(const regs::reg_table* table, Fn&& fn, Fallback&& fallback) {
    namespace V = regs::aksv;
    if (table == &V::s_conv) return fn.template operator()<V::s_conv>();
    if (table == &V::s_conv_bw) return fn.template operator()<V::s_conv_bw>();
    if (table == &V::s_pord) return fn.template operator()<V::s_pord>();
    if (table == &V::s_pord_roi) return fn.template operator()<V::s_pord_roi>();
    if (table == &V::s_mm) return fn.template operator()<V::s_mm>();
    if (table == &V::s_mm2) return fn.template operator()<V::s_mm2>();
    if (table == &V::s_ar) return fn.template operator()<V::s_ar>();
    if (table == &V::s_ar_cvt) return fn.template operator()<V::s_ar_cvt>();
    if (table == &V::s_rqdq) return fn.template operator()<V::s_rqdq>();
    if (table == &V::s_bc_cwt) return fn.template operator()<V::s_bc_cwt>();
    if (table == &V::s_sg) return fn.template operator()<V::s_sg>();
    if (table == &V::s_sgl) return fn.template operator()<V::s_sgl>();
    if (table == &V::s_sfu) return fn.template operator()<V::s_sfu>();
    if (table == &V::s_lin) return fn.template operator()<V::s_lin>();
    if (table == &V::s_cmp) return fn.template operator()<V::s_cmp>();
    if (table == &V::s_vc) return fn.template operator()<V::s_vc>();
    return fallback();
  }

  /// The same for the DMA forms that have a converter.
  template <class Fn, class Fallback>
  static decltype(auto) with_dma_form(const regs::reg_table* table, Fn&& fn, Fallback&& fallback) {
    namespace V = regs::aksv;
    if (table == &V::dma_tensor) return fn.template operator()<V::dma_tensor>();
    if (table == &V::dma_matrix) return fn.template operator()<V::dma_matrix>();
    if (table == &V::dma_mask_select) return fn.template operator()<V::dma_mask_select>();
    if (table == &V::dma_general) return fn.template operator()<V::dma_general>();
    if (table == &V::dma_nonzero) return fn.template operator()<V::dma_nonzero>();
    if (table == &V::dma_gather_scatter) return fn.template operator()<V::dma_gather_scatter>();
    if (table == &V::dma_reverse) return fn.template operator()<V::dma_reverse>();
    return fallback();
  }

  /// The short TIU forms the synthetic generator writes, by class.
  struct short_tiu_forms {
    static constexpr auto& conv = regs::aksv::s_conv;
    static constexpr auto& mm2 = regs::aksv::s_mm2;
    static constexpr auto& ar = regs::aksv::s_ar;
    static constexpr auto& cast = regs::aksv::s_ar_cvt;
    static constexpr auto& pord = regs::aksv::s_pord;
    static constexpr auto& sfu = regs::aksv::s_sfu;
    static constexpr auto& rqdq = regs::aksv::s_rqdq;
    static constexpr auto& cwbc = regs::aksv::s_bc_cwt;
    static constexpr auto& vc = regs::aksv::s_vc;
  };
};

static_assert(chip_traits<aksv>);

}  // namespace tpuprof::chips
