// tpuprof info: chip, cores, engines, record counts, time span, diagnostics.
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/error.hpp>
#include <tpuprof/trace.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

std::string info_json(const trace& t) {
  const auto& m = t.info();
  const auto& d = t.diagnostics();
  std::string s = "{";
  s += "\"chip\":" + json_str(m.chip) + ",\"source\":" + json_str(m.source);
  s += fmt::format(",\"devices\":{},\"cores\":{},\"mode\":{},\"events\":{},\"spans\":{}", m.devices,
                   m.cores, json_str(m.mode), t.events().size(), t.spans().size());
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
  return s;
}

void print_info(const trace& t, bool color) {
  const auto& m = t.info();
  const auto& d = t.diagnostics();
  const char* b = color ? "\033[1m" : "";
  const char* r = color ? "\033[0m" : "";
  fmt::print("{}chip{}      {}\n", b, r, m.chip);
  fmt::print("{}source{}    {}\n", b, r, m.source);
  // The mode text of the SG2260 family already starts with "mode" ("mode 1 (...)").
  const bool says_mode = m.mode.rfind("mode ", 0) == 0;
  fmt::print("{}devices{}   {}   cores {}   {}{}\n", b, r, m.devices, m.cores,
             says_mode ? "" : "mode ", m.mode.empty() ? "-" : m.mode);
  fmt::print("{}events{}    {} hardware, {} derived (layers, functions, MCU, subnets)\n", b, r,
             t.events().size(), t.spans().size());
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
  if (d.total() == 0) {
    fmt::print("  none\n");
    return;
  }
  fmt::print("\n");
  for (std::size_t i = 0; i < diag_count; ++i) {
    auto k = static_cast<diag>(i);
    if (d[k])
      fmt::print("  {}{:<20}{} {}{}\n", is_data_loss(k) && color ? "\033[33m" : "", name(k),
                 is_data_loss(k) && color ? r : "", d[k], is_data_loss(k) ? "  (data loss)" : "");
  }
  for (const auto& n : d.notes())
    fmt::print(
        "  - {}: {}{}\n", n.file,
        n.offset == decode_error::no_offset ? std::string() : fmt::format("at byte {}: ", n.offset),
        n.text);
}

}  // namespace

subcommand register_info(CLI::App& app, common_options& o) {
  auto json = std::make_shared<bool>(false);
  auto format = std::make_shared<std::string>("text");
  auto* sc =
      app.add_subcommand("info", "chip, cores, engines, record counts, time span, diagnostics");
  add_common(sc, o);
  sc->add_flag("--json", *json, "machine-readable output (the same as --format json)");
  sc->add_option("--format", *format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return {sc, [&o, json, format] {
            progress p(o.show_progress, o.progress_color);
            auto t = load(o, p);
            if (*json || *format == "json")
              fmt::print("{}", info_json(t));
            else
              print_info(t, o.color);
            return finish(o, t);
          }};
}

}  // namespace cli
