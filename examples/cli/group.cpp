// tpuprof group: count/sum/mean/min/max/p50/p99 per op, function, layer, engine or core.
// By layer, also each layer's type and name (the decoded layer spans and
// global.profile) and, where the dump has net_stat.sim, the compiler's estimate.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/algo/diff.hpp>
#include <tpuprof/algo/group_stats.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/net_stat.hpp>
#include <tpuprof/io/mapped_file.hpp>
#include <tpuprof/trace.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct group_options {
  std::string by = "op";
  std::string format = "table";
};

/// What is known of one compiler layer besides its events.
struct layer_meta {
  std::string type;  ///< "Conv2D(L)": the layer span's name (L = local, G = global)
  std::string name;  ///< global.profile layer_name, else the net_stat.sim item name
  double estimate_ns = std::numeric_limits<double>::quiet_NaN();  ///< sum of net_stat.sim costs
};

struct layer_table {
  std::map<std::int64_t, layer_meta> layers;
  bool has_estimate = false, has_name = false;
};

/// `file` in the input directory, parsed by `parse`; nullopt when absent or bad.
template <class F>
auto parse_input_file(const std::string& dir, const char* file, F parse)
    -> std::optional<decltype(parse(std::declval<const io::byte_reader&>()))> {
  const auto p = std::filesystem::path(dir) / file;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) return std::nullopt;
  try {
    io::mapped_file m(p.string());
    return parse(io::byte_reader(m.bytes(), p.string()));
  } catch (const decode_error&) {
    return std::nullopt;  // the decode already reported what was wrong with it
  }
}

/// Layer types from the decoded layer spans; names from global.profile and the
/// compiler's estimate from net_stat.sim when the input directory has them.
layer_table layer_info(const trace& t, const std::string& dir) {
  layer_table lt;
  for (const engine_event& s : t.spans())
    if (s.engine == engine::layer && s.layer_id >= 0)
      lt.layers.try_emplace(s.layer_id).first->second.type = std::string(t.info().names[s.op]);
  decode_diagnostics ignored;
  if (lt.layers.empty()) return lt;  // no layer spans: not a dump with a layer table
  if (auto g = parse_input_file(dir, "global.profile", [&](const io::byte_reader& r) {
        return bmprofile::parse_global_profile(r, ignored);
      }))
    for (const auto& sub : g->subnets)
      for (const auto& l : sub.layers)
        if (!l.layer_name.empty()) lt.layers[l.layer_id].name = l.layer_name;
  if (auto ns = parse_input_file(dir, "net_stat.sim", [&](const io::byte_reader& r) {
        return bmprofile::parse_net_stat(r, ignored);
      })) {
    for (const auto* items : {&ns->tiu, &ns->gdma})
      for (const auto& it : *items) {
        if (it.layer_id < 0) continue;
        auto& m = lt.layers[it.layer_id];
        m.estimate_ns = (std::isnan(m.estimate_ns) ? 0 : m.estimate_ns) + it.cost_ns;
        if (m.name.empty()) m.name = it.name;
        lt.has_estimate = true;
      }
  }
  for (const auto& [id, m] : lt.layers) lt.has_name = lt.has_name || !m.name.empty();
  return lt;
}

/// `l` as a CSV cell (quoted when it holds a comma, quote or newline).
std::string csv_cell(std::string l) {
  if (l.find_first_of(",\"\n") == std::string::npos) return l;
  std::string q = "\"";
  for (char c : l) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

const layer_meta* meta_of(const layer_table& lt, const group_stats& g) {
  if (g.by != group_key::layer) return nullptr;
  auto it = lt.layers.find(g.id);
  return it == lt.layers.end() ? nullptr : &it->second;
}

void print_group_json(const std::vector<group_stats>& groups, const group_options& a,
                      const trace& t, const layer_table& lt) {
  std::string s = "{\"by\":" + json_str(a.by) + ",\"groups\":[";
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const auto& g = groups[i];
    s += fmt::format(
        "{}{{\"key\":{},\"count\":{},\"sum_ns\":{},\"mean_ns\":{},\"min_ns\":{},\"max_ns\":{},"
        "\"p50_ns\":{},\"p99_ns\":{},\"bytes\":{},\"uarch_rate\":{}",
        i ? "," : "", json_str(group_label(g, t.info())), g.count, json_num(g.sum_ns),
        json_num(g.mean_ns), json_num(g.min_ns), json_num(g.max_ns), json_num(g.p50_ns),
        json_num(g.p99_ns), g.bytes, json_num(g.uarch_rate));
    if (g.by == group_key::layer) {
      const layer_meta* m = meta_of(lt, g);
      s += fmt::format(",\"layer_id\":{},\"layer_type\":{},\"layer_name\":{},\"estimate_ns\":{}",
                       g.id >= 0 ? std::to_string(g.id) : "null",
                       m && !m->type.empty() ? json_str(m->type) : "null",
                       m && !m->name.empty() ? json_str(m->name) : "null",
                       json_num(m ? m->estimate_ns : std::nan("")));
    }
    s += "}";
  }
  fmt::print("{}]}}\n", s);
}

