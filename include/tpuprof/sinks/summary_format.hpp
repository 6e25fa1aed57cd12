/// Formatters of the summary model (algo::summary's summary_report): the
/// vendor's summary.txt table, the CLI's CSV and JSON, and the HTML page's
/// section. One model, rendered four ways; nothing is computed here.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <tpuprof/algo/summary.hpp>
#include <tpuprof/sinks/detail/text_format.hpp>
#include <tpuprof/sinks/output.hpp>

namespace tpuprof {

namespace detail {
inline std::string pct_text(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", ratio * 100);
  return buf;
}
inline void append_str(std::string& out, std::string_view s, std::size_t width) {
  if (s.size() < width) out.append(width - s.size(), ' ');
  out += s;
}
}  // namespace detail

/// The report as bigTpuProfile's summary.txt (same layout and rounding; the
/// uArchURate cell reads "unknown" when no command knows its rate). Cores of
/// devices other than 0 are labelled "D:C". Ends with a newline.
inline std::string format_summary_txt(const summary_report& r) {
  using detail::append_str;
  using detail::pct_text;
  const char* names[] = {"CoreId",          "Parallelism(%)",     "totalTime(us)",
                         "TiuWorkingRatio", "totalTiuCycle",      "uArchURate",
                         "totalGdmaCycle",  "GdmaDdrAvgBW(GB/s)", "GdmaL2AvgBW(GB/s)",
                         "totalSdmaCycle",  "SdmaDdrAvgBW(GB/s)"};
  const std::size_t widths[] = {7, 14, 14, 15, 14, 10, 16, 18, 18, 16, 18};
  auto row = [&](const std::string(&cells)[11]) {
    std::string line;
    for (int i = 0; i < 11; ++i) {
      if (i) line += " | ";
      append_str(line, cells[i], widths[i]);
    }
    return line;
  };
  auto fixed = [](double v, int prec) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", prec, v);
    return std::string(buf);
  };
  auto rate = [&](double v) { return std::isnan(v) ? std::string("unknown") : pct_text(v); };
  std::string header;
  {
    std::string cells[11];
    for (int i = 0; i < 11; ++i) cells[i] = names[i];
    header = row(cells);
  }
  const std::string eq(header.size(), '='), dash(header.size(), '-');
  std::string out = eq + "\nSummary\n" + eq + "\n" + header + "\n" + dash + "\n";
  const std::string total = fixed(r.total_ns / 1000, 3);
  for (const core_summary& c : r.cores) {
    std::string id = std::to_string(c.core);
    if (c.device) id = std::to_string(c.device) + ":" + id;
    const std::string cells[11] = {id,
                                   pct_text(c.parallelism()),
                                   total,
                                   pct_text(c.tiu_working_ratio()),
                                   std::to_string(c.tiu_cycles),
                                   rate(c.uarch_rate),
                                   std::to_string(c.gdma_working_cycles()),
                                   fixed(c.gdma_ddr_gbps(), 2),
                                   fixed(c.gdma_l2_gbps(), 2),
                                   std::to_string(c.sdma_working_cycles()),
                                   fixed(c.sdma_ddr_gbps(), 2)};
    out += row(cells) + "\n";
  }
  const overall_summary& o = r.overall;
  auto us = [&](std::uint64_t cyc, double mhz) {
    return fixed(static_cast<double>(cyc) / mhz, 3) + "(us)";
  };
  const std::string ov[11] = {"Overall",
                              pct_text(o.parallelism),
                              total,
                              pct_text(o.tiu_working_ratio),
                              us(o.max_tiu_cycles, r.tiu_mhz),
                              rate(o.uarch_rate),
                              us(o.max_gdma_working_cycles, r.dma_mhz),
                              fixed(o.gdma_ddr_gbps, 2),
                              fixed(o.gdma_l2_gbps, 2),
                              us(o.max_sdma_working_cycles, r.dma_mhz),
                              fixed(o.sdma_ddr_gbps, 2)};
  out += dash + "\n" + row(ov) + "\n" + eq + "\n";
  return out;
}

namespace detail {
/// Fixed decimals; empty when not finite (the CLI tables' numbers).
inline std::string fixed_or_empty(double v, int prec = 3) {
  if (!std::isfinite(v)) return "";
  return fmt::format("{:.{}f}", v, prec);
}
inline std::string fixed_or_null(double v, int prec) {
  std::string t = fixed_or_empty(v, prec);
  return t.empty() ? std::string("null") : t;
}
}  // namespace detail

/// `tpuprof summary --format csv`: one row per core; percentages and GB/s
/// with 2 decimals, time in us with 3, empty cells for unknown values.
inline std::string format_summary_csv(const summary_report& rep) {
  using detail::fixed_or_empty;
  std::string s =
      "device,core,parallelism_pct,total_time_us,tiu_working_ratio_pct,total_tiu_cycle,uarch_"
      "rate_pct,total_gdma_cycle,gdma_ddr_avg_bw_gbps,gdma_l2_avg_bw_gbps,total_sdma_cycle,sdma_"
      "ddr_avg_bw_gbps\n";
  for (const auto& c : rep.cores)
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", c.device, c.core,
                     fixed_or_empty(c.parallelism() * 100, 2), fixed_or_empty(c.total_ns / 1e3, 3),
                     fixed_or_empty(c.tiu_working_ratio() * 100, 2), c.tiu_cycles,
                     fixed_or_empty(c.uarch_rate * 100, 2), c.gdma_working_cycles(),
                     fixed_or_empty(c.gdma_ddr_gbps(), 2), fixed_or_empty(c.gdma_l2_gbps(), 2),
                     c.sdma_working_cycles(), fixed_or_empty(c.sdma_ddr_gbps(), 2));
  return s;
}

