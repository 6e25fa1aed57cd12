// tpuprof CLI commands: loading (chip detection, multi-device parents) and
// the subcommands. All numbers come from the library's views and sinks.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/decode/merge.hpp>
#include <tpuprof/tpuprof.hpp>
#include <tpuprof/views/operand_table.hpp>

#include "cli.hpp"

namespace fs = std::filesystem;
using namespace tpuprof;

namespace cli {
namespace {

std::string json_str(std::string_view s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\r':
        o += "\\r";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (c < 0x20)
          o += fmt::format("\\u{:04x}", c);
        else
          o += static_cast<char>(c);
    }
  }
  return o + "\"";
}

std::string num(double v, int prec = 3) {
  if (!std::isfinite(v)) return "";
  return fmt::format("{:.{}f}", v, prec);
}

/// Keeps the memory operands of `d` in `ops` (for the report's memory charts).
template <operand_source D>
void keep_operands(const D& d, operand_table* ops, std::size_t device) {
  if (ops) ops->append(d.events(), d, static_cast<std::uint8_t>(device));
}

materialized_trace load_one(const fs::path& dir, const common_options& o, operand_table* ops,
                            std::size_t device) {
  auto files = io::dump_files::open_directory(dir);
  std::string chip = o.chip;
  if (chip.empty()) {
    try {
      chip = detect_dump(files, chips::all{}).chip;
    } catch (const decode_error& e) {  // the CLI way to give the chip explicitly
      throw decode_error(e.file(), e.offset(), e.reason() + "; use --chip bm1684x|aks|aksv");
    }
  }
  using all_chips = chip_list<chips::bm1684x, chips::aks, chips::aksv>;
  return with_chip(all_chips{}, chip, [&]<class C>() -> materialized_trace {
    if constexpr (std::is_same_v<C, chips::bm1684x>) {
      decode_options opt;
      if (o.tiu_freq_mhz > 0) opt.tiu_freq_mhz = o.tiu_freq_mhz;
      if (o.dma_freq_mhz > 0) opt.dma_freq_mhz = o.dma_freq_mhz;
      const bmprofile_decoder<C> d(std::move(files), opt);
      keep_operands(d, ops, device);
      return materialize(d);
    } else {
      cdm::cdm_options opt;
      if (o.tiu_freq_mhz > 0) opt.tiu_freq_mhz = o.tiu_freq_mhz;
      if (o.dma_freq_mhz > 0) opt.dma_freq_mhz = o.dma_freq_mhz;
      opt.keep_instructions = ops != nullptr;  // operands only for the memory charts
      const cdm::cdm_decoder<C> d(files, opt);
      keep_operands(d, ops, device);
      return materialize(d);
    }
  });
}

bool is_dump_dir(const fs::path& d) {
  std::error_code ec;
  return fs::is_regular_file(d / "global.profile", ec);
}

}  // namespace

std::optional<double> parse_duration_ns(const std::string& s) {
  double v = 0;
  std::size_t used = 0;
  try {
    v = std::stod(s, &used);
  } catch (...) {
    return std::nullopt;
  }
  const std::string unit = s.substr(used);
  if (unit.empty() || unit == "ns") return v;
  if (unit == "us") return v * 1e3;
  if (unit == "ms") return v * 1e6;
  if (unit == "s") return v * 1e9;
  return std::nullopt;
}

materialized_trace load(const common_options& o, progress& p, operand_table* ops) {
  const fs::path in(o.input);
  std::error_code ec;
  if (!fs::exists(in, ec))
    throw decode_error(o.input, decode_error::no_offset, "no such file or directory");
  std::vector<fs::path> dirs;
  if (is_dump_dir(in)) {
    dirs.push_back(in);
  } else if (fs::is_directory(in, ec)) {
    for (const auto& e : fs::directory_iterator(in, ec))
      if (e.is_directory() && is_dump_dir(e.path())) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
  }
  if (dirs.empty())
    throw decode_error(
        o.input, decode_error::no_offset,
        "no dump here: expected global.profile, or subdirectories (cdm_profile_data_devD-N, "
        "bmprofile_data-N) that each hold one");
  std::vector<materialized_trace> parts;
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    p.step(fmt::format("decoding {} ({}/{})", dirs[i].string(), i + 1, dirs.size()));
    parts.push_back(load_one(dirs[i], o, ops, i));
  }
  auto t = merge_devices(std::move(parts));
  if (o.num_core > 0) {
    auto keep = [&](const engine_event& e) {
      return e.engine == engine::cdma || e.unit < static_cast<unsigned>(o.num_core);
    };
    std::erase_if(t.hw, [&](const engine_event& e) { return !keep(e); });
    std::erase_if(t.meta.tracks,
                  [&](const track& tr) { return tr.eng != engine::cdma && tr.unit >= o.num_core; });
    t.meta.cores = std::min<unsigned>(t.meta.cores, static_cast<unsigned>(o.num_core));
  }
  p.done();
  return t;
}

