// tpuprof top: the N longest (or largest, fastest) commands.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/trace.hpp>
#include <tpuprof/views/filter.hpp>
#include <tpuprof/views/top_n.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct top_options {
  std::size_t n = 20;
  std::string by = "duration";
  std::string engine;
};

int run_top(const common_options& o, const top_options& a) {
  progress p(!o.quiet && o.color);
  auto t = load(o, p);
  rank_by rb = a.by == "bytes"       ? rank_by::bytes
               : a.by == "bandwidth" ? rank_by::bandwidth
                                     : rank_by::duration;
  std::vector<engine_event> sel;
  if (a.engine.empty())
    sel = t.events() | views::top_n(a.n, rb);
  else {
    auto e = parse_engine(a.engine);
    if (!e)
      throw std::invalid_argument("unknown engine '" + a.engine + "' (tiu, gdma, sdma, cdma)");
    sel = t.events() | views::only(*e) | views::top_n(a.n, rb);
  }
  fmt::print("{:>4} {:>3} {:>4} {:<5} {:>9} {:<24} {:>14} {:>12} {:>12} {:>9} {:>8}\n", "rank",
             "dev", "unit", "eng", "cmd_id", "op", "begin_us", "dur_ns", "bytes", "GB/s", "layer");
  for (std::size_t i = 0; i < sel.size(); ++i) {
    const auto& e = sel[i];
    fmt::print("{:>4} {:>3} {:>4} {:<5} {:>9} {:<24} {:>14.3f} {:>12.0f} {:>12} {:>9} {:>8}\n",
               i + 1, e.device, e.unit, name(e.engine), e.cmd_id, op_text(t.info(), e),
               e.begin_ns / 1e3, e.dur_ns(), e.has_bytes() ? std::to_string(e.bytes) : "",
               num(e.bandwidth_gbps(), 2), e.layer_id >= 0 ? std::to_string(e.layer_id) : "");
  }
  return finish(o, t);
}

}  // namespace

subcommand register_top(CLI::App& app, common_options& o) {
  auto a = std::make_shared<top_options>();
  auto* sc = app.add_subcommand("top", "the N longest (or largest, fastest) commands");
  add_common(sc, o);
  sc->add_option("-n", a->n, "how many (default 20)");
  sc->add_option("--by", a->by, "duration, bytes or bandwidth")
      ->check(CLI::IsMember({"duration", "bytes", "bandwidth"}));
  sc->add_option("--engine", a->engine, "tiu, gdma, sdma or cdma");
  return {sc, [&o, a] { return run_top(o, *a); }};
}

}  // namespace cli
