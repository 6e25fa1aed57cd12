// tpuprof critical-path: the dependency graph's critical path, its totals, and
// the idle time of every engine queue by cause (docs/analysis.md).
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/report/critical_path_summary.hpp>
#include <tpuprof/sinks/critical_path_marks.hpp>
#include <tpuprof/trace.hpp>
#include <tpuprof/views/track_layout.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct critical_path_options {
  std::string format = "table";
  std::size_t limit = 30;
};

/// The engines with events, in engine order.
std::vector<engine> engines_of(const trace& t) {
  std::vector<engine> out;
  for (std::size_t i = 0; i < engine_count; ++i)
    if (is_hardware(static_cast<engine>(i)) && !t.events(static_cast<engine>(i)).empty())
      out.push_back(static_cast<engine>(i));
  return out;
}

void print_json(const trace& t, const algo::dependency_graph& g,
                const algo::critical_path_result& cp, const std::vector<algo::queue_idle>& idle) {
  const track_layout lay(t.info());
  std::string s = fmt::format(
      "{{\"span_ns\":{},\"dependency_data\":{},\"dependencies\":{{\"resolved\":{},\"none\":{},"
      "\"unresolved\":{},\"violations\":{}}},\"path\":[",
      json_fixed(cp.span_ns()), g.has_data() ? "true" : "false", g.counts.resolved, g.counts.none,
      g.counts.unresolved, g.counts.violations);
  for (std::size_t i = 0; i < cp.path.size(); ++i) {
    const auto& st = cp.path[i];
    const engine_event& e = g.events[st.node];
    s += fmt::format(
        "{}{{\"engine\":\"{}\",\"core\":{},\"cmd_id\":{},\"begin_ns\":{},\"end_ns\":{},\"via\":\"{}"
        "\",\"latency_ns\":{}}}",
        i ? "," : "", json_engine(e.engine), e.unit, e.cmd_id,
        json_fixed(st.begin_ns - lay.origin_ns), json_fixed(st.end_ns - lay.origin_ns),
        name(st.via), json_fixed(st.latency_ns));
  }
  s += "],\"path_by_engine_ns\":{";
  for (engine en : engines_of(t))
    s += fmt::format("\"{}\":{},", json_engine(en),
                     json_fixed(cp.by_engine_ns[static_cast<std::size_t>(en)]));
  s += fmt::format("\"latency\":{}}},\"idle\":[", json_fixed(cp.latency_ns));
  for (std::size_t i = 0; i < idle.size(); ++i) {
    const auto& q = idle[i];
    s += fmt::format("{}{{\"engine\":\"{}\",\"core\":{},\"total_ns\":{},\"by_cause_ns\":{{",
                     i ? "," : "", json_engine(q.track.eng), q.track.unit, json_fixed(q.total_ns));
    for (std::size_t c = 0; c < algo::idle_cause_count; ++c)
      s += fmt::format("{}\"{}\":{}", c ? "," : "", name(static_cast<algo::idle_cause>(c)),
                       json_fixed(q.by_cause_ns[c]));
    s += "}}";
  }
  s += "]}\n";
  std::fputs(s.c_str(), stdout);
}

void print_totals(const trace& t, const algo::critical_path_result& cp) {
  const double span = cp.span_ns();
  auto pct = [&](double v) { return span > 0 ? num(100 * v / span, 1) : std::string(); };
  fmt::print("\ncritical path by engine\n{:<8} {:>14} {:>7}\n", "engine", "ns", "%");
  for (engine en : engines_of(t)) {
    const double v = cp.by_engine_ns[static_cast<std::size_t>(en)];
    fmt::print("{:<8} {:>14} {:>7}\n", name(en), num(v, 0), pct(v));
  }
  fmt::print("{:<8} {:>14} {:>7}\n", "latency", num(cp.latency_ns, 0), pct(cp.latency_ns));
  std::vector<std::pair<double, std::string>> ops;
  for (auto [op, v] : cp.by_op_ns)
    ops.emplace_back(v, op ? std::string(t.info().names[op]) : "unknown");
  std::sort(ops.rbegin(), ops.rend());
  fmt::print("\ncritical path by op (top 10)\n{:<28} {:>14} {:>7}\n", "op", "ns", "%");
  for (std::size_t i = 0; i < ops.size() && i < 10; ++i)
    fmt::print("{:<28} {:>14} {:>7}\n", ops[i].second, num(ops[i].first, 0), pct(ops[i].first));
  std::vector<std::pair<double, std::int32_t>> layers;
  for (auto [l, v] : cp.by_layer_ns) layers.emplace_back(v, l);
  std::sort(layers.rbegin(), layers.rend());
  fmt::print("\ncritical path by layer (top 10; -1 = none)\n{:<8} {:>14} {:>7}\n", "layer", "ns",
             "%");
  for (std::size_t i = 0; i < layers.size() && i < 10; ++i)
    fmt::print("{:<8} {:>14} {:>7}\n", layers[i].second, num(layers[i].first, 0),
               pct(layers[i].first));
}

