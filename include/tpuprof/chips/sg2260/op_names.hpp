/// sg2260 op names: the op name of each decoded SG2260-family TIU command
/// (tpu-mlir opdef names, e.g. "arith.cast").
#pragma once

#include <string_view>

#include <tpuprof/chips/common/tiu_names.hpp>

namespace tpuprof::chips::sg2260 {

namespace detail {
/// Op names by tsk_eu_typ of AR, LAR, VC, SG/SGL and PorD; empty = none.
inline constexpr std::string_view ar_ops[] = {"arith.mul",
                                              "arith.not",
                                              "arith.add",
                                              "arith.sub",
                                              "arith.max",
                                              "arith.min",
                                              "arith.logic_shift",
                                              "arith.and",
                                              "arith.or",
                                              "arith.xor",
                                              "arith.select_great",
                                              "arith.select_equal",
                                              "arith.div",
                                              "arith.select_less",
                                              "arith.cast",
                                              "arith.add_satu",
                                              "arith.sub_satu",
                                              "",
                                              "arith.mac",
                                              "arith.copy",
                                              "arith.mul_satu",
                                              "arith.arith_shift",
                                              "arith.rotate_shift",
                                              "arith.mulDHR",
                                              "",
                                              "",
                                              "arith.abs",
                                              "arith.fsub_abs",
                                              "arith.copy_mb"};

inline constexpr std::string_view lar_ops[] = {
    "lar.mul",       "lar.not",         "lar.add",   "lar.sub",       "lar.max",
    "lar.min",       "lar.logic_shift", "lar.and",   "lar.or",        "lar.xor",
    "lar.select_gt", "lar.select_eq",   "lar.div",   "lar.select_lt", "lar.data_convert",
    "lar.add_satu",  "lar.sub_satu",    "lar.clamp", "lar.mac"};

inline constexpr std::string_view sg_ops[] = {"sg.pl_gather_d1coor",
                                              "sg.pl_gather_d2coor",
                                              "",
                                              "sg.pl_scatter_d1coor",
                                              "sg.pl_scatter_d2coor",
                                              "sg.pe_s_gather_d1coor",
                                              "sg.pe_s_scatter_d1coor",
                                              "",
                                              "sg.pe_s_mask_select",
                                              "sg.pe_s_nonzero",
                                              "",
                                              "",
                                              "",
                                              "sg.pe_s_gather_hzd",
                                              "sg.pe_s_scatter_hzd",
                                              "sg.pe_s_mask_selhzd",
                                              "sg.pe_s_nonzero_hzd",
                                              "sgl.pe_s_gather_line",
                                              "sgl.pe_s_scatter_line"};

inline constexpr std::string_view pord_ops[] = {
    "pord.depthwise",      "pord.avgpooling",     "",
    "pord.minpooling",     "pord.maxpooling",     "pord.roi_depthwise",
    "pord.roi_avgpooling", "pord.roi_maxpooling", "pord.roi_minpooling"};

}  // namespace detail

/// Op name of a decoded TIU command (opdef names, e.g. "arith.cast").
constexpr std::string_view tiu_op_name(unsigned tsk, unsigned eu) noexcept {
  switch (tsk) {
    case 0:
      return eu == 0   ? "conv.normal"
             : eu == 2 ? "conv.tf32"
             : eu == 1 ? "conv.bw"
             : eu == 4 ? "conv.bw.tf32"
                       : "";
    case 1:
      return eu < 9 ? detail::pord_ops[eu] : "";
    case 2:
      return eu == 1   ? "mm.normal"
             : eu == 4 ? "mm2.nn"
             : eu == 5 ? "mm2.nt"
             : eu == 6 ? "mm2.tt"
             : eu == 7 ? "mm2.tf32"
                       : "";
    case 3:
      return eu < 29 ? detail::ar_ops[eu] : "";
    case 4:
      return eu == 0   ? "quant.rq0"
             : eu == 1 ? "quant.rq1"
             : eu == 3 ? "quant.dq0"
             : eu == 4 ? "quant.dq1"
                       : "";
    case 5: {
      constexpr std::string_view t[] = {"tsbc.cw_ts", "tsbc.wc_ts", "tsbc.l_copy",
                                        "tsbc.l_bc",  "tsbc.s_bc",  "tsbc.s_distribute"};
      return eu < 6 ? t[eu] : "";
    }
    case 6:
      return eu < 19 ? detail::sg_ops[eu] : "";
    case 7:
      return eu < 19 ? detail::lar_ops[eu] : "";
    case 8:
      return eu == 0   ? "rand.prng"
             : eu == 1 ? "rand.prng_with_intial_seed"
             : eu == 2 ? "rand.prng_with_loaded_states"
                       : "";
    case 9:
      return eu == 12   ? "sfu.taylor_4x"
             : eu == 13 ? "sfu.taylor"
             : eu == 15 ? "sfu.normalize"
             : eu == 17 ? "sfu.rsqrt"
                        : "";
    case 10:
      return eu == 1 ? "lin.mac" : eu == 20 ? "lin.square_sum" : eu == 21 ? "lin.square_diff" : "";
    case 12:
      return "system_tr_wr.wr_imm";
    case 13: {
      constexpr std::string_view t[] = {"cmp.gt_and_sel_gt", "cmp.sel_gt", "cmp.sel_eq",
                                        "cmp.lt_and_sel_lt", "cmp.sel_lt", "cmp.srch_bin"};
      return eu >= 22 && eu <= 27 ? t[eu - 22] : "";
    }
    case 14:
      return eu < 24 ? common::vc_op_names[eu] : "";
    case 15:
      switch (eu) {
        case 0:
          return "system.intr_barrier";
        case 1:
          return "system.spb";
        case 2:
          return "system.swr";
        case 3:
          return "system.swr_from_lmm";
        case 4:
          return "system.swr_collect_from_lmm";
        case 5:
          return "system.data_barrier";
        case 8:
          return "system.send_msg";
        case 9:
          return "system.wait_msg";
        case 30:
          return "system.nop";
        case 31:
          return "system.end";
        default:
          return "";
      }
    default:
      return "";
  }
}

}  // namespace tpuprof::chips::sg2260