/// The table; by layer with type, name and the estimate when they are known.
void print_group_table(const std::vector<group_stats>& groups, const group_options& a,
                       const trace& t, const layer_table& lt) {
  const bool layer = a.by == "layer" && !lt.layers.empty();
  std::vector<column> cols{{a.by, layer ? 8u : 28u, true, 9}};
  if (layer) cols.push_back({"type", 14, true, 7});
  if (layer && lt.has_name) cols.push_back({"name", 16, true, 5});
  for (column c : std::vector<column>{{"count", 8, false, 6},
                                      {"sum_us", 14, false, 8},
                                      {"mean_ns", 11, false, 4},
                                      {"min_ns", 11, false, 1},
                                      {"max_ns", 11, false, 2},
                                      {"p50_ns", 11, false, 1},
                                      {"p99_ns", 11, false, 2},
                                      {"bytes", 14, false, 3},
                                      {"uArch%", 8, false, 3}})
    cols.push_back(c);
  if (layer && lt.has_estimate) {
    cols.push_back({"est_us", 12, false, 7});
    cols.push_back({"meas/est", 9, false, 7});
  }
  text_table tb(cols);
  for (const auto& g : groups) {
    std::vector<std::string> r{group_label(g, t.info())};
    const layer_meta* m = meta_of(lt, g);
    if (layer) r.push_back(m ? m->type : "");
    if (layer && lt.has_name) r.push_back(m ? m->name : "");
    for (auto& c : {std::to_string(g.count), fmt::format("{:.3f}", g.sum_ns / 1e3),
                    fmt::format("{:.1f}", g.mean_ns), fmt::format("{:.0f}", g.min_ns),
                    fmt::format("{:.0f}", g.max_ns), fmt::format("{:.0f}", g.p50_ns),
                    fmt::format("{:.0f}", g.p99_ns), std::to_string(g.bytes),
                    std::isnan(g.uarch_rate) ? std::string("unknown") : num(g.uarch_rate * 100, 2)})
      r.push_back(c);
    if (layer && lt.has_estimate) {
      const double est = m ? m->estimate_ns : std::nan("");
      r.push_back(num(est / 1e3, 3));
      r.push_back(est > 0 ? num(g.sum_ns / est, 2) : "");
    }
    tb.row(std::move(r));
  }
  print_table(tb);
}

int run_group(const common_options& o, const group_options& a) {
  progress p(o.show_progress, o.progress_color);
  auto t = load(o, p);
  const group_key key = parse_group_key(a.by);
  auto groups = t.events() | algo::group_stats_by(key);
  std::sort(groups.begin(), groups.end(),
            [](const group_stats& x, const group_stats& y) { return x.sum_ns > y.sum_ns; });
  const layer_table lt = key == group_key::layer ? layer_info(t, o.input) : layer_table{};
  auto label = [&](const group_stats& g) { return group_label(g, t.info()); };
  if (a.format == "csv") {
    const bool layer = key == group_key::layer && !lt.layers.empty();
    fmt::print("{},count,sum_ns,mean_ns,min_ns,max_ns,p50_ns,p99_ns,bytes,uarch_rate{}\n", a.by,
               layer ? ",layer_type,layer_name,estimate_ns" : "");
    for (const auto& g : groups) {
      fmt::print("{},{},{},{},{},{},{},{},{},{}", csv_cell(label(g)), g.count, num(g.sum_ns),
                 num(g.mean_ns), num(g.min_ns), num(g.max_ns), num(g.p50_ns), num(g.p99_ns),
                 g.bytes, num(g.uarch_rate, 4));
      const layer_meta* m = meta_of(lt, g);
      if (layer)
        fmt::print(",{},{},{}", csv_cell(m ? m->type : ""), csv_cell(m ? m->name : ""),
                   m ? num(m->estimate_ns) : "");
      fmt::print("\n");
    }
  } else if (a.format == "json") {
    print_group_json(groups, a, t, lt);
  } else {
    print_group_table(groups, a, t, lt);
  }
  return finish(o, t);
}

}  // namespace

subcommand register_group(CLI::App& app, common_options& o) {
  auto a = std::make_shared<group_options>();
  auto* sc = app.add_subcommand(
      "group", "count/sum/mean/min/max/p50/p99 per op, function, layer, engine or core");
  add_common(sc, o);
  sc->add_option("--by", a->by, "op, op_type, function, layer, engine or core")
      ->check(CLI::IsMember({"op", "op_type", "function", "layer", "engine", "core"}));
  sc->add_option("--format", a->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  return {sc, [&o, a] { return run_group(o, *a); }};
}

}  // namespace cli