namespace {

/// --by value of group and diff.
group_key parse_group_key(const std::string& by) {
  static const std::map<std::string, group_key> keys = {{"op", group_key::op},
                                                        {"op_type", group_key::op_type},
                                                        {"function", group_key::function},
                                                        {"layer", group_key::layer},
                                                        {"engine", group_key::engine},
                                                        {"core", group_key::core}};
  auto k = keys.find(by);
  if (k == keys.end())
    throw std::invalid_argument("unknown --by '" + by +
                                "' (op, op_type, function, layer, engine, core)");
  return k->second;
}

int finish(const common_options& o, const materialized_trace& t) {
  if (o.strict && t.meta.diagnostics.data_loss()) {
    fmt::print(stderr, "tpuprof: decoded with data loss (--strict):");
    for (std::size_t i = 0; i < diag_count; ++i) {
      auto k = static_cast<diag>(i);
      if (is_data_loss(k) && t.meta.diagnostics[k])
        fmt::print(stderr, " {}={}", name(k), t.meta.diagnostics[k]);
    }
    fmt::print(stderr, "\n");
    return data_loss;
  }
  return ok;
}

std::string op_text(const trace_info& i, const engine_event& e) {
  auto s = i.names[e.op];
  return s.empty() ? std::string("unknown") : std::string(s);
}

}  // namespace

int cmd_info(const common_options& o, bool json) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  const auto& m = t.meta;
  const auto& d = m.diagnostics;
  if (json) {
    std::string s = "{";
    s += "\"chip\":" + json_str(m.chip) + ",\"source\":" + json_str(m.source);
    s += fmt::format(",\"devices\":{},\"cores\":{},\"mode\":{},\"events\":{},\"spans\":{}",
                     m.devices, m.cores, json_str(m.mode), t.hw.size(), t.derived.size());
    s += fmt::format(",\"begin_ns\":{},\"end_ns\":{},\"duration_ns\":{}", m.begin_ns, m.end_ns,
                     m.end_ns - m.begin_ns);
    s += ",\"tracks\":[";
    for (std::size_t i = 0; i < m.tracks.size(); ++i) {
      const auto& tr = m.tracks[i];
      s += fmt::format(
          "{}{{\"device\":{},\"unit\":{},\"engine\":{},\"freq_mhz\":{},\"records\":{},\"events\":{}"
          "}}",
          i ? "," : "", tr.device, tr.unit, json_str(name(tr.eng)), tr.freq_mhz, tr.records,
          tr.events);
    }
    s += "],\"diagnostics\":{";
    bool first = true;
    for (std::size_t i = 0; i < diag_count; ++i) {
      auto k = static_cast<diag>(i);
      s += fmt::format("{}{}:{}", first ? "" : ",", json_str(name(k)), d[k]);
      first = false;
    }
    s += fmt::format("}},\"data_loss\":{},\"notes\":[", d.data_loss() ? "true" : "false");
    for (std::size_t i = 0; i < d.notes().size(); ++i) {
      const auto& n = d.notes()[i];
      s += fmt::format("{}{{\"kind\":{},\"file\":{},\"offset\":{},\"text\":{}}}", i ? "," : "",
                       json_str(name(n.kind)), json_str(n.file),
                       n.offset == decode_error::no_offset ? "null" : std::to_string(n.offset),
                       json_str(n.text));
    }
    s += "],\"properties\":{";
    for (std::size_t i = 0; i < m.properties.size(); ++i)
      s += fmt::format("{}{}:{}", i ? "," : "", json_str(m.properties[i].first),
                       json_str(m.properties[i].second));
    s += "}}\n";
    fmt::print("{}", s);
    return finish(o, t);
  }
  const char* b = o.color ? "\033[1m" : "";
  const char* r = o.color ? "\033[0m" : "";
  fmt::print("{}chip{}      {}\n", b, r, m.chip);
  fmt::print("{}source{}    {}\n", b, r, m.source);
  fmt::print("{}devices{}   {}   cores {}   mode {}\n", b, r, m.devices, m.cores,
             m.mode.empty() ? "-" : m.mode);
  fmt::print("{}events{}    {} hardware, {} derived (layers, functions, MCU, subnets)\n", b, r,
             t.hw.size(), t.derived.size());
  fmt::print("{}span{}      {:.3f} us  ({:.3f} .. {:.3f} us)\n", b, r,
             (m.end_ns - m.begin_ns) / 1e3, m.begin_ns / 1e3, m.end_ns / 1e3);
  for (const auto& [k, v] : m.properties)
    if (!v.empty()) fmt::print("  {:<22} {}\n", k, v);
  fmt::print("\n{}{:<7}{:<6}{:<7}{:>10}{:>10}{:>10}{}\n", b, "device", "unit", "engine", "MHz",
             "records", "events", r);
  for (const auto& tr : m.tracks)
    fmt::print("{:<7}{:<6}{:<7}{:>10}{:>10}{:>10}\n", tr.device,
               tr.eng == engine::cdma ? fmt::format("p{}", tr.unit) : fmt::format("{}", tr.unit),
               name(tr.eng), tr.freq_mhz, tr.records, tr.events);
  fmt::print("\n{}diagnostics{}", b, r);
  if (d.total() == 0)
    fmt::print("  none\n");
  else {
    fmt::print("\n");
    for (std::size_t i = 0; i < diag_count; ++i) {
      auto k = static_cast<diag>(i);
      if (d[k])
        fmt::print("  {}{:<20}{} {}{}\n", is_data_loss(k) && o.color ? "\033[33m" : "", name(k),
                   is_data_loss(k) && o.color ? r : "", d[k],
                   is_data_loss(k) ? "  (data loss)" : "");
    }
    for (const auto& n : d.notes())
      fmt::print("  - {}: {}{}\n", n.file,
                 n.offset == decode_error::no_offset ? std::string()
                                                     : fmt::format("at byte {}: ", n.offset),
                 n.text);
  }
  return finish(o, t);
}

