// tpuprof whatif: replays the dependency graph with measured durations and issue
// latencies, then with scaled durations; the predicted span and critical path.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/whatif.hpp>
#include <tpuprof/trace.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct whatif_options {
  std::vector<std::string> scale;
  std::string format = "table";
};

int run_whatif(const common_options& o, const std::vector<algo::scale_rule>& rules,
               const std::string& format) {
  progress p(o.show_progress, o.progress_color);
  auto t = load(analysis_options(o), p, false, true);
  const auto g = algo::build_dependency_graph(t);
  const auto w = algo::whatif(g, rules, t.info().names);
  std::vector<engine> engines;
  for (std::size_t i = 0; i < engine_count; ++i)
    if (is_hardware(static_cast<engine>(i)) && !t.events(static_cast<engine>(i)).empty())
      engines.push_back(static_cast<engine>(i));
  if (format == "json") {
    std::string s = fmt::format(
        "{{\"measured_span_ns\":{},\"replayed_span_ns\":{},\"predicted_span_ns\":{},"
        "\"path_by_engine_ns\":{{",
        json_fixed(w.measured_span_ns), json_fixed(w.replayed_span_ns),
        json_fixed(w.predicted_span_ns));
    for (engine en : engines)
      s += fmt::format("\"{}\":{},", json_engine(en),
                       json_fixed(w.path.by_engine_ns[static_cast<std::size_t>(en)]));
    s += fmt::format("\"latency\":{}}}}}\n", json_fixed(w.path.latency_ns));
    std::fputs(s.c_str(), stdout);
    return finish(o, t);
  }
  if (!g.has_data()) fmt::print("no dependency data: engine order only\n");
  const double m = w.measured_span_ns;
  auto rel = [&](double v) { return m > 0 ? num(100 * (v - m) / m, 2) : std::string(); };
  fmt::print("measured span   {:>14} ns\n", num(m, 0));
  fmt::print("replayed span   {:>14} ns  ({}% vs measured)\n", num(w.replayed_span_ns, 0),
             rel(w.replayed_span_ns));
  fmt::print("predicted span  {:>14} ns  ({}% vs measured; {} commands scaled)\n",
             num(w.predicted_span_ns, 0), rel(w.predicted_span_ns), w.scaled);
  fmt::print("\npredicted critical path: {} commands\n{:<8} {:>14}\n", w.path.path.size(), "engine",
             "ns");
  for (engine en : engines)
    fmt::print("{:<8} {:>14}\n", name(en),
               num(w.path.by_engine_ns[static_cast<std::size_t>(en)], 0));
  fmt::print("{:<8} {:>14}\n", "latency", num(w.path.latency_ns, 0));
  return finish(o, t);
}

}  // namespace

subcommand register_whatif(CLI::App& app, common_options& o) {
  auto a = std::make_shared<whatif_options>();
  auto* sc = app.add_subcommand(
      "whatif", "predicted span with scaled durations (replay of the dependency graph)");
  add_common(sc, o);
  sc->add_option("--scale", a->scale,
                 "duration factor: ENGINE=F (gdma=0.5), op:NAME=F, function:NAME=F, layer:ID=F, "
                 "core:N=F; repeatable")
      ->expected(1, -1);
  sc->add_option("--format", a->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  return {sc, [&o, a] {
            std::vector<algo::scale_rule> rules;
            try {
              for (const auto& s : a->scale) rules.push_back(algo::parse_scale(s));
            } catch (const std::invalid_argument& e) {
              std::fprintf(stderr, "tpuprof: --scale: %s\n", e.what());
              return int{usage};
            }
            return run_whatif(o, rules, a->format);
          }};
}

}  // namespace cli
