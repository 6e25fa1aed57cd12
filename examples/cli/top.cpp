// tpuprof top: the N longest (or largest, fastest) commands.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/algo/top_n.hpp>
#include <tpuprof/trace.hpp>
#include <tpuprof/views/filter.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct top_options {
  std::size_t n = 20;
  std::string by = "duration";
  std::string engine;
  std::string format = "table";
};

/// The table (default) or JSON (docs/cli.md) of the ranked events `sel`.
void print_top(const trace& t, const std::vector<engine_event>& sel, const top_options& a) {
  if (a.format == "json") {
    std::string s = "{\"by\":" + json_str(a.by) + ",\"events\":[";
    for (std::size_t i = 0; i < sel.size(); ++i) {
      const auto& e = sel[i];
      s += fmt::format(
          "{}{{\"rank\":{},\"device\":{},\"unit\":{},\"engine\":{},\"cmd_id\":{},\"op\":{},"
          "\"begin_ns\":{},\"dur_ns\":{},\"bytes\":{},\"gbps\":{},\"layer\":{}}}",
          i ? "," : "", i + 1, e.device, e.unit, json_str(name(e.engine)), e.cmd_id,
          json_str(op_text(t.info(), e)), json_num(e.begin_ns), json_num(e.dur_ns()),
          e.has_bytes() ? std::to_string(e.bytes) : "null", json_num(e.bandwidth_gbps()),
          e.layer_id >= 0 ? std::to_string(e.layer_id) : "null");
    }
    fmt::print("{}]}}\n", s);
    return;
  }
  text_table tb({{"rank", 4, false, 5},
                 {"dev", 3, false, 1},
                 {"unit", 4, false, 4},
                 {"eng", 5, true, 6},
                 {"cmd_id", 9, false, 3},
                 {"op", 24, true, 9},
                 {"begin_us", 14, false, 2},
                 {"dur_ns", 12, false, 8},
                 {"bytes", 12, false, 3},
                 {"GB/s", 9, false, 2},
                 {"layer", 8, false, 1}});
  for (std::size_t i = 0; i < sel.size(); ++i) {
    const auto& e = sel[i];
    tb.row({std::to_string(i + 1), std::to_string(e.device), std::to_string(e.unit),
            std::string(name(e.engine)), std::to_string(e.cmd_id), op_text(t.info(), e),
            fmt::format("{:.3f}", e.begin_ns / 1e3), fmt::format("{:.0f}", e.dur_ns()),
            e.has_bytes() ? std::to_string(e.bytes) : "", num(e.bandwidth_gbps(), 2),
            e.layer_id >= 0 ? std::to_string(e.layer_id) : ""});
  }
  print_table(tb);
}

int run_top(const common_options& o, const top_options& a) {
  progress p(o.show_progress, o.progress_color);
  auto t = load(o, p);
  rank_by rb = a.by == "bytes"       ? rank_by::bytes
               : a.by == "bandwidth" ? rank_by::bandwidth
                                     : rank_by::duration;
  std::vector<engine_event> sel;
  if (a.engine.empty())
    sel = t.events() | algo::top_n(a.n, rb);
  else {
    auto e = parse_engine(a.engine);
    if (!e)
      throw std::invalid_argument("unknown engine '" + a.engine + "' (tiu, gdma, sdma, cdma)");
    sel = t.events() | views::only(*e) | algo::top_n(a.n, rb);
  }
  print_top(t, sel, a);
  return finish(o, t);
}

}  // namespace

subcommand register_top(CLI::App& app, common_options& o) {
  auto a = std::make_shared<top_options>();
  auto* sc = app.add_subcommand("top", "the N longest (or largest, fastest) commands");
  add_common(sc, o);
  sc->add_option("-n", a->n, "how many (default 20)")->check(CLI::Range(1, 100000000));
  sc->add_option("--by", a->by, "duration, bytes or bandwidth")
      ->check(CLI::IsMember({"duration", "bytes", "bandwidth"}));
  sc->add_option("--engine", a->engine, "tiu, gdma, sdma or cdma");
  sc->add_option("--format", a->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  return {sc, [&o, a] { return run_top(o, *a); }};
}

}  // namespace cli
