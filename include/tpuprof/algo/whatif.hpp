/// algo::whatif: re-schedules a dependency graph with measured durations and
/// measured issue latencies (no change reproduces the span), then with scaled
/// durations (`gdma=0.5`, `op:conv.normal=0.8`, `layer:12=0`, `core:1=2`):
/// the predicted span and the new critical path.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/names.hpp>

namespace tpuprof::algo {

/// One scaling rule: commands that match get their duration multiplied by `factor`.
struct scale_rule {
  enum class kind : std::uint8_t { engine, op, layer, core, function };
  kind what = kind::engine;
  tpuprof::engine eng = tpuprof::engine::tiu;
  std::string text;         ///< op or function name
  std::int64_t number = 0;  ///< layer id or core
  double factor = 1;
};

/// Parses `ENGINE=F`, `op:NAME=F`, `function:NAME=F`, `layer:ID=F` or
/// `core:N=F` (F >= 0, a duration factor: 0.5 = twice as fast). Throws
/// std::invalid_argument naming what is wrong.
inline scale_rule parse_scale(std::string_view spec) {
  const auto eq = spec.rfind('=');
  if (eq == std::string_view::npos || eq == 0)
    throw std::invalid_argument("scale '" + std::string(spec) + "': expected WHAT=FACTOR");
  scale_rule r;
  const std::string f(spec.substr(eq + 1));
  std::size_t used = 0;
  try {
    r.factor = std::stod(f, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != f.size() || f.empty() || !(r.factor >= 0) ||
      r.factor == std::numeric_limits<double>::infinity())
    throw std::invalid_argument("scale '" + std::string(spec) + "': not a factor >= 0: " + f);
  const auto what = spec.substr(0, eq);
  const auto colon = what.find(':');
  auto integer = [&](std::string_view s) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size() || s.empty())
      throw std::invalid_argument("scale '" + std::string(spec) +
                                  "': not an integer: " + std::string(s));
    return v;
  };
  if (colon == std::string_view::npos) {
    const auto e = parse_engine(what);
    if (!e || !is_hardware(*e))
      throw std::invalid_argument("scale '" + std::string(spec) + "': unknown engine '" +
                                  std::string(what) + "' (tiu, gdma, sdma, cdma)");
    r.eng = *e;
    return r;
  }
  const auto key = what.substr(0, colon), arg = what.substr(colon + 1);
  if (key == "op") {
    r.what = scale_rule::kind::op;
    r.text = std::string(arg);
  } else if (key == "function") {
    r.what = scale_rule::kind::function;
    r.text = std::string(arg);
  } else if (key == "layer") {
    r.what = scale_rule::kind::layer;
    r.number = integer(arg);
  } else if (key == "core") {
    r.what = scale_rule::kind::core;
    r.number = integer(arg);
  } else {
    throw std::invalid_argument("scale '" + std::string(spec) +
                                "': expected ENGINE, op:, function:, layer: or core:");
  }
  return r;
}

/// The duration factor of `e` under `rules` (product of the rules it matches).
inline double scale_factor(const engine_event& e, const std::vector<scale_rule>& rules,
                           const name_table& names) {
  double f = 1;
  for (const scale_rule& r : rules) {
    bool hit = false;
    switch (r.what) {
      case scale_rule::kind::engine:
        hit = e.engine == r.eng;
        break;
      case scale_rule::kind::op:
        hit = e.op != 0 && names[e.op] == r.text;
        break;
      case scale_rule::kind::function:
        hit = e.function != 0 && names[e.function] == r.text;
        break;
      case scale_rule::kind::layer:
        hit = e.layer_id == r.number;
        break;
      case scale_rule::kind::core:
        hit = e.engine != engine::cdma && e.unit == r.number;
        break;
    }
    if (hit) f *= r.factor;
  }
  return f;
}

/// A replayed schedule and its critical path.
struct whatif_result {
  double measured_span_ns = 0;
  double replayed_span_ns = 0;   ///< no change: within rounding of the measured span
  double predicted_span_ns = 0;  ///< with the factors
  std::uint64_t scaled = 0;      ///< commands whose duration changed
  schedule predicted;
  critical_path_result path;  ///< the critical path of the predicted schedule
};

namespace detail {

/// Re-schedules the graph: a node with predecessors starts at the latest
/// (predecessor end + lag), one without keeps its measured begin.
template <class Lag>
schedule replay(const dependency_graph& g, const std::vector<double>& factor, Lag&& lag) {
  schedule s;
  s.begin.assign(g.size(), 0);
  s.end.assign(g.size(), 0);
  for (std::uint32_t n : g.order) {
    const engine_event& e = g.events[n];
    double start = -std::numeric_limits<double>::infinity();
    bool any = false;
    for_each_pred(g, n, [&](std::uint32_t p, edge_kind k) {
      start = std::max(start, s.end[p] + lag(p, n, k));
      any = true;
    });
    s.begin[n] = any ? start : e.begin_ns;
    s.end[n] = s.begin[n] + e.dur_ns() * (factor.empty() ? 1.0 : factor[n]);
  }
  return s;
}

inline double span_of(const schedule& s) {
  if (s.begin.empty()) return 0;
  return *std::max_element(s.end.begin(), s.end.end()) -
         *std::min_element(s.begin.begin(), s.begin.end());
}

}  // namespace detail

/// Replays `g` unchanged and with `rules`; the predicted critical path is taken
/// on the predicted schedule (binding = the predecessor whose end + lag is latest).
inline whatif_result whatif(const dependency_graph& g, const std::vector<scale_rule>& rules,
                            const name_table& names) {
  whatif_result w;
  const critical_path_result measured_path = critical_path(g);
  const detail::lag_model lag{&g, &measured_path};
  w.measured_span_ns = measured_path.span_ns();
  w.replayed_span_ns = detail::span_of(detail::replay(g, {}, lag));
  std::vector<double> factor(g.size(), 1.0);
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    factor[n] = scale_factor(g.events[n], rules, names);
    if (factor[n] != 1.0) ++w.scaled;
  }
  w.predicted = detail::replay(g, factor, lag);
  w.predicted_span_ns = detail::span_of(w.predicted);
  std::uint32_t last = 0;
  detail::bind(g, detail::schedule_times{&w.predicted}, lag, w.path, last);
  detail::walk(g, detail::schedule_times{&w.predicted}, last, w.path);
  return w;
}

}  // namespace tpuprof::algo