namespace {

void write_summary_csv(std::string& s, const summary_report& rep) {
  s += "device,core,parallelism_pct,total_time_us,tiu_working_ratio_pct,total_tiu_cycle,uarch_rate_"
       "pct,"
       "total_gdma_cycle,gdma_ddr_avg_bw_gbps,gdma_l2_avg_bw_gbps,total_sdma_cycle,sdma_ddr_avg_bw_"
       "gbps\n";
  for (const auto& c : rep.cores)
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", c.device, c.core,
                     num(c.parallelism() * 100, 2), num(c.total_ns / 1e3, 3),
                     num(c.tiu_working_ratio() * 100, 2), c.tiu_cycles, num(c.uarch_rate * 100, 2),
                     c.gdma_working_cycles(), num(c.gdma_ddr_gbps(), 2), num(c.gdma_l2_gbps(), 2),
                     c.sdma_working_cycles(), num(c.sdma_ddr_gbps(), 2));
}

void write_summary_json(std::string& s, const summary_report& rep) {
  s += fmt::format("{{\"total_time_us\":{},\"tiu_mhz\":{},\"dma_mhz\":{},\"cores\":[",
                   num(rep.total_ns / 1e3), rep.tiu_mhz, rep.dma_mhz);
  auto jn = [](double v, int p) {
    auto t = num(v, p);
    return t.empty() ? std::string("null") : t;
  };
  for (std::size_t i = 0; i < rep.cores.size(); ++i) {
    const auto& c = rep.cores[i];
    s += fmt::format(
        "{}{{\"device\":{},\"core\":{},\"parallelism_pct\":{},\"tiu_working_ratio_pct\":{},\"total_"
        "tiu_cycle\":{},"
        "\"uarch_rate_pct\":{},\"total_gdma_cycle\":{},\"gdma_ddr_avg_bw_gbps\":{},\"gdma_l2_avg_"
        "bw_gbps\":{},"
        "\"total_sdma_cycle\":{},\"sdma_ddr_avg_bw_gbps\":{}}}",
        i ? "," : "", c.device, c.core, jn(c.parallelism() * 100, 2),
        jn(c.tiu_working_ratio() * 100, 2), c.tiu_cycles, jn(c.uarch_rate * 100, 2),
        c.gdma_working_cycles(), jn(c.gdma_ddr_gbps(), 2), jn(c.gdma_l2_gbps(), 2),
        c.sdma_working_cycles(), jn(c.sdma_ddr_gbps(), 2));
  }
  const auto& ov = rep.overall;
  s += fmt::format(
      "],\"overall\":{{\"parallelism_pct\":{},\"tiu_working_ratio_pct\":{},\"gdma_ddr_avg_bw_"
      "gbps\":{},"
      "\"sdma_ddr_avg_bw_gbps\":{}}}}}\n",
      jn(ov.parallelism * 100, 2), jn(ov.tiu_working_ratio * 100, 2), jn(ov.gdma_ddr_gbps, 2),
      jn(ov.sdma_ddr_gbps, 2));
}

}  // namespace

