// tpuprof advise: ranked findings with the time fixing each recovers (what-if
// replay), and the roofline of every layer (docs/analysis.md, "advise").
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/trace.hpp>
#include <tpuprof/views/track_layout.hpp>

#include "advise_data.hpp"
#include "cli.hpp"
#include "registers.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct advise_options {
  std::string format = "text";
  std::size_t top = 0;  ///< 0 = all findings
  std::string fail_on;  ///< "", "warn" or "error"
};

void print_json(const trace& t, const advise_result& r, std::size_t top) {
  const track_layout lay(t.info());
  std::string s = fmt::format("{{\"span_ns\":{},\"findings\":[", json_num(r.advice.span_ns));
  for (std::size_t i = 0; i < r.advice.findings.size() && (top == 0 || i < top); ++i)
    s += (i ? "," : "") + finding_json(t, r, r.advice.findings[i], lay.origin_ns);
  s += "],\"layers\":[";
  for (std::size_t i = 0; i < r.layers.size(); ++i) {
    const auto& l = r.layers[i];
    s += fmt::format(
        "{}{{\"layer_id\":{},\"name\":{},\"bound\":\"{}\",\"alg_ops\":{},\"bytes\":{},"
        "\"ddr_bytes\":{},\"l2_bytes\":{},\"local_bytes\":{},\"tiu_ns\":{},\"dma_ns\":{},"
        "\"window_ns\":{},\"intensity\":{},\"achieved_ops_per_s\":{},\"attainable_ops_per_s\":{}}}",
        i ? "," : "", l.layer_id, json_str(r.layer_names[i]), name(l.bound), json_num(l.alg_ops),
        l.bytes, l.ddr_bytes, l.l2_bytes, l.local_bytes, json_num(l.tiu_ns), json_num(l.dma_ns),
        json_num(l.window_ns()), json_num(l.intensity), json_num(l.achieved_ops_per_s),
        json_num(l.attainable_ops_per_s));
  }
  s += "]}\n";
  std::fputs(s.c_str(), stdout);
}

void print_text(const advise_result& r, std::size_t top) {
  const auto& a = r.advice;
  fmt::print("span {} ns; {} finding(s)\n", num(a.span_ns, 0), a.findings.size());
  if (!r.graph.has_data())
    fmt::print("no dependency data (SG2260 modes 0/1): wait rules and bound classes unknown\n");
  double total = 0;
  for (std::size_t i = 0; i < a.findings.size() && (top == 0 || i < top); ++i) {
    const auto& f = a.findings[i];
    total += f.recoverable_ns;
    fmt::print("\n{} [{}] {}: {} ns recoverable ({}% of span)\n", f.id, name(f.severity), f.rule,
               num(f.recoverable_ns, 0),
               num(a.span_ns > 0 ? 100 * f.recoverable_ns / a.span_ns : 0, 1));
    fmt::print("  {}\n", f.message);
    if (!f.layers.empty()) {
      std::string l;
      for (auto id : f.layers) l += (l.empty() ? "" : ", ") + std::to_string(id);
      fmt::print("  layers: {}\n", l);
    }
    std::string c;
    for (std::size_t k = 0; k < f.commands.size() && k < 5; ++k) {
      const engine_event& e = r.graph.events[f.commands[k]];
      c += fmt::format("{}{} core {} cmd {}", c.empty() ? "" : ", ", name(e.engine), e.unit,
                       e.cmd_id);
    }
    if (!c.empty()) fmt::print("  commands: {}{}\n", c, f.commands.size() > 5 ? ", ..." : "");
  }
  if (!a.findings.empty())
    fmt::print("\nrecoverable in total: {} ns ({}% of span)\n", num(total, 0),
               num(a.span_ns > 0 ? 100 * total / a.span_ns : 0, 1));
  if (r.layers.empty()) return;
  std::size_t by[5]{};
  for (const auto& l : r.layers) ++by[static_cast<std::size_t>(l.bound)];
  fmt::print("\nlayers by bound: ");
  for (std::size_t b = 0; b < 5; ++b)
    fmt::print("{}{} {}", b ? ", " : "", name(static_cast<algo::bound_class>(b)), by[b]);
  fmt::print("\n");
}

int run_advise(const common_options& o, const advise_options& a) {
  progress p(o.show_progress, o.progress_color);
  auto t = load(analysis_options(o), p, true, true);
  p.step("advising");
  // The descriptors (a second decode) give the roofline its alg ops; only dumps whose
  // commands carry operands have them (BM1684X, SG2260 mode 2).
  std::shared_ptr<register_source> regs;
  if (t.has_operands()) regs = std::make_shared<register_source>(o);
  const advise_result r = run_advisor(
      t, o.input,
      regs ? command_fn([&regs](const engine_event& e) { return (*regs)(e); }) : command_fn{});
  p.done();
  if (a.format == "json")
    print_json(t, r, a.top);
  else
    print_text(r, a.top);
  const int f = finish(o, t);
  if (f != ok || a.fail_on.empty()) return f;
  const auto level = a.fail_on == "error" ? algo::severity::error : algo::severity::warn;
  for (const auto& x : r.advice.findings)
    if (x.severity >= level) return findings;
  return ok;
}

}  // namespace

subcommand register_advise(CLI::App& app, common_options& o) {
  auto a = std::make_shared<advise_options>();
  auto* sc = app.add_subcommand(
      "advise", "ranked findings with recoverable time, and the roofline of every layer");
  add_common(sc, o);
  sc->add_option("--format", a->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sc->add_option("--top", a->top, "only the N findings that recover most (0 = all)");
  sc->add_option("--fail-on", a->fail_on, "exit 6 when a finding has this severity or worse")
      ->check(CLI::IsMember({"warn", "error"}));
  return {sc, [&o, a] { return run_advise(o, *a); }};
}

}  // namespace cli
