/// The PerfDoc workbook bigTpuProfile writes (`PerfDoc/<OUT>.xlsx`): an
/// "Engine Summary" sheet, then `TIU_<core>`, `GDMA_<core>`, `SDMA_<core>`
/// and `CDMA_<port>` sheets with its columns, the register fields included
/// (docs/sinks.md, "PerfDoc workbook"). Rows are streamed through
/// libxlsxwriter's constant-memory mode: memory does not grow with the rows.
/// Needs <xlsxwriter.h> and libxlsxwriter (Debian: libxlsxwriter-dev);
/// outside the umbrella header.
#pragma once

#include <xlsxwriter.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/sinks/detail/xlsx_columns.hpp>
#include <tpuprof/sinks/reginfo.hpp>
#include <tpuprof/sinks/register_fields.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof::sinks {

/// What the workbook reads besides the events.
struct xlsx_options {
  command_lookup command;   ///< decoded descriptors (register fields); may be empty
  std::uint8_t device = 0;  ///< the device whose queues become sheets
};

namespace detail {

/// The sheets of device `o.device` in bigTpuProfile's order (per core: TIU,
/// GDMA, SDMA; then the CDMA ports), with their totals (one pass).
template <decoded_trace T>
std::vector<xlsx_queue> xlsx_collect(const T& t, const xlsx_options& o) {
  const trace_info& info = t.info();
  std::map<std::pair<int, int>, xlsx_queue> by;  // (rank, unit)
  auto rank = [](engine e) {
    return e == engine::tiu ? 0 : e == engine::gdma ? 1 : e == engine::sdma ? 2 : 3;
  };
  for (const engine_event& e : t.events()) {
    if (e.device != o.device || !is_hardware(e.engine)) continue;
    const bool cdma = e.engine == engine::cdma;
    auto& q = by[{cdma ? 1 << 16 : e.unit * 4 + rank(e.engine), e.unit}];
    if (q.count == 0) {
      q.eng = e.engine;
      q.unit = e.unit;
      q.name = fmt::format("{}_{}",
                           e.engine == engine::tiu    ? "TIU"
                           : e.engine == engine::gdma ? "GDMA"
                           : cdma                     ? "CDMA"
                                                      : "SDMA",
                           e.unit);
    }
    const regs::instruction* ins = o.command ? o.command(e) : nullptr;
    if (q.regs.empty() && ins && ins->table && !ins->raw.empty()) {
      auto pick = [&](const auto& list) {
        for (std::string_view n : list)
          if (register_field(*ins, n)) q.regs.push_back(n);
      };
      if (e.engine == engine::tiu)
        pick(xlsx_tiu_regs);
      else
        pick(xlsx_dma_regs);
    }
    ++q.count;
    const std::uint64_t cyc = e.cycles() + 1;
    q.cycles += cyc;
    q.layers = q.layers || e.layer_id >= 0;
    if (e.engine == engine::tiu) {
      const std::uint64_t alg = ins && ins->alg_ops ? *ins->alg_ops : 0;
      const std::uint64_t arch = ins && ins->arch_ops ? *ins->arch_ops : 0;
      q.alg_ops += alg;
      q.arch_ops += arch;
      const std::string_view type = e.op_type ? info.names[e.op_type] : std::string_view{};
      auto f =
          std::find_if(q.funcs.begin(), q.funcs.end(), [&](auto& p) { return p.first == type; });
      if (f == q.funcs.end()) f = q.funcs.insert(q.funcs.end(), {type, {}});
      f->second.n += 1;
      f->second.alg_ops += alg;
      f->second.arch_ops += arch;
      f->second.cycles += cyc;
    } else if (e.has_bytes()) {
      const std::string_view d = direction_text(e.dir());
      if (d.find("DDR") != std::string_view::npos) {
        q.ddr_bytes += e.bytes;
        q.ddr_cycles += cyc;
      } else if (d.find("L2M") != std::string_view::npos) {
        q.l2_bytes += e.bytes;
        q.l2_cycles += cyc;
      }
    }
  }
  std::vector<xlsx_queue> out;
  for (auto& [k, q] : by) out.push_back(std::move(q));
  return out;
}

/// GB/s from bytes and cycles of a clock in MHz (bytes per ns).
inline double xlsx_gbps(std::uint64_t bytes, std::uint64_t cycles, double mhz) {
  return cycles ? std::round(static_cast<double>(bytes) / (cycles * 1000.0 / mhz) * 100) / 100 : 0;
}

/// The "Engine Summary" sheet: one row per core and an Overall row.
inline void xlsx_summary(xlsx_book& book, const trace_info& info,
                         const std::vector<xlsx_queue>& qs) {
  static constexpr std::string_view cols[] = {
      "CoreId",           "TiuWorkingRatio", "Parallelism",    "Concurrency",
      "totalTime(us)",    "totalTiuCycle",   "totalAlgCycle",  "totalAlgOps",
      "totalUArchOps",    "uArchURate",      "totalGdmaCycle", "totalDdrDataSize",
      "totalL2DataSize",  "ddrAvgBandwidth", "l2AvgBandwidth", "totalSdmaCycle",
      "totalDdrDataSize", "ddrAvgBandwidth", "totalcdmaCycle", "totalDdrDataSize",
      "totalL2DataSize",  "ddrAvgBandwidth", "l2AvgBandwidth"};
  const double tiu_mhz = engine_clock_mhz(&info, true), dma_mhz = engine_clock_mhz(&info, false);
  const double total_ns = info.end_ns - info.begin_ns;
  unsigned cores = 0;
  for (const auto& q : qs)
    if (q.eng != engine::cdma) cores = std::max(cores, q.unit + 1u);
  auto find = [&](engine e, unsigned u) -> xlsx_queue {
    for (const auto& q : qs)
      if (q.eng == e && q.unit == u) return q;
    return {};
  };
  lxw_worksheet* ws = book.sheet("Engine Summary");
  const xlsx_cells c{ws, nullptr}, b{ws, book.bold()};
  b.text(0, 0, "Platform: " + info.chip);
  b.text(3, 7, "TIU");
  b.text(3, 13, "GDMA");
  b.text(3, 18, "SDMA");
  b.text(3, 23, "CDMA");
  b.texts(4, 0, cols);
  xlsx_queue all_t, all_g, all_s, all_c;
  auto row = [&](std::uint32_t r, const xlsx_queue& tq, const xlsx_queue& g, const xlsx_queue& s,
                 const xlsx_queue& cd) {
    const double tiu_ns = tq.cycles * 1000.0 / tiu_mhz, gdma_ns = g.cycles * 1000.0 / dma_mhz;
    const double sdma_ns = s.cycles * 1000.0 / dma_mhz;
    c.text(r, 1, xlsx_ratio(tiu_ns, total_ns));
    c.text(r, 2, xlsx_ratio(tiu_ns + gdma_ns + (cores > 1 ? sdma_ns : 0), total_ns));
    c.text(r, 3,
           tiu_ns > 0 && gdma_ns > 0
               ? xlsx_ratio(tiu_ns + gdma_ns - total_ns, std::min(tiu_ns, gdma_ns))
               : std::string("0.00%"));
    c.num(r, 4, total_ns / 1000);
    const double v[] = {double(tq.cycles), 0, double(tq.alg_ops), double(tq.arch_ops)};
    for (int k = 0; k < 4; ++k) c.num(r, static_cast<std::uint16_t>(5 + k), v[k]);
    c.text(r, 9, xlsx_ratio(double(tq.alg_ops), double(tq.arch_ops)));
    const double w[] = {double(g.cycles),
                        double(g.ddr_bytes),
                        double(g.l2_bytes),
                        xlsx_gbps(g.ddr_bytes, g.ddr_cycles, dma_mhz),
                        xlsx_gbps(g.l2_bytes, g.l2_cycles, dma_mhz),
                        double(s.cycles),
                        double(s.ddr_bytes),
                        xlsx_gbps(s.ddr_bytes, s.ddr_cycles, dma_mhz),
                        double(cd.cycles),
                        double(cd.ddr_bytes),
                        double(cd.l2_bytes),
                        xlsx_gbps(cd.ddr_bytes, cd.ddr_cycles, dma_mhz),
                        xlsx_gbps(cd.l2_bytes, cd.l2_cycles, dma_mhz)};
    for (int k = 0; k < 13; ++k) c.num(r, static_cast<std::uint16_t>(10 + k), w[k]);
  };
  auto add = [](xlsx_queue& a, const xlsx_queue& q) {  // Overall: max cycles, summed bytes and ops
    a.cycles = std::max(a.cycles, q.cycles);
    a.alg_ops += q.alg_ops;
    a.arch_ops += q.arch_ops;
    a.ddr_bytes += q.ddr_bytes;
    a.ddr_cycles += q.ddr_cycles;
    a.l2_bytes += q.l2_bytes;
    a.l2_cycles += q.l2_cycles;
  };
  for (unsigned u = 0; u < cores; ++u) {
    const auto tq = find(engine::tiu, u), g = find(engine::gdma, u), s = find(engine::sdma, u),
               cd = find(engine::cdma, u);
    c.num(5 + u, 0, u);
    row(5 + u, tq, g, s, cd);
    add(all_t, tq);
    add(all_g, g);
    add(all_s, s);
  }
  for (const auto& q : qs)
    if (q.eng == engine::cdma) add(all_c, q);
  c.text(5 + cores, 0, "Overall");
  row(5 + cores, all_t, all_g, all_s, all_c);
  worksheet_set_tab_color(ws, 0xFFC7CE);
}

/// The register cells of one row from column `col` on: hex text for address and mask fields.
inline void xlsx_regs(const xlsx_cells& c, std::uint32_t r, std::uint16_t col,
                      register_columns& cols, const regs::instruction* ins) {
  if (!ins) return;
  cols.for_each(*ins, [&](std::size_t k, std::uint64_t v) {
    const auto at = static_cast<std::uint16_t>(col + k);
    if (hex_register_column(cols.names()[k]))
      c.text(r, at, hex_text(v));
    else
      c.num(r, at, static_cast<double>(v));
  });
}

/// Row 0-1 "Performance / Summary" and the "Detail Spec" block, row 5 on the
/// statistics per function type; returns the row of the column headers.
inline std::uint32_t xlsx_tiu_head(xlsx_book& book, lxw_worksheet* ws, const trace_info& info,
                                   const xlsx_queue& q) {
  const xlsx_cells c{ws, nullptr}, b{ws, book.bold()};
  static constexpr std::string_view sum[] = {"totalTiuCycle", "totalAlgCycle", "algTotalOps",
                                             "totalUArchOps", "uArchURate",    "waitMsgTotalTime"};
  static constexpr std::string_view spec[] = {"Platform", "CHIP ARCH", "Core Num",
                                              "TIU Frequency(MHz)", "DMA Frequency(MHz)"};
  b.text(0, 0, "Performance");
  b.texts(0, 1, sum);
  b.text(0, 14, "Detail Spec");
  b.texts(0, 15, spec);
  b.text(1, 0, "Summary");
  c.num(1, 1, double(q.cycles));
  c.num(1, 2, 0);
  c.num(1, 3, double(q.alg_ops));
  c.num(1, 4, double(q.arch_ops));
  c.text(1, 5, xlsx_ratio(double(q.alg_ops), double(q.arch_ops)));
  c.num(1, 6, 0);
  c.text(1, 15, "ASIC");
  c.text(1, 16, info.chip);
  c.num(1, 17, info.cores);
  c.num(1, 18, engine_clock_mhz(&info, true));
  c.num(1, 19, engine_clock_mhz(&info, false));
  static constexpr std::string_view stat[] = {"Function Name", "Instr Num",       "Alg Ops",
                                              "Alg Ops Ratio", "Alg Cycle",       "Alg Cycle Ratio",
                                              "uArch Ops",     "uArch URate",     "uArch Ops Ratio",
                                              "Asic Cycle",    "Asic Cycle Ratio"};
  b.text(5, 0, "Statistics");
  b.texts(5, 1, stat);
  std::uint32_t r = 6;
  auto stat_row = [&](std::string_view name, const xlsx_queue::func& f) {
    c.text(r, 1, name);
    c.num(r, 2, double(f.n));
    c.num(r, 3, double(f.alg_ops));
    c.text(r, 4, xlsx_ratio(double(f.alg_ops), double(q.alg_ops)));
    c.num(r, 5, 0);
    c.text(r, 6, "0.00%");
    c.num(r, 7, double(f.arch_ops));
    c.text(r, 8, xlsx_ratio(double(f.alg_ops), double(f.arch_ops)));
    c.text(r, 9, xlsx_ratio(double(f.arch_ops), double(q.arch_ops)));
    c.num(r, 10, double(f.cycles));
    c.text(r, 11, xlsx_ratio(double(f.cycles), double(q.cycles)));
    ++r;
  };
  for (const auto& [name, f] : q.funcs) stat_row(name, f);
  stat_row("Overall", {q.count, q.alg_ops, q.arch_ops, q.cycles});
  return static_cast<std::uint32_t>(q.funcs.size() + 1 + 7);
}

/// A TIU sheet: the head, then one row per command (rows streamed in order).
template <decoded_trace T>
void xlsx_tiu(xlsx_book& book, const T& t, const xlsx_queue& q, const xlsx_options& o) {
  const trace_info& info = t.info();
  lxw_worksheet* ws = book.sheet(q.name);
  const std::uint32_t head = xlsx_tiu_head(book, ws, info, q);
  std::vector<std::string_view> cols;
  for (std::string_view k : xlsx_tiu_keys)
    if (q.layers || (k != "Layer Id" && k != "Layer Name")) cols.push_back(k);
  const auto nkeys = static_cast<std::uint16_t>(cols.size());
  cols.insert(cols.end(), q.regs.begin(), q.regs.end());
  register_columns reg_cols(q.regs);
  const xlsx_cells c{ws, nullptr}, b{ws, book.bold()};
  b.texts(head, 0, cols);
  std::vector<std::uint64_t> starts(200, 0);  // ring of the last 200 start cycles
  std::uint32_t r = head + 1;
  std::uint64_t idx = 0;
  for (const engine_event& e : t.events()) {
    if (e.device != o.device || e.engine != q.eng || e.unit != q.unit) continue;
    const regs::instruction* ins = o.command ? o.command(e) : nullptr;
    const auto alg = ins ? ins->alg_ops : std::nullopt, arch = ins ? ins->arch_ops : std::nullopt;
    const double avg = idx < 199
                           ? (e.cmd_id ? std::round(double(e.end_cycle) / e.cmd_id) : 0.0)
                           : std::round(double(e.end_cycle - starts[(idx - 199) % 200]) / 200);
    starts[idx % 200] = e.begin_cycle;
    std::uint16_t k = 0;
    c.num(r, k++, 0);
    c.num(r, k++, e.unit);
    c.num(r, k++, double(idx));
    c.num(r, k++, e.cmd_id);
    if (q.layers) {
      if (e.layer_id >= 0) c.num(r, k, e.layer_id);
      k += 2;
    }
    c.text(r, k++, e.op_type ? info.names[e.op_type] : std::string_view{});
    c.text(r, k++, e.op ? info.names[e.op] : std::string_view{});
    c.num(r, k++, 0);
    c.num(r, k++, double(e.cycles() + 1));
    c.num(r, k++, double(e.begin_cycle));
    c.num(r, k++, double(e.end_cycle));
    c.num(r, k++, avg);
    c.num(r, k++, double(alg.value_or(0)));
    c.num(r, k++, double(arch.value_or(0)));
    c.text(r, k++, uarch_rate_text(alg, arch));
    if (ins && ins->in_type() != regs::dtype::unknown)
      c.text(r, k,
             fmt::format("{} -> {}", regs::name(ins->in_type()), regs::name(ins->out_type())));
    xlsx_regs(c, r, nkeys, reg_cols, ins);
    ++r;
    ++idx;
  }
  worksheet_set_tab_color(ws, 0x008000);
}

/// A GDMA, SDMA or CDMA sheet: totals in rows 0-1, headers in row 5, commands from row 6.
template <decoded_trace T>
void xlsx_dma(xlsx_book& book, const T& t, const xlsx_queue& q, const xlsx_options& o) {
  const trace_info& info = t.info();
  const double mhz = engine_clock_mhz(&info, false);
  lxw_worksheet* ws = book.sheet(q.name);
  const xlsx_cells c{ws, nullptr}, b{ws, book.bold()};
  static constexpr std::string_view perf[] = {
      "totalDmaCycle",         "workingCycle",         "totalStallCycle",
      "stallCycleRatio",       "totalDdrDataSize(B)",  "totalL2DataSize(B)",
      "ddrAvgBandwidth(GB/s)", "l2AvgBandwidth(GB/s)", "waitMsgTotalTime"};
  b.text(0, 0, "Performance");
  b.texts(0, 2, perf);
  b.text(1, 0, "Summary");
  const double v[] = {double(q.cycles),
                      double(q.cycles),
                      0,
                      0,
                      double(q.ddr_bytes),
                      double(q.l2_bytes),
                      xlsx_gbps(q.ddr_bytes, q.ddr_cycles, mhz),
                      xlsx_gbps(q.l2_bytes, q.l2_cycles, mhz),
                      0};
  for (std::uint16_t k = 0; k < 9; ++k)
    if (k == 3)
      c.text(1, 2 + k, "0.00%");
    else
      c.num(1, 2 + k, v[k]);
  std::vector<std::string_view> cols;
  for (std::string_view k : xlsx_dma_keys)
    if (q.layers || (k != "Layer Id" && k != "Layer Name")) cols.push_back(k);
  const auto nkeys = static_cast<std::uint16_t>(cols.size());
  cols.insert(cols.end(), q.regs.begin(), q.regs.end());
  register_columns reg_cols(q.regs);
  b.texts(5, 0, cols);
  std::uint32_t r = 6;
  for (const engine_event& e : t.events()) {
    if (e.device != o.device || e.engine != q.eng || e.unit != q.unit) continue;
    const regs::instruction* ins = o.command ? o.command(e) : nullptr;
    const direction d = ins && ins->dir != direction::none ? ins->dir : e.dir();
    const std::string_view dt = direction_text(d);
    const double cyc = double(e.cycles() + 1);
    const double bw = e.has_bytes() ? std::round(double(e.bytes) / cyc * 1e4) / 1e4 : 0;
    const bool ddr = dt.find("DDR") != std::string_view::npos;
    std::uint16_t k = 0;
    c.num(r, k++, vendor_engine_id(e.engine));
    c.num(r, k++, e.unit);
    c.num(r, k++, double(r - 6));
    c.num(r, k++, e.cmd_id);
    if (q.layers) {
      if (e.layer_id >= 0) c.num(r, k, e.layer_id);
      k += 2;
    }
    c.text(r, k++, e.op_type ? info.names[e.op_type] : std::string_view{});
    c.text(r, k++, e.op ? info.names[e.op] : std::string_view{});
    c.num(r, k++, e.has_bytes() ? double(e.bytes) : 0);
    c.num(r, k++, double(e.begin_cycle));
    c.num(r, k++, double(e.end_cycle));
    c.num(r, k++, cyc);
    c.num(r, k++, 0);
    c.num(r, k++, ddr ? bw : 0);
    c.num(r, k++, !ddr && dt.find("L2M") != std::string_view::npos ? bw : 0);
    c.text(r, k++, dt);
    if (ins && ins->in_type() != regs::dtype::unknown) c.text(r, k, regs::name(ins->in_type()));
    xlsx_regs(c, r, nkeys, reg_cols, ins);
    ++r;
  }
  worksheet_freeze_panes(ws, 6, 0);
  worksheet_set_tab_color(ws, q.eng == engine::gdma   ? 0xFFA500
                              : q.eng == engine::sdma ? 0xD0CECE
                                                      : 0xC0504D);
}

}  // namespace detail

/// Writes the PerfDoc workbook of `t` to `file` (create or replace).
template <decoded_trace T>
void write_xlsx(const std::filesystem::path& file, const T& t, const xlsx_options& o = {}) {
  const auto queues = detail::xlsx_collect(t, o);
  detail::xlsx_book book(file);
  detail::xlsx_summary(book, t.info(), queues);  // first, as the vendor's placeholder puts it
  for (const auto& q : queues) {
    if (q.eng == engine::tiu)
      detail::xlsx_tiu(book, t, q, o);
    else
      detail::xlsx_dma(book, t, q, o);
  }
  book.close();
}

}  // namespace tpuprof::sinks