int cmd_summary(const common_options& o, const std::string& format) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  summary_options so;
  so.info = &t.meta;
  so.tiu_mhz = o.tiu_freq_mhz;
  so.dma_mhz = o.dma_freq_mhz;
  const auto rep = t.hw | views::summary(so);
  std::string s;
  if (format == "csv")
    write_summary_csv(s, rep);
  else if (format == "json")
    write_summary_json(s, rep);
  else
    s = format_summary_txt(rep);
  fmt::print("{}", s);
  return finish(o, t);
}

int cmd_top(const common_options& o, std::size_t n, const std::string& by, const std::string& eng) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  rank_by rb = by == "bytes"       ? rank_by::bytes
               : by == "bandwidth" ? rank_by::bandwidth
                                   : rank_by::duration;
  std::vector<engine_event> sel;
  if (eng.empty())
    sel = t.hw | views::top_n(n, rb);
  else {
    auto e = parse_engine(eng);
    if (!e) throw std::invalid_argument("unknown engine '" + eng + "' (tiu, gdma, sdma, cdma)");
    sel = t.hw | views::only(*e) | views::top_n(n, rb);
  }
  fmt::print("{:>4} {:>3} {:>4} {:<5} {:>9} {:<24} {:>14} {:>12} {:>12} {:>9} {:>8}\n", "rank",
             "dev", "unit", "eng", "cmd_id", "op", "begin_us", "dur_ns", "bytes", "GB/s", "layer");
  for (std::size_t i = 0; i < sel.size(); ++i) {
    const auto& e = sel[i];
    fmt::print("{:>4} {:>3} {:>4} {:<5} {:>9} {:<24} {:>14.3f} {:>12.0f} {:>12} {:>9} {:>8}\n",
               i + 1, e.device, e.unit, name(e.engine), e.cmd_id, op_text(t.meta, e),
               e.begin_ns / 1e3, e.dur_ns(), e.has_bytes() ? std::to_string(e.bytes) : "",
               num(e.bandwidth_gbps(), 2), e.layer_id >= 0 ? std::to_string(e.layer_id) : "");
  }
  return finish(o, t);
}

int cmd_gaps(const common_options& o, double min_ns, std::size_t limit) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  struct acc {
    std::uint64_t count = 0;
    double total = 0, longest = 0;
  };
  std::map<std::tuple<int, int, int>, acc> per;
  std::vector<idle_gap> all;
  for (const auto& g : t.hw | views::idle_gaps(min_ns)) {
    auto& a = per[{g.track.device, g.track.unit, static_cast<int>(g.track.eng)}];
    ++a.count;
    a.total += g.dur_ns();
    a.longest = std::max(a.longest, g.dur_ns());
    all.push_back(g);
  }
  fmt::print("idle gaps >= {} ns per track\n{:>3} {:>4} {:<5} {:>8} {:>14} {:>14} {:>8}\n", min_ns,
             "dev", "unit", "eng", "gaps", "idle_us", "longest_us", "idle%");
  const double span = t.meta.end_ns - t.meta.begin_ns;
  for (const auto& [k, a] : per)
    fmt::print("{:>3} {:>4} {:<5} {:>8} {:>14.3f} {:>14.3f} {:>8}\n", std::get<0>(k),
               std::get<1>(k), name(static_cast<engine>(std::get<2>(k))), a.count, a.total / 1e3,
               a.longest / 1e3, span > 0 ? num(100 * a.total / span, 2) : "");
  std::sort(all.begin(), all.end(),
            [](const idle_gap& a, const idle_gap& b) { return a.dur_ns() > b.dur_ns(); });
  if (all.size() > limit) all.resize(limit);
  fmt::print("\nlongest {} gaps\n{:>3} {:>4} {:<5} {:>14} {:>12}  {:<28} {:<28}\n", all.size(),
             "dev", "unit", "eng", "begin_us", "dur_ns", "after", "before");
  for (const auto& g : all)
    fmt::print("{:>3} {:>4} {:<5} {:>14.3f} {:>12.0f}  {:<28} {:<28}\n", g.track.device,
               g.track.unit, name(g.track.eng), g.begin_ns / 1e3, g.dur_ns(),
               fmt::format("{}#{}", op_text(t.meta, g.prev), g.prev.cmd_id),
               fmt::format("{}#{}", op_text(t.meta, g.next), g.next.cmd_id));
  return finish(o, t);
}

