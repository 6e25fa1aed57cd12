/// sg2260 names: what the vendor tools print for SG2260-family commands: the
/// condensed (mode 0/1) tables of bigTpuProfile, the DMA and CDMA function names
/// and directions (register op names: op_names.hpp, classes: commands.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <tpuprof/cdm_format.hpp>

namespace tpuprof::chips::sg2260 {

using cdm::mem_kind;

/// A (Function Type, Function Name) pair as the vendor tools print it.
struct op_names {
  std::string type;
  std::string name;
};

namespace detail {
struct eu_name {
  std::uint8_t eu;
  std::string_view name;
};
/// Looks up `eu` in a small table; empty when absent.
template <std::size_t N>
constexpr std::string_view find_eu(const std::array<eu_name, N>& t, unsigned eu) noexcept {
  for (const auto& e : t)
    if (e.eu == eu) return e.name;
  return {};
}
}  // namespace detail

/// TIU "Function Type" of the condensed tables, by tsk_typ; empty = not in table.
constexpr std::string_view tiu_type_name(unsigned tsk) noexcept {
  switch (tsk) {
    case 0:
      return "conv";
    case 1:
      return "dw/pool";
    case 2:
      return "mm/mm2";
    case 3:
      return "arith/SEG";
    case 4:
      return "RQ/DQ";
    case 5:
      return "TRANS/BC";
    case 6:
      return "gather/scatter";
    case 7:
      return "linear_arithmetic";
    case 8:
      return "rand_gen";
    case 9:
      return "md/sfu";
    case 10:
      return "md_linear";
    case 12:
      return "WR_IMM";
    case 13:
      return "fused_cmpare";
    case 14:
      return "vector_correlation";
    case 15:
      return "sys";
    case 31:
      return "unknown";
    default:
      return {};
  }
}

namespace detail {
/// Condensed TIU names by tsk_eu_typ, per tsk_typ (bigTpuProfile tables).
inline constexpr std::array<eu_name, 3> conv_names{
    {{0, "conv"}, {1, "conv_normal"}, {2, "conv_tf32"}}};
inline constexpr std::array<eu_name, 8> pool_names{{{0, "depthwise"},
                                                    {1, "avg pooling"},
                                                    {3, "min pooling"},
                                                    {4, "max pooling"},
                                                    {5, "ROI depthwise"},
                                                    {6, "ROI avg pooling"},
                                                    {7, "ROI max pooling"},
                                                    {8, "ROI min pooling"}}};
inline constexpr std::array<eu_name, 7> mm_names{{{0, "MM_NORMAL"},
                                                  {4, "MM2_NN"},
                                                  {5, "MM2_NT"},
                                                  {6, "MM2_TT"},
                                                  {7, "MM_NN_TF32"},
                                                  {8, "MM_NT_TF32"},
                                                  {9, "MM_TT_TF32"}}};
inline constexpr std::array<eu_name, 28> ar_names{{{0, "mul"},
                                                   {1, "not"},
                                                   {2, "add"},
                                                   {3, "sub"},
                                                   {4, "max"},
                                                   {5, "min"},
                                                   {6, "logic_shift"},
                                                   {7, "and"},
                                                   {8, "or"},
                                                   {9, "xor"},
                                                   {10, "select_great"},
                                                   {11, "select_equal"},
                                                   {12, "div"},
                                                   {13, "select_less"},
                                                   {14, "data_convert"},
                                                   {15, "add_satu"},
                                                   {16, "sub_satu"},
                                                   {18, "mac"},
                                                   {19, "copy"},
                                                   {20, "mul_satu"},
                                                   {21, "arith shift"},
                                                   {22, "rotate shift"},
                                                   {23, "mulDHR [N]"},
                                                   {26, "ABS"},
                                                   {27, "FSUBABS"},
                                                   {28, "copy_mb [N]"},
                                                   {29, "get_first_one"},
                                                   {30, "get_first_zero"}}};
inline constexpr std::array<eu_name, 4> rq_names{
    {{0, "RQ_0"}, {1, "RQ_1"}, {3, "DQ_0"}, {4, "DQ_1"}}};
inline constexpr std::array<eu_name, 6> bc_names{{{0, "C_W_transpose"},
                                                  {1, "W_C_transpose"},
                                                  {2, "lane_copy"},
                                                  {3, "lane_broad"},
                                                  {4, "static_broad"},
                                                  {5, "static_distribute"}}};
inline constexpr std::array<eu_name, 17> sg_names{{{0, "PL_gather_d1coor"},
                                                   {1, "PL_gather_d2coor"},
                                                   {2, "PL_gather_rec [N]"},
                                                   {3, "PL_scatter_d1coor"},
                                                   {4, "PL_scatter_d2coor"},
                                                   {5, "PE_S_gather_d1coor"},
                                                   {6, "PE_S_scatter_d1coor"},
                                                   {7, "PE_M_gather_d1coor [N]"},
                                                   {8, "PE_S_mask_select"},
                                                   {9, "PE_S_nonzero"},
                                                   {10, "PE_S_scatter_pp_d1coor [N]"},
                                                   {13, "PE_S_gather_hzd"},
                                                   {14, "PE_S_scatter_hzd"},
                                                   {15, "PE_S_mask_selhzd"},
                                                   {16, "PE_S_nonzero_hzd"},
                                                   {17, "PE_S_gather_line"},
                                                   {18, "PE_S_scatter_line"}}};
inline constexpr std::array<eu_name, 21> lin_names{
    {{0, "linear_mul"},         {1, "linear_not"},           {2, "linear_add"},
     {3, "linear_sub"},         {4, "linear_max"},           {5, "linear_min"},
     {6, "linear_logic_shift"}, {7, "linear_and"},           {8, "linear_or"},
     {9, "linear_xor"},         {10, "linear_select_great"}, {11, "linear_select_equal"},
     {12, "linear_div"},        {13, "linear_select_less"},  {14, "linear_data_convert"},
     {15, "linear_add_satu"},   {16, "linear_sub_satu"},     {17, "linear_clamp"},
     {18, "linear_mac"},        {19, "linear_copy"},         {20, "linear_mul_satu"}}};
inline constexpr std::array<eu_name, 3> rnd_names{
    {{0, "prng "}, {1, "prng with intial seed"}, {2, ":prng with loaded states"}}};
inline constexpr std::array<eu_name, 4> sfu_names{
    {{12, "tailor_4x"}, {13, "tailor"}, {15, "normalize"}, {17, "rsqrt"}}};
inline constexpr std::array<eu_name, 3> mdl_names{{{1, "mac"}, {20, "(a+b)^2"}, {21, "(a-b)^2"}}};
inline constexpr std::array<eu_name, 6> cmp_names{{{22, "CMP_gt and CMP_sel_gt"},
                                                   {23, "CMP_sel_gt"},
                                                   {24, "CMP_sel_eq"},
                                                   {25, "CMP_lt and CMP_sel_lt"},
                                                   {26, "CMP_sel_lt"},
                                                   {27, "CMP_srch_bin"}}};
inline constexpr std::array<eu_name, 16> vc_names{{{0, "vc_mul"},
                                                   {2, "vc_add"},
                                                   {3, "vc_sub"},
                                                   {4, "vc_max"},
                                                   {5, "vc_min"},
                                                   {7, "vc_and"},
                                                   {8, "vc_or"},
                                                   {9, "xor"},
                                                   {10, "select_great"},
                                                   {11, "select_equal"},
                                                   {12, "div"},
                                                   {13, "select_less"},
                                                   {15, "add_satu"},
                                                   {16, "sub_satu"},
                                                   {20, "mul_satu"},
                                                   {23, "mulDHR"}}};
inline constexpr std::array<eu_name, 14> sys_names{{{0, "intr barrier[N]"},
                                                    {1, "spb"},
                                                    {2, "swr"},
                                                    {3, "swr_from_lmem"},
                                                    {4, "swr_collect_from_lmem"},
                                                    {5, "ata barrier[N]"},
                                                    {8, "send_msg"},
                                                    {9, "wait_msg"},
                                                    {10, "sys_fork"},
                                                    {11, "sys_join"},
                                                    {12, "sys_exit"},
                                                    {13, "rand_seed"},
                                                    {30, "nop"},
                                                    {31, "end"}}};
}  // namespace detail

/// TIU "Function Name" of the condensed tables; empty = not in table.
constexpr std::string_view tiu_condensed_name(unsigned tsk, unsigned eu) noexcept {
  switch (tsk) {
    case 0:
      return detail::find_eu(detail::conv_names, eu);
    case 1:
      return detail::find_eu(detail::pool_names, eu);
    case 2:
      return detail::find_eu(detail::mm_names, eu);
    case 3:
      return detail::find_eu(detail::ar_names, eu);
    case 4:
      return detail::find_eu(detail::rq_names, eu);
    case 5:
      return detail::find_eu(detail::bc_names, eu);
    case 6:
      return detail::find_eu(detail::sg_names, eu);
    case 7:
      return detail::find_eu(detail::lin_names, eu);
    case 8:
      return detail::find_eu(detail::rnd_names, eu);
    case 9:
      return detail::find_eu(detail::sfu_names, eu);
    case 10:
      return detail::find_eu(detail::mdl_names, eu);
    case 12:
      return eu == 0 ? std::string_view{"WR_IMM"} : std::string_view{};
    case 13:
      return detail::find_eu(detail::cmp_names, eu);
    case 14:
      return detail::find_eu(detail::vc_names, eu);
    case 15:
      return detail::find_eu(detail::sys_names, eu);
    case 31:
      return eu == 0 ? std::string_view{"unknown"} : std::string_view{};
    default:
      return {};
  }
}

/// bigTpuProfile getTiuFunctionName: table values, else `cmd_type_<tsk>` and `<type>_<eu>`.
inline op_names tiu_condensed_names(unsigned tsk, unsigned eu) {
  op_names n;
  auto t = tiu_type_name(tsk);
  n.type = t.empty() ? "cmd_type_" + std::to_string(tsk) : std::string(t);
  auto nm = tiu_condensed_name(tsk, eu);
  n.name = nm.empty() ? n.type + "_" + std::to_string(eu) : std::string(nm);
  return n;
}

/// DMA type name (entry (type, 0) of getDmaFunctionName); `sys_name` differs:
/// "sys" in bigTpuProfile, "DMA_sys" in tpu-mlir. Empty = not in the table.
constexpr std::string_view dma_type_name(unsigned type,
                                         std::string_view sys_name = "sys") noexcept {
  switch (type) {
    case 0:
      return "DMA_tensor";
    case 1:
      return "DMA_matrix";
    case 2:
      return "DMA_masked_select";
    case 3:
      return "DMA_general";
    case 4:
      return "DMA_cw transpose";
    case 5:
      return "DMA_nonzero";
    case 6:
      return sys_name;
    case 7:
      return "DMA_gather";
    case 8:
      return "DMA_scatter";
    case 9:
      return "DMA_reverse";
    case 10:
      return "DMA_compress";
    case 11:
      return "DMA_decompress";
    case 12:
      return "DMA_lossy_compress";
    case 13:
      return "DMA_lossy_decompress";
    case 14:
      return "DMA_randmask";
    case 15:
      return "DMA_transfer";
    case 31:
      return "unknown";
    default:
      return {};
  }
}

/// getDmaFunctionName(type, sp, direction) of bigTpuProfile (or tpu-mlir with
/// sys_name "DMA_sys"). A type outside the table (the vendor raises KeyError)
/// gives `cmd_type_<type>`.
inline op_names dma_names(unsigned type, unsigned sp, mem_kind src, mem_kind dst,
                          std::string_view sys_name = "sys") {
  op_names n;
  auto t = dma_type_name(type, sys_name);
  if (t.empty()) {
    n.type = "cmd_type_" + std::to_string(type);
    n.name = n.type;
    return n;
  }
  n.type = std::string(t);
  std::string_view nm;
  switch (type * 8 + sp) {
    case 0 * 8 + 1:
      nm = "NC trans";
      break;
    case 0 * 8 + 2:
      nm = "collect";
      break;
    case 0 * 8 + 3:
      nm = "broadcast";
      break;
    case 0 * 8 + 4:
      nm = "distribute";
      break;
    case 0 * 8 + 5:
      nm = "lmem 4 bank copy";
      break;
    case 0 * 8 + 6:
      nm = "lmem 4 bank broadcast";
      break;
    case 1 * 8 + 1:
      nm = "matrix transpose";
      break;
    case 2 * 8 + 1:
      nm = "ncw mode";
      break;
    case 3 * 8 + 1:
      nm = "broadcast";
      break;
    case 4 * 8 + 1:
    case 4 * 8 + 5:
      nm = "DMA_cw transpose";
      break;
    case 6 * 8 + 1:
      nm = "nop";
      break;
    case 6 * 8 + 2:
      nm = "sys_tr_wr";
      break;
    case 6 * 8 + 3:
      nm = "sys_send";
      break;
    case 6 * 8 + 4:
      nm = "sys_wait";
      break;
    case 8 * 8 + 1:
      nm = "DMA_scatter";
      break;
    case 9 * 8 + 1:
      nm = "h reverse";
      break;
    case 9 * 8 + 2:
      nm = "c reverse";
      break;
    case 9 * 8 + 3:
      nm = "n reverse";
      break;
    default:
      nm = n.type;
  }
  n.name = std::string(nm);
  if (type != 31 && sp == 0 && type <= 1) {
    std::string_view suffix;
    if (src == mem_kind::ddr && (dst == mem_kind::ddr || dst == mem_kind::lmem)) suffix = "Ld";
    if (src == mem_kind::lmem && dst == mem_kind::ddr) suffix = "St";
    if (src == mem_kind::lmem && dst == mem_kind::lmem) suffix = "Mv";
    n.name = "tensor" + std::string(suffix);
  }
  return n;
}

/// getCdmaFunctionName(type, sp) of bigTpuProfile.
inline op_names cdma_names(unsigned type, unsigned sp) {
  constexpr std::array<std::string_view, 10> types{
      "send", "read",     "write",      "general", "recevive", "lossy_compress", "lossy_decompress",
      "sys",  "tcp_send", "tcp_receive"};
  constexpr std::array<std::string_view, 7> sys{"end",
                                                "nop",
                                                "sys_tr_wr",
                                                "sys_msg_tx_send",
                                                "sys_msg_tx_wait",
                                                "sys_msg_rx_send",
                                                "sys_msg_rx_wait"};
  op_names n;
  if (type < types.size())
    n.type = std::string(types[type]);
  else if (type == 31)
    n.type = "unknown";
  else
    n.type = "cmd_type_" + std::to_string(type);
  if (type == 7 && sp < sys.size())
    n.name = std::string(sys[sp]);
  else if (sp == 0 && (type < types.size() || type == 31))
    n.name = type == 8 ? std::string("tcp_send ") : n.type;
  else
    n.name = n.type + "_" + std::to_string(sp);
  return n;
}

/// Vendor direction text, e.g. "DDR->LMEM".
inline std::string direction_text(mem_kind src, mem_kind dst) {
  if (src == mem_kind::none || dst == mem_kind::none) return {};
  return std::string(name(src)) + "->" + std::string(name(dst));
}

}  // namespace tpuprof::chips::sg2260
