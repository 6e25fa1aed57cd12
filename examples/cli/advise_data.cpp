// The advisor over a decoded trace: context (idle causes, ceilings of the
// chip, operands, net_stat.sim estimate), findings and roofline.
#include "advise_data.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/chips/bm1684x/peak_ops.hpp>
#include <tpuprof/decode/bmprofile/net_stat.hpp>
#include <tpuprof/io/mapped_file.hpp>
#include <tpuprof/views/track_layout.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

/// The chip's roofline ceilings; zeros when the chip's traits state none.
chip_ceilings ceilings_of(const std::string& chip) {
  try {
    return with_chip(chips::all{}, chip, []<class C>() {
      if constexpr (requires { C::ceilings; })
        return chip_ceilings(C::ceilings);
      else
        return chip_ceilings{};
    });
  } catch (const std::invalid_argument&) {
    return {};
  }
}

/// Compiler estimate per layer (sum of net_stat.sim costs), when `dir` has one.
std::map<std::int32_t, double> estimates(const std::string& dir) {
  std::map<std::int32_t, double> out;
  const auto p = std::filesystem::path(dir) / "net_stat.sim";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) return out;
  try {
    io::mapped_file m(p.string());
    decode_diagnostics ignored;
    const auto ns = bmprofile::parse_net_stat(io::byte_reader(m.bytes(), p.string()), ignored);
    for (const auto* items : {&ns.tiu, &ns.gdma})
      for (const auto& it : *items)
        if (it.layer_id >= 0) out[it.layer_id] += it.cost_ns;
  } catch (const std::exception&) {
    out.clear();  // a bad estimate file only loses the over-estimate rule
  }
  return out;
}

/// Per node of `t`: the TIU commands' alg ops (the decoder's count, regs::instruction) and
/// the peak ops/s of their class and data type from the chip's traits (NaN: unknown). SYS
/// and other commands without operands do no work (the decoder's 1 is a placeholder): NaN.
std::pair<std::vector<double>, std::vector<double>> work_of(const trace& t,
                                                            const command_fn& command) {
  std::vector<double> ops, peak;
  if (!command) return {ops, peak};
  // Per-command peaks where the chip's folder states them (chips/bm1684x/peak_ops.hpp).
  using peak_fn = double (*)(unsigned, unsigned) noexcept;
  peak_fn pf = nullptr;
  try {
    pf = with_chip(chips::all{}, t.info().chip, []<class C>() -> peak_fn {
      if constexpr (std::is_same_v<C, chips::bm1684x>)
        return &chips::bm1684x_peak_ops_per_s;
      else
        return nullptr;
    });
  } catch (const std::invalid_argument&) {
    pf = nullptr;
  }
  const auto evs = t.events();
  ops.assign(evs.size(), algo::roofline_nan);
  peak.assign(evs.size(), algo::roofline_nan);
  for (std::size_t n = 0; n < evs.size(); ++n) {
    if (evs[n].engine != engine::tiu) continue;
    const regs::instruction* ins = command(evs[n]);
    if (!ins || !ins->alg_ops || ins->operands.empty()) continue;
    ops[n] = static_cast<double>(*ins->alg_ops);
    const double p = pf ? pf(ins->type, regs::bit_size(ins->in_type())) : 0;
    if (p > 0) peak[n] = p;
  }
  return {ops, peak};
}

}  // namespace

advise_result run_advisor(const trace& t, const std::string& dir, const command_fn& command) {
  advise_result r;
  r.graph = algo::build_dependency_graph(t);
  auto c = algo::make_context(r.graph, t.info().names, ceilings_of(t.info().chip));
  if (t.has_operands()) c.operands = [&t](std::uint32_t n) { return t.operands(t.events()[n]); };
  c.estimate_ns = estimates(dir);
  r.advice = algo::advise_findings(c);
  const auto [ops, peak] = work_of(t, command);
  r.layers = algo::roofline(r.graph, c.idle, c.ceilings, ops, peak);
  std::map<std::int32_t, std::string> names;
  for (const engine_event& s : t.spans())
    if (s.engine == engine::layer && s.layer_id >= 0 && s.op != 0)
      names.try_emplace(s.layer_id, std::string(t.info().names[s.op]));
  for (const auto& l : r.layers) {
    auto it = names.find(l.layer_id);
    r.layer_names.push_back(it == names.end() ? std::string() : it->second);
  }
  return r;
}

std::string finding_json(const trace& t, const advise_result& r, const algo::finding& f,
                         double origin_ns) {
  std::string s = fmt::format(
      "{{\"id\":{},\"rule\":{},\"severity\":\"{}\",\"recoverable_ns\":{},\"bucket_ns\":{},"
      "\"layers\":[",
      json_str(f.id), json_str(f.rule), name(f.severity), json_num(f.recoverable_ns),
      json_num(f.bucket_ns));
  for (std::size_t i = 0; i < f.layers.size(); ++i)
    s += fmt::format("{}{}", i ? "," : "", f.layers[i]);
  s += "],\"commands\":[";
  for (std::size_t i = 0; i < f.commands.size(); ++i) {
    const engine_event& e = r.graph.events[f.commands[i]];
    std::string en(name(e.engine));
    for (char& ch : en) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    s += fmt::format(
        "{}{{\"engine\":\"{}\",\"core\":{},\"cmd_id\":{},\"layer_id\":{},"
        "\"begin_ns\":{},\"end_ns\":{}}}",
        i ? "," : "", en, e.unit, e.cmd_id, e.layer_id, json_num(e.begin_ns - origin_ns),
        json_num(e.end_ns - origin_ns));
  }
  (void)t;
  return s + "],\"message\":" + json_str(f.message) + "}";
}

void with_advice(const common_options& o, const trace& shown, progress& p,
                 const std::function<void(const trace&, const advise_result&)>& use) {
  const common_options a = analysis_options(o);
  auto run = [&](const trace& t) {
    p.step("advising");
    const advise_result r = run_advisor(t, a.input);
    use(t, r);
  };
  if (a.time_base == o.time_base) return run(shown);
  run(load(a, p, true, true));
}

report::findings_summary report_findings(const trace& analysed, const advise_result& r,
                                         const trace& shown) {
  return report::summarize_findings(r.graph, r.advice, shown.events(),
                                    track_layout(analysed.info()).origin_ns);
}

void add_advise_marks(const advise_result& r, const trace& shown, sinks::slice_marks& m) {
  const auto ev = shown.events();
  if (!algo::same_commands(r.graph.events, ev))
    throw std::invalid_argument("convert --advise: the events shown are not the analysed ones");
  for (const algo::finding& f : r.advice.findings) {
    sinks::slice_note n{f.id,
                        std::string(f.rule),
                        std::string(name(f.severity)),
                        f.message,
                        f.recoverable_ns,
                        std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity()};
    for (std::uint32_t c : f.commands) {
      n.begin_ns = std::min(n.begin_ns, ev[c].begin_ns);
      n.end_ns = std::max(n.end_ns, ev[c].end_ns);
    }
    if (f.commands.empty()) n.begin_ns = n.end_ns = shown.info().begin_ns;
    m.notes.push_back(std::move(n));
    const auto id = static_cast<std::uint32_t>(m.notes.size());
    for (std::uint32_t c : f.commands)
      if (sinks::slice_mark& k = m.at(ev[c]); !k.note) k.note = id;
  }
}

}  // namespace cli
