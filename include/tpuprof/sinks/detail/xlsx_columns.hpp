/// PerfDoc workbook internals: bigTpuProfile's column lists, per-sheet
/// totals, and a thin RAII wrapper over libxlsxwriter (sinks/xlsx.hpp).
#pragma once

#include <xlsxwriter.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <tpuprof/engine.hpp>
#include <tpuprof/io/atomic_file.hpp>

namespace tpuprof::sinks {

namespace detail {

/// bigTpuProfile's columns of a TIU sheet before the register fields.
inline constexpr std::string_view xlsx_tiu_keys[] = {
    "Engine Id",          "Core Id",       "Global Idx", "Cmd Id",     "Layer Id",    "Layer Name",
    "Function Type",      "Function Name", "Alg Cycle",  "Asic Cycle", "Start Cycle", "End Cycle",
    "Avg Cycle Last 200", "Alg Ops",       "uArch Ops",  "uArch Rate", "Data Type"};
/// The register fields it shows on a TIU sheet (those the first command's form has).
inline constexpr std::string_view xlsx_tiu_regs[] = {"des_cmd_id_dep",
                                                     "des_res0_n",
                                                     "des_res0_c",
                                                     "des_res0_h",
                                                     "des_res0_w",
                                                     "des_res0_n_str",
                                                     "des_res0_c_str",
                                                     "des_res0_h_str",
                                                     "des_res0_w_str",
                                                     "des_opd0_n",
                                                     "des_opd0_c",
                                                     "des_opd0_h",
                                                     "des_opd0_w",
                                                     "des_opd0_n_str",
                                                     "des_opd0_c_str",
                                                     "des_opd0_h_str",
                                                     "des_opd0_w_str",
                                                     "des_opd1_n",
                                                     "des_opd1_c",
                                                     "des_opd1_h",
                                                     "des_opd1_w",
                                                     "des_opd1_n_str",
                                                     "des_opd1_c_str",
                                                     "des_opd1_h_str",
                                                     "des_opd1_w_str",
                                                     "des_opd2_n_str",
                                                     "des_res0_addr",
                                                     "des_res1_addr",
                                                     "des_opd0_addr",
                                                     "des_opd1_addr",
                                                     "des_opd2_addr",
                                                     "des_opd3_addr",
                                                     "des_tsk_typ",
                                                     "des_tsk_eu_typ",
                                                     "des_cmd_short",
                                                     "des_opt_res0_prec",
                                                     "des_opt_opd0_prec",
                                                     "des_opt_opd1_prec",
                                                     "des_opt_opd2_prec",
                                                     "des_short_opd0_str",
                                                     "des_opt_opd0_const",
                                                     "des_opt_opd1_const",
                                                     "des_opt_opd2_const",
                                                     "des_opt_opd3_const",
                                                     "des_opt_opd4_const",
                                                     "des_opt_opd5_const",
                                                     "des_opt_res_add",
                                                     "des_opt_res0_sign",
                                                     "des_opt_opd0_sign",
                                                     "des_opt_opd1_sign",
                                                     "des_opt_opd2_sign",
                                                     "des_opd0_rt_pad",
                                                     "des_opd1_x_ins0",
                                                     "des_opd0_up_pad",
                                                     "des_opd0_lf_pad",
                                                     "des_opt_left_tran",
                                                     "des_pad_mode",
                                                     "des_opd0_y_ins0",
                                                     "des_opd1_y_ins0",
                                                     "des_short_res0_str",
                                                     "des_short_opd1_str",
                                                     "des_sym_range",
                                                     "des_opt_rq",
                                                     "des_op_code",
                                                     "des_opt_kernel_rotate",
                                                     "des_res_op_x_str",
                                                     "des_res_op_y_str",
                                                     "des_opd0_x_ins0",
                                                     "des_tsk_opd_num",
                                                     "des_opd0_dn_pad",
                                                     "des_intr_en",
                                                     "des_opt_relu",
                                                     "des_pwr_step"};
/// The columns of a GDMA/SDMA/CDMA sheet before the register fields.
inline constexpr std::string_view xlsx_dma_keys[] = {"Engine Id",
                                                     "Core Id",
                                                     "Global Idx",
                                                     "Cmd Id",
                                                     "Layer Id",
                                                     "Layer Name",
                                                     "Function Type",
                                                     "Function Name",
                                                     "DMA data size(B)",
                                                     "Start Cycle",
                                                     "End Cycle",
                                                     "Asic Cycle",
                                                     "Stall Cycle",
                                                     "DDR Bandwidth(GB/s)",
                                                     "L2M Bandwidth(GB/s)",
                                                     "Direction",
                                                     "Data Type"};
inline constexpr std::string_view xlsx_dma_regs[] = {"cmd_id_dep",         "cmd_special_function",
                                                     "src_start_addr",     "dst_start_addr",
                                                     "src_nsize",          "src_csize",
                                                     "src_hsize",          "src_wsize",
                                                     "dst_nsize",          "dst_csize",
                                                     "dst_hsize",          "dst_wsize",
                                                     "src_nstride",        "src_cstride",
                                                     "src_hstride",        "src_wstride",
                                                     "dst_nstride",        "dst_cstride",
                                                     "dst_hstride",        "dst_wstride",
                                                     "nchw_copy",          "stride_enable",
                                                     "src_data_format",    "cmd_type",
                                                     "index_csize",        "index_hsize",
                                                     "index_cstride",      "index_hstride",
                                                     "mask_start_addr_h8", "mask_start_addr_l32",
                                                     "mask_data_format",   "localmem_mask_h32",
                                                     "localmem_mask_l32",  "fill_constant_en",
                                                     "constant_value",     "index",
                                                     "cmd_short",          "intr_en"};

/// Totals of one sheet (one engine queue), from a first pass over its events.
struct xlsx_queue {
  engine eng = engine::tiu;
  std::uint8_t unit = 0;
  std::string name;  ///< sheet name
  std::uint64_t count = 0, cycles = 0, alg_ops = 0, arch_ops = 0;
  std::uint64_t ddr_bytes = 0, ddr_cycles = 0, l2_bytes = 0, l2_cycles = 0;
  bool layers = false;                 ///< some event has a layer id
  std::vector<std::string_view> regs;  ///< register columns shown
  struct func {
    std::uint64_t n = 0, alg_ops = 0, arch_ops = 0, cycles = 0;
  };
  std::vector<std::pair<std::string_view, func>>
      funcs;  ///< TIU: by function type, first seen first
};

/// "12.34%" as the vendor's get_ratio_str_2f_zero; "0.00%" for a zero denominator.
inline std::string xlsx_ratio(double a, double b) {
  return b > 0 ? fmt::format("{:.2f}%", 100.0 * a / b) : std::string("0.00%");
}

/// Thin RAII over one libxlsxwriter workbook in constant-memory mode.
class xlsx_book {
 public:
  explicit xlsx_book(const std::filesystem::path& file) : file_(file.string()) {
    lxw_workbook_options o{};
    o.constant_memory = LXW_TRUE;
    wb_ = workbook_new_opt(file_.c_str(), &o);
    if (!wb_) throw io::output_error(file_ + ": cannot create the workbook");
    bold_ = workbook_add_format(wb_);
    format_set_bold(bold_);
  }
  xlsx_book(const xlsx_book&) = delete;
  xlsx_book& operator=(const xlsx_book&) = delete;
  ~xlsx_book() {
    if (wb_) workbook_close(wb_);  // an exception unwinds: the staged file is discarded
  }
  lxw_worksheet* sheet(const std::string& name) {
    lxw_worksheet* ws = workbook_add_worksheet(wb_, name.c_str());
    if (!ws) throw io::output_error(file_ + ": cannot add sheet " + name);
    return ws;
  }
  void close() {
    const lxw_error err = workbook_close(wb_);
    wb_ = nullptr;
    if (err != LXW_NO_ERROR) throw io::output_error(file_ + ": " + lxw_strerror(err));
  }
  lxw_format* bold() const noexcept { return bold_; }

 private:
  std::string file_;
  lxw_workbook* wb_ = nullptr;
  lxw_format* bold_ = nullptr;
};

/// Cell writers (rows and columns are 0-based as in the vendor's code).
struct xlsx_cells {
  lxw_worksheet* ws;
  lxw_format* fmt = nullptr;
  void text(std::uint32_t r, std::uint16_t c, std::string_view s) const {
    if (!s.empty()) worksheet_write_string(ws, r, c, std::string(s).c_str(), fmt);
  }
  void num(std::uint32_t r, std::uint16_t c, double v) const {
    worksheet_write_number(ws, r, c, v, fmt);
  }
  template <class R>
  void texts(std::uint32_t r, std::uint16_t c, const R& names) const {
    for (const auto& n : names) text(r, c++, n);
  }
};

}  // namespace detail

}  // namespace tpuprof::sinks