int cmd_group(const common_options& o, const std::string& by, const std::string& format) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  const group_key key = parse_group_key(by);
  auto groups = t.hw | views::group_by(key);
  std::sort(groups.begin(), groups.end(),
            [](const group_stats& a, const group_stats& b) { return a.sum_ns > b.sum_ns; });
  auto label = [&](const group_stats& g) { return group_label(g, t.meta); };
  if (format == "csv") {
    fmt::print("{},count,sum_ns,mean_ns,min_ns,max_ns,p50_ns,p99_ns,bytes,uarch_rate\n", by);
    for (const auto& g : groups) {
      std::string l = label(g);
      if (l.find_first_of(",\"\n") != std::string::npos) {
        std::string q = "\"";
        for (char c : l) q += c == '"' ? std::string("\"\"") : std::string(1, c);
        l = q + "\"";
      }
      fmt::print("{},{},{},{},{},{},{},{},{},{}\n", l, g.count, num(g.sum_ns), num(g.mean_ns),
                 num(g.min_ns), num(g.max_ns), num(g.p50_ns), num(g.p99_ns), g.bytes,
                 num(g.uarch_rate, 4));
    }
  } else {
    fmt::print("{:<28} {:>8} {:>14} {:>11} {:>11} {:>11} {:>11} {:>11} {:>14} {:>8}\n", by, "count",
               "sum_us", "mean_ns", "min_ns", "max_ns", "p50_ns", "p99_ns", "bytes", "uArch%");
    for (const auto& g : groups)
      fmt::print(
          "{:<28} {:>8} {:>14.3f} {:>11.1f} {:>11.0f} {:>11.0f} {:>11.0f} {:>11.0f} {:>14} {:>8}\n",
          label(g), g.count, g.sum_ns / 1e3, g.mean_ns, g.min_ns, g.max_ns, g.p50_ns, g.p99_ns,
          g.bytes, std::isnan(g.uarch_rate) ? std::string("unknown") : num(g.uarch_rate * 100, 2));
  }
  return finish(o, t);
}

int cmd_diff(const common_options& o, const std::string& other, const std::string& by,
             std::size_t n) {
  const group_key key = parse_group_key(by);
  progress p(!o.quiet && o.color);
  auto a = load(o, p);
  common_options ob = o;
  ob.input = other;
  auto b = load(ob, p);
  auto rows = diff_runs(a.hw, a.meta, b.hw, b.meta, key);
  const double span_a = a.meta.end_ns - a.meta.begin_ns, span_b = b.meta.end_ns - b.meta.begin_ns;
  fmt::print("A {}: {} events, {:.3f} us\n", a.meta.source, a.hw.size(), span_a / 1e3);
  fmt::print("B {}: {} events, {:.3f} us ({:+.2f}%)\n\n", b.meta.source, b.hw.size(), span_b / 1e3,
             span_a > 0 ? 100 * (span_b - span_a) / span_a : 0.0);
  fmt::print("{:<28} {:>9} {:>9} {:>14} {:>14} {:>14} {:>9}\n", by, "count_A", "count_B",
             "sum_A_us", "sum_B_us", "delta_us", "B/A");
  for (std::size_t i = 0; i < rows.size() && i < n; ++i) {
    const auto& r = rows[i];
    fmt::print("{:<28} {:>9} {:>9} {:>14.3f} {:>14.3f} {:>+14.3f} {:>9}\n", r.key, r.count_a,
               r.count_b, r.sum_a_ns / 1e3, r.sum_b_ns / 1e3, r.delta_ns() / 1e3,
               num(r.ratio(), 3));
  }
  const int ra = finish(o, a);
  return ra != ok ? ra : finish(o, b);
}

