/// PerfDoc workbook internals: per-sheet totals and a thin RAII wrapper over
/// libxlsxwriter (sinks/xlsx.hpp); the column lists are in perfdoc_columns.hpp.
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
#include <tpuprof/sinks/detail/perfdoc_columns.hpp>

namespace tpuprof::sinks {

namespace detail {

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