/// `tpuprof summary --format json`: one line; unknown numbers are null.
inline std::string format_summary_json(const summary_report& rep) {
  using detail::fixed_or_null;
  std::string s = fmt::format("{{\"total_time_us\":{},\"tiu_mhz\":{},\"dma_mhz\":{},\"cores\":[",
                              detail::fixed_or_empty(rep.total_ns / 1e3), rep.tiu_mhz, rep.dma_mhz);
  for (std::size_t i = 0; i < rep.cores.size(); ++i) {
    const auto& c = rep.cores[i];
    s += fmt::format(
        "{}{{\"device\":{},\"core\":{},\"parallelism_pct\":{},\"tiu_working_ratio_pct\":{},"
        "\"total_tiu_cycle\":{},\"uarch_rate_pct\":{},\"total_gdma_cycle\":{},"
        "\"gdma_ddr_avg_bw_gbps\":{},\"gdma_l2_avg_bw_gbps\":{},\"total_sdma_cycle\":{},"
        "\"sdma_ddr_avg_bw_gbps\":{}}}",
        i ? "," : "", c.device, c.core, fixed_or_null(c.parallelism() * 100, 2),
        fixed_or_null(c.tiu_working_ratio() * 100, 2), c.tiu_cycles,
        fixed_or_null(c.uarch_rate * 100, 2), c.gdma_working_cycles(),
        fixed_or_null(c.gdma_ddr_gbps(), 2), fixed_or_null(c.gdma_l2_gbps(), 2),
        c.sdma_working_cycles(), fixed_or_null(c.sdma_ddr_gbps(), 2));
  }
  const auto& ov = rep.overall;
  s += fmt::format(
      "],\"overall\":{{\"parallelism_pct\":{},\"tiu_working_ratio_pct\":{},"
      "\"gdma_ddr_avg_bw_gbps\":{},\"sdma_ddr_avg_bw_gbps\":{}}}}}\n",
      fixed_or_null(ov.parallelism * 100, 2), fixed_or_null(ov.tiu_working_ratio * 100, 2),
      fixed_or_null(ov.gdma_ddr_gbps, 2), fixed_or_null(ov.sdma_ddr_gbps, 2));
  return s;
}

/// The HTML page's "summary" object (raw ratios and ns; report.js formats).
inline void write_summary_page_json(detail::out_buffer& o, const summary_report& r) {
  using detail::put_int;
  auto put_num = [&](double v) {
    if (!std::isfinite(v))
      o.append("null");
    else
      detail::put_double(o, v);
  };
  o.append("{\"tiu_mhz\":");
  put_num(r.tiu_mhz);
  o.append(",\"dma_mhz\":");
  put_num(r.dma_mhz);
  o.append(",\"total_ns\":");
  put_num(r.total_ns);
  o.append(",\"cores\":[");
  bool first = true;
  for (const core_summary& c : r.cores) {
    json_comma(o, first);
    o.append("{\"dev\":");
    put_int(o, unsigned{c.device});
    o.append(",\"core\":");
    put_int(o, unsigned{c.core});
    o.append(",\"parallelism\":");
    put_num(c.parallelism());
    o.append(",\"tiu_ratio\":");
    put_num(c.tiu_working_ratio());
    o.append(",\"uarch\":");
    put_num(c.uarch_rate);
    o.append(",\"tiu_ns\":");
    put_num(c.tiu_ns);
    o.append(",\"gdma_ns\":");
    put_num(c.gdma_working_ns);
    o.append(",\"sdma_ns\":");
    put_num(c.sdma_working_ns);
    o.append(",\"gdma_ddr_gbps\":");
    put_num(c.gdma_ddr_gbps());
    o.append(",\"gdma_l2_gbps\":");
    put_num(c.gdma_l2_gbps());
    o.append(",\"sdma_ddr_gbps\":");
    put_num(c.sdma_ddr_gbps());
    o.append(",\"events\":[");
    put_int(o, c.tiu_events);
    o.put(',');
    put_int(o, c.gdma_events);
    o.put(',');
    put_int(o, c.sdma_events);
    o.append("]}");
  }
  const overall_summary& v = r.overall;
  o.append("],\"overall\":{\"parallelism\":");
  put_num(v.parallelism);
  o.append(",\"tiu_ratio\":");
  put_num(v.tiu_working_ratio);
  o.append(",\"uarch\":");
  put_num(v.uarch_rate);
  o.append(",\"gdma_ddr_gbps\":");
  put_num(v.gdma_ddr_gbps);
  o.append(",\"gdma_l2_gbps\":");
  put_num(v.gdma_l2_gbps);
  o.append(",\"sdma_ddr_gbps\":");
  put_num(v.sdma_ddr_gbps);
  o.append(",\"cdma_ddr_gbps\":");
  put_num(r.cdma.ddr_gbps);
  o.append(",\"cdma_l2_gbps\":");
  put_num(r.cdma.l2_gbps);
  o.append("}}");
}

}  // namespace tpuprof