namespace {

/// report.html, with the memory charts when operands were kept.
void write_report(const fs::path& f, const materialized_trace& t, const operand_table& ops) {
  if (ops.empty())
    sinks::write_html_file(f, t);
  else
    sinks::write_html_file(f, t, ops);
}

}  // namespace

int cmd_convert(const common_options& o, const convert_options& c) {
  progress p(!o.quiet && o.color);
  operand_table ops;
  auto t = load(o, p, c.html ? &ops : nullptr);
  fs::create_directories(c.out_dir);
  const fs::path out(c.out_dir);
  io::host_trace host;
  if (!c.host_trace.empty()) {
    p.step("reading host trace " + c.host_trace);
    host = io::read_chrome_json(c.host_trace);
    if (c.host_offset_ns) {
      host.shift(static_cast<std::int64_t>(*c.host_offset_ns));
    } else if (auto tail = t.meta.property("tail_offset_ns"); !tail.empty()) {
      host.align_by_tail(std::stoll(std::string(tail)), static_cast<std::int64_t>(t.meta.end_ns));
    } else {
      host.align_by_tail(0, static_cast<std::int64_t>(t.meta.end_ns));
    }
  }
  const bool any = c.perfetto || c.json || c.csv || c.html;
  std::vector<std::string> written;
  auto emit = [&](const std::string& file, auto&& write) {
    p.step("writing " + (out / file).string());
    write(out / file);
    written.push_back((out / file).string());
  };
  if (c.perfetto || !any)
    emit("trace.pftrace",
         [&](const fs::path& f) { sinks::write_file<sinks::perfetto_sink>(f, t, host); });
  if (c.json)
    emit("trace.json",
         [&](const fs::path& f) { sinks::write_file<sinks::chrome_json_sink>(f, t, host); });
  if (c.csv) {
    emit("events.csv", [&](const fs::path& f) { sinks::write_file<sinks::csv_sink>(f, t); });
    emit("summary.csv",
         [&](const fs::path& f) { sinks::write_file<sinks::csv_summary_sink>(f, t); });
  }
  if (c.html) emit("report.html", [&](const fs::path& f) { write_report(f, t, ops); });
  if (c.summary) {
    emit("summary.txt", [&](const fs::path& f) {
      summary_options so;
      so.info = &t.meta;
      io::atomic_file af(f);
      af.write(format_summary_txt(t.hw | views::summary(so)));
      af.commit();
    });
  }
  p.done();
  if (!o.quiet)
    for (const auto& w : written) fmt::print("wrote {}\n", w);
  return finish(o, t);
}

int cmd_report(const common_options& o, const std::string& out) {
  progress p(!o.quiet && o.color);
  operand_table ops;
  auto t = load(o, p, &ops);
  p.step("writing " + out);
  write_report(out, t, ops);
  p.done();
  if (!o.quiet) fmt::print("wrote {}\n", out);
  return finish(o, t);
}

int cmd_synth(const common_options& o, const synth_options& s) {
  if (s.out_dir.empty()) throw std::invalid_argument("synth needs -o DIR");
  progress p(!o.quiet && o.color);
  p.step("generating " + s.chip + " dump");
  std::size_t events = 0;
  if (s.chip == "bm1684x") {
    synth::bm1684x_options bo;
    bo.seed = s.seed;
    bo.layers = std::max<std::size_t>(1, s.records / 2);
    if (s.cycle_wrap) bo.cycles_before_wrap = 5000;
    auto g = synth::bm1684x_dump(bo);
    g.write_directory(s.out_dir);
    events = g.expected.size();
  } else {
    synth::cdm_synth_options co;
    co.records = s.records;
    co.cores = s.cores;
    co.mode = s.mode;
    co.cdma_ports = s.cdma_ports;
    co.seed = s.seed;
    co.cycle_wrap = s.cycle_wrap;
    using cdm_chips = chip_list<chips::aks, chips::aksv>;
    events = with_chip(cdm_chips{}, s.chip, [&]<class C>() {
      auto r = synth::synthesize_cdm<C>(co);
      synth::write_dump_directory(r.files, s.out_dir);
      return r.expected.hw.size();
    });
  }
  p.done();
  if (!o.quiet) fmt::print("wrote {} ({} chip, {} hardware events)\n", s.out_dir, s.chip, events);
  return ok;
}

}  // namespace cli