void print_table(const trace& t, const algo::dependency_graph& g,
                 const algo::critical_path_result& cp, const std::vector<algo::queue_idle>& idle,
                 std::size_t limit) {
  const track_layout lay(t.info());
  fmt::print("span {} ns, {} commands\n", num(cp.span_ns(), 0), g.size());
  if (g.has_data())
    fmt::print("dependencies: {} resolved, {} none, {} unresolved, {} violations\n",
               g.counts.resolved, g.counts.none, g.counts.unresolved, g.counts.violations);
  else
    fmt::print("dependencies: no dependency data (engine order only)\n");
  if (g.counts.no_data && g.has_data())
    fmt::print("  {} commands without dependency data\n", g.counts.no_data);
  if (g.counts.sync_pairs)  // send / wait messages (docs/analysis.md, "Sync messages")
    fmt::print("  {} waits paired with a send (sync messages)\n", g.counts.sync_pairs);
  if (g.counts.self_waits || g.counts.backward)
    fmt::print("  not used: {} waits for the command itself, {} edges pointing backwards in time\n",
               g.counts.self_waits, g.counts.backward);
  const std::size_t first = cp.path.size() > limit ? cp.path.size() - limit : 0;
  fmt::print(
      "\ncritical path: {} commands{}\n{:>5} {:<5} {:>4} {:>8} {:<24} {:>12} {:>10} {:<13} "
      "{:>10}\n",
      cp.path.size(), first ? fmt::format(" (last {})", limit) : "", "step", "eng", "core",
      "cmd_id", "op", "begin_us", "dur_ns", "via", "latency_ns");
  for (std::size_t i = first; i < cp.path.size(); ++i) {
    const auto& st = cp.path[i];
    const engine_event& e = g.events[st.node];
    fmt::print("{:>5} {:<5} {:>4} {:>8} {:<24} {:>12.3f} {:>10} {:<13} {:>10}\n", i, name(e.engine),
               e.unit, e.cmd_id, op_text(t.info(), e), (st.begin_ns - lay.origin_ns) / 1e3,
               num(st.end_ns - st.begin_ns, 0), name(st.via), num(st.latency_ns, 0));
  }
  print_totals(t, cp);
  fmt::print("\nidle by cause (ns)\n{:>3} {:>4} {:<5} {:>12}", "dev", "unit", "eng", "idle");
  for (std::size_t c = 0; c < algo::idle_cause_count; ++c)
    fmt::print(" {:>12}", name(static_cast<algo::idle_cause>(c)));
  fmt::print("\n");
  for (const auto& q : idle) {
    fmt::print("{:>3} {:>4} {:<5} {:>12}", q.track.device, q.track.unit, name(q.track.eng),
               num(q.total_ns, 0));
    for (double v : q.by_cause_ns) fmt::print(" {:>12}", num(v, 0));
    fmt::print("\n");
  }
}

int run_critical_path(const common_options& o, const critical_path_options& a) {
  progress p(o.show_progress, o.progress_color);
  auto t = load(analysis_options(o), p, false, true);
  const auto g = algo::build_dependency_graph(t);
  const auto cp = algo::critical_path(g);
  const auto idle = algo::idle_causes(g);
  if (a.format == "json")
    print_json(t, g, cp, idle);
  else
    print_table(t, g, cp, idle, a.limit);
  return finish(o, t);
}

}  // namespace

sinks::slice_marks critical_path_marks(const common_options& o, const trace& shown, progress& p) {
  const common_options a = analysis_options(o);
  if (a.time_base == o.time_base && shown.has_dependencies()) {
    const auto g = algo::build_dependency_graph(shown);
    return sinks::critical_path_marks(g, algo::critical_path(g), shown.events());
  }
  const auto t = load(a, p, false, true);
  const auto g = algo::build_dependency_graph(t);
  return sinks::critical_path_marks(g, algo::critical_path(g), shown.events());
}

std::optional<report::critical_path_summary> report_critical_path(const common_options& o,
                                                                  const trace& shown, progress& p) {
  if (!shown.has_dependencies()) return std::nullopt;
  auto summarize = [&](const trace& t) {
    const auto g = algo::build_dependency_graph(t);
    const auto cp = algo::critical_path(g);
    return report::summarize_critical_path(g, cp, algo::idle_causes(g), shown.events());
  };
  const common_options a = analysis_options(o);
  if (a.time_base == o.time_base) return summarize(shown);
  return summarize(load(a, p, false, true));
}

subcommand register_critical_path(CLI::App& app, common_options& o) {
  auto a = std::make_shared<critical_path_options>();
  auto* sc = app.add_subcommand(
      "critical-path", "the critical path over engine order and command dependencies; idle causes");
  add_common(sc, o);
  sc->add_option("--format", a->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  sc->add_option("-n", a->limit,
                 "table: how many of the path's last commands to list (default 30)");
  return {sc, [&o, a] { return run_critical_path(o, *a); }};
}

}  // namespace cli
