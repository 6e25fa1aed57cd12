/// algo::advisor: ranked findings with recoverable time. Each rule
/// (algo/advise/rules_*.hpp) proposes a fix; the what-if replay measures the
/// span each fix saves. Recoverable time is assigned once: the fixes are
/// applied one after another (largest alone first) and each finding gets the
/// span its fix removes on top of the earlier ones, capped at its bucket, so
/// the findings' sum never exceeds the span.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/algo/advise/context.hpp>
#include <tpuprof/algo/advise/fix_replay.hpp>
#include <tpuprof/algo/advise/rules_commands.hpp>
#include <tpuprof/algo/advise/rules_dma.hpp>
#include <tpuprof/algo/advise/rules_wait.hpp>
#include <tpuprof/algo/idle_causes.hpp>

namespace tpuprof::algo {

enum class severity : std::uint8_t { info = 0, warn, error };

constexpr std::string_view name(severity s) noexcept {
  constexpr std::array<std::string_view, 3> n{"info", "warn", "error"};
  return n[static_cast<std::size_t>(s)];
}

/// One finding: a rule, what it blames, and the time fixing it recovers.
struct finding {
  std::string id;  ///< "F1", "F2", ... in rank order
  std::string_view rule;
  algo::severity severity = severity::info;
  double recoverable_ns = 0;            ///< span saved by the fix, on top of the earlier findings
  double bucket_ns = 0;                 ///< time the rule looked at (recoverable <= bucket)
  std::vector<std::int32_t> layers;     ///< most time first
  std::vector<std::uint32_t> commands;  ///< graph nodes, most time first
  std::string message;
};

struct advice {
  double span_ns = 0;
  std::vector<finding> findings;  ///< most recoverable first
};

/// Severity thresholds as shares of the span.
struct advise_thresholds {
  double warn = 0.05, error = 0.2;
  double keep = 0.001;  ///< findings recovering less than this share of the span are dropped
  std::size_t max_layers = 10, max_commands = 20;
};

namespace detail {

/// Plain-language explanation and what to try, per rule.
inline std::string advice_text(std::string_view rule) {
  if (rule == "starved-tiu")
    return "TIU waits for DMA transfers that run far slower than transfers of their size "
           "(strided or gathered reads). Try: a contiguous layout for these tensors, a transpose "
           "done once in local memory, or prefetching them earlier.";
  if (rule == "serial-dma")
    return "DMA and TIU wait for each other in turn: a load starts only after the compute "
           "before it, and the next compute waits for the load (no overlap). Try: double-buffer "
           "(ping-pong local memory) so loads run ahead; fuse the layers into a layer group.";
  if (rule == "lane-underuse")
    return "conv / matmul commands run far below their op's usual uArch rate: channels not a "
           "multiple of the NPU lane count leave lanes idle. Try: pad or reorder channels to a "
           "multiple of the lane count, or fold spatial dimensions into channels.";
  if (rule == "low-uarch")
    return "commands run far below their op's usual uArch rate (shapes that waste execution "
           "units). Try: aligned shapes, another data layout, or a fused op.";
  if (rule == "bank-conflict")
    return "TIU commands read and write the same local-memory bank. Try: allocate the output "
           "in another bank (the compiler's lmem allocation / bank-aware layout).";
  if (rule == "small-dma")
    return "DMA transfers too small to reach the bandwidth the capture shows for large ones. "
           "Try: merge transfers (larger tiles, contiguous layouts), fewer strided slices.";
  if (rule == "core-imbalance")
    return "one core does more work than the others and the rest wait for it. Try: split the "
           "work evenly (core-parallel slicing on another axis).";
  if (rule == "dispatch")
    return "engines wait for commands that were not issued yet (firmware / MCU issue latency). "
           "Try: larger commands or fewer of them, static compilation instead of dynamic.";
  if (rule == "over-estimate")
    return "layers take far longer than the compiler's estimate (net_stat.sim). Check the "
           "bandwidth and the dependencies of these layers; the cost model may miss a stall.";
  return {};
}

/// Layers and commands of a candidate, most time first.
inline void fill_evidence(const dependency_graph& g, const advise::candidate& k,
                          const advise_thresholds& th, finding& f) {
  std::map<std::uint32_t, double> by_node;
  std::map<std::int32_t, double> by_layer;
  for (auto [n, ns] : k.evidence) {
    by_node[n] += ns;
    if (g.events[n].layer_id >= 0) by_layer[g.events[n].layer_id] += ns;
  }
  std::vector<std::pair<double, std::uint32_t>> nodes;
  for (auto [n, ns] : by_node) nodes.emplace_back(-ns, n);
  std::sort(nodes.begin(), nodes.end());
  for (std::size_t i = 0; i < nodes.size() && i < th.max_commands; ++i)
    f.commands.push_back(nodes[i].second);
  std::vector<std::pair<double, std::int32_t>> layers;
  for (auto [l, ns] : by_layer) layers.emplace_back(-ns, l);
  std::sort(layers.begin(), layers.end());
  for (std::size_t i = 0; i < layers.size() && i < th.max_layers; ++i)
    f.layers.push_back(layers[i].second);
}

}  // namespace detail

/// Every rule over `c`, ranked. `c.g` must outlive the call.
inline advice advise_findings(const advise::context& c, const advise_thresholds& th = {}) {
  advice out;
  const dependency_graph& g = *c.g;
  if (g.size() == 0) return out;
  std::vector<advise::candidate> cands;
  auto add = [&](std::vector<advise::candidate>&& v) {
    for (auto& k : v) cands.push_back(std::move(k));
  };
  add(advise::serial_dma_rule(c));
  add(advise::dma_rules(c));
  add(advise::dispatch_rule(c));
  add(advise::core_imbalance_rule(c));
  add(advise::uarch_rules(c));
  add(advise::bank_conflict_rule(c));
  add(advise::over_estimate_rule(c));
  advise::fix_replay r(g);
  out.span_ns = r.measured_span();
  const double base = r.base_span();
  std::vector<std::pair<double, std::size_t>> alone;  // standalone saving, candidate
  std::vector<double> alone_span(cands.size());
  for (std::size_t i = 0; i < cands.size(); ++i) {
    alone_span[i] = r.span_with(cands[i].f, false);
    alone.emplace_back(-(base - alone_span[i]), i);
  }
  std::sort(alone.begin(), alone.end());
  double cur = base;
  for (std::size_t j = 0; j < alone.size(); ++j) {
    const std::size_t i = alone[j].second;
    const advise::candidate& k = cands[i];
    // The first fix lands on no other: its replay is the standalone one.
    double next = alone_span[i];
    if (j == 0)
      r.keep(k.f);
    else
      next = r.span_with(k.f, true);
    finding f;
    f.rule = k.rule;
    f.bucket_ns = k.bucket_ns;
    f.recoverable_ns = std::clamp(cur - next, 0.0, k.bucket_ns);
    cur = next;
    detail::fill_evidence(g, k, th, f);
    f.message = detail::advice_text(k.rule);
    if (!k.what.empty()) f.message += " (" + k.what + ")";
    out.findings.push_back(std::move(f));
  }
  std::stable_sort(
      out.findings.begin(), out.findings.end(),
      [](const finding& a, const finding& b) { return a.recoverable_ns > b.recoverable_ns; });
  // What the earlier fixes left of a finding may be nothing (its commands' time was already
  // recovered): below th.keep of the span it is no finding.
  std::erase_if(out.findings,
                [&](const finding& f) { return !(f.recoverable_ns >= th.keep * out.span_ns); });
  for (std::size_t i = 0; i < out.findings.size(); ++i) {
    finding& f = out.findings[i];
    f.id = "F" + std::to_string(i + 1);
    const double share = out.span_ns > 0 ? f.recoverable_ns / out.span_ns : 0;
    f.severity = share >= th.error  ? severity::error
                 : share >= th.warn ? severity::warn
                                    : severity::info;
    // Hints, not faults: the median rate of an op may not be reachable by every shape, and
    // the compiler's estimate is a model.
    if (f.rule == "low-uarch") f.severity = severity::info;
    if (f.rule == "over-estimate" && f.severity == severity::error) f.severity = severity::warn;
  }
  return out;
}

/// The context of a graph: its idle causes, no operands, no estimate.
inline advise::context make_context(const dependency_graph& g, const name_table& names,
                                    const chip_ceilings& ceilings = {}) {
  advise::context c;
  c.g = &g;
  c.names = &names;
  c.idle = idle_causes(g);
  c.ceilings = ceilings;
  return c;
}

}  // namespace tpuprof::algo
