// synth --inject: one known fault per dump (synth/inject.hpp). For every rule, on BM1684X and
// SG2260 mode 2 (AKS), over several seeds: the faulted dump decodes without diagnostics, the
// reported cost is the decoded span difference to the clean dump, and the fault is visible in
// the decoded fields (shapes, addresses, dependencies, times), not only in the report.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>
#include <tpuprof/synth/cdm_synth.hpp>
#include <tpuprof/synth/inject.hpp>

using tpuprof::engine;
using tpuprof::engine_event;
using tpuprof::synth::fault;

namespace {

/// A generated dump decoded twice: through open() (diagnostics, operands) and through the typed
/// decoder (instructions: shapes, dependencies, ops).
struct decoded {
  std::vector<std::pair<std::string, std::vector<std::byte>>> files;
  tpuprof::synth::inject_record what;
  double expected_span = 0;
  std::size_t expected_events = 0;
  tpuprof::trace t;
  std::vector<engine_event> ev;  ///< typed decoder's events
  std::function<const tpuprof::regs::instruction*(const engine_event&)> cmd;
  std::shared_ptr<void> keep;  ///< the typed decoder

  double span() const {
    std::vector<engine_event> hw;
    for (const auto& e : t.events())
      if (e.engine <= engine::cdma) hw.push_back(e);
    return tpuprof::synth::hw_span_ns(hw);
  }
  /// The event of an injected command.
  const engine_event* find(const tpuprof::synth::injected_command& c) const {
    for (const auto& e : ev)
      if (e.unit == c.core && e.engine == c.eng && e.cmd_id == c.cmd_id) return &e;
    return nullptr;
  }
};

void open_both(decoded& d) {
  tpuprof::open_options oo;
  oo.keep_operands = true;
  d.t = tpuprof::open(tpuprof::synth::as_dump_files(d.files), oo);
}

decoded bm1684x(std::uint64_t seed, fault f) {
  tpuprof::synth::bm1684x_options o;
  o.seed = seed;
  o.layers = 150;
  o.deps.enabled = true;
  o.inject = f;
  decoded d;
  auto g = tpuprof::synth::bm1684x_dump(o, &d.what);
  d.expected_span = tpuprof::synth::hw_span_ns(g.expected);
  d.expected_events = g.expected.size();
  d.files = std::move(g.files);
  open_both(d);
  using dec = tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x>;
  auto dd = std::make_shared<dec>(tpuprof::synth::as_dump_files(d.files));
  for (const auto& e : dd->events()) d.ev.push_back(e);
  d.cmd = [p = dd.get()](const engine_event& e) { return p->command(e); };
  d.keep = dd;
  return d;
}

decoded aks(std::uint64_t seed, fault f) {
  tpuprof::synth::cdm_synth_options o;
  o.mode = 2;
  o.records = 300;
  o.cores = 2;
  o.seed = seed;
  o.deps.enabled = true;
  o.inject = f;
  decoded d;
  auto r = tpuprof::synth::synthesize_cdm<tpuprof::chips::aks>(o, &d.what);
  d.expected_span = tpuprof::synth::hw_span_ns(r.expected.hw);
  d.expected_events = r.expected.hw.size();
  for (auto& [n, b] : r.files) d.files.emplace_back(n, std::move(b));
  open_both(d);
  tpuprof::cdm::cdm_options co;
  co.keep_instructions = true;
  using dec = tpuprof::cdm::cdm_decoder<tpuprof::chips::aks>;
  auto dd = std::make_shared<dec>(tpuprof::synth::as_dump_files(d.files), co);
  for (const auto& e : dd->events()) d.ev.push_back(e);
  d.cmd = [p = dd.get()](const engine_event& e) { return p->command(e); };
  d.keep = dd;
  return d;
}

/// Local-memory bank (16 KiB) of a lane offset.
std::uint64_t bank(std::uint64_t a) {
  return a % (std::uint64_t{1} << 18) / 16384;
}

/// TIU commands whose first local input and local output share a bank (trace.operands()).
std::size_t same_bank(const decoded& d, const engine_event& e) {
  const auto ops = d.t.operands(e);
  const tpuprof::regs::mem_operand *in = nullptr, *out = nullptr;
  for (const auto& m : ops) {
    if (m.kind != tpuprof::regs::mem_kind::local) continue;
    if (!m.write && !in) in = &m;
    if (m.write && !out) out = &m;
  }
  return in && out && bank(in->address) == bank(out->address) ? 1 : 0;
}

/// Whether TIU / GDMA events of `d` on `unit` other than `x` run inside (lo, hi).
bool busy(const decoded& d, unsigned unit, double lo, double hi, engine only, bool any = false) {
  for (const auto& e : d.ev)
    if (e.unit == unit && (any ? e.engine <= engine::gdma : e.engine == only) && e.begin_ns < hi &&
        e.end_ns > lo)
      return true;
  return false;
}

/// The fault's own evidence in the decoded fields of the faulted dump `d` (clean: `c`).
void check_visible(fault f, const decoded& d, const decoded& c, bool bm) {
  const auto& w = d.what;
  if (f == fault::core_imbalance) {
    REQUIRE(w.cores.size() == 1);
    double busy_ns[2] = {0, 0};
    for (const auto& e : d.ev)
      if (e.engine == engine::tiu && e.unit < 2) busy_ns[e.unit] += e.end_ns - e.begin_ns;
    const unsigned h = w.cores[0];
    CHECK(busy_ns[h] > 1.5 * busy_ns[1 - h]);  // x1.3 against x0.7
    return;
  }
  REQUIRE(!w.commands.empty());
  std::size_t n = 0;
  for (const auto& ic : w.commands) {
    const engine_event* e = d.find(ic);
    REQUIRE(e);
    const auto* in = d.cmd(*e);
    REQUIRE(in);
    switch (f) {
      case fault::lane_underuse: {  // the lane dimension: conv input channels, matmul rows
        REQUIRE(in->operands.size() >= 1);
        const bool conv = in->op.find("conv") != std::string_view::npos;
        // conv: n, c, h, w (BM1684X input channels, SG2260 output channels: the dimension the
        // chip pads to 64 lanes); matmul: rows, columns (the rows m)
        const std::uint64_t ch =
            conv ? (bm ? in->operands : in->results)[0].shape[1] : in->operands[0].shape[0];
        CHECK(ch % 64 != 0);
        CHECK(in->uarch_rate() < 0.9f);
        if (bm) CHECK(in->uarch_rate() == doctest::Approx(ch / ((ch + 63) / 64 * 64.0)));
        n += ch % 64 != 0;
        break;
      }
      case fault::bank_conflict:
        n += same_bank(d, *e);
        break;
      case fault::starved_tiu: {  // 1/12 of the bandwidth; a TIU command waits for it
        CHECK(e->bytes > 0);
        if (bm) CHECK(in->operands[0].stride[3] == 12);
        bool waited = false;
        for (const auto& t : d.ev)
          if (t.engine == engine::tiu && t.unit == e->unit && d.cmd(t) &&
              d.cmd(t)->dep_id == in->cmd_id)
            waited = true;
        n += waited;
        break;
      }
      case fault::small_dma:
        CHECK(e->bytes <= 256);
        n += e->bytes <= 256;
        break;
      case fault::serial_dma:  // waits for the other engine; nothing of it runs meanwhile
        CHECK(in->dep_id != 0);
        n += !busy(d, e->unit, e->begin_ns, e->end_ns,
                   e->engine == engine::tiu ? engine::gdma : engine::tiu) ||
             !bm;
        break;
      case fault::dispatch:  // >= 18 us where neither engine of its core runs (the other
                             // engine may start first: issue latencies differ)
        n += !busy(d, e->unit, e->begin_ns - 19000, e->begin_ns - 1000, engine::tiu, true);
        break;
      default:
        break;
    }
  }
  CHECK(n == w.commands.size());
  if (f == fault::bank_conflict) {  // the clean dump has none
    std::size_t clean = 0;
    for (const auto& e : c.ev)
      if (e.engine == engine::tiu) clean += same_bank(c, e);
    CHECK(clean == 0);
  }
  if (f == fault::small_dma) CHECK(w.commands.size() >= 50);
}

void check_rule(fault f, bool bm) {
  for (std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    const decoded c = bm ? bm1684x(seed, fault::none) : aks(seed, fault::none);
    const decoded d = bm ? bm1684x(seed, f) : aks(seed, f);
    CHECK(d.t.diagnostics().total() == 0);
    CHECK(d.ev.size() == d.expected_events);
    // the report's cost (from the generator's intended times) is the decoded span difference
    CHECK(d.span() == doctest::Approx(d.expected_span).epsilon(1e-9));
    CHECK(c.span() == doctest::Approx(c.expected_span).epsilon(1e-9));
    const double cost = d.expected_span - c.expected_span;
    CHECK(d.span() - c.span() == doctest::Approx(cost).epsilon(1e-9));
    CHECK(cost > 0.03 * c.span());  // a fault worth finding
    CHECK(cost < 0.8 * c.span());
    check_visible(f, d, c, bm);
  }
}

}  // namespace

TEST_CASE("synth --inject: rule names round-trip, unknown names are refused") {
  for (const char* r : {"starved-tiu", "serial-dma", "lane-underuse", "bank-conflict", "small-dma",
                        "core-imbalance", "dispatch"}) {
    const auto f = tpuprof::synth::parse_fault(r);
    REQUIRE(f);
    CHECK(tpuprof::synth::fault_name(*f) == r);
  }
  CHECK_FALSE(tpuprof::synth::parse_fault("none"));
  CHECK_FALSE(tpuprof::synth::parse_fault("starved_tiu"));
  tpuprof::synth::inject_report r;
  r.rule = fault::dispatch;
  r.clean_span_ns = 1000;
  r.span_ns = 1500;
  r.what.layers = {3};
  r.what.commands = {{1, engine::gdma, 7}};
  CHECK(r.to_json() ==
        "{\"rule\": \"dispatch\", \"cost_ns\": 500, \"clean_span_ns\": 1000, \"span_ns\": 1500, "
        "\"layers\": [3], \"cores\": [], \"commands\": [{\"core\": 1, \"engine\": \"GDMA\", "
        "\"cmd_id\": 7}]}\n");
}

TEST_CASE("synth --inject: a clean dump draws nothing from the fault's stream") {
  tpuprof::synth::bm1684x_options o;
  o.layers = 80;
  o.deps.enabled = true;
  const auto a = tpuprof::synth::bm1684x_dump(o);
  tpuprof::synth::inject_record r;
  const auto b = tpuprof::synth::bm1684x_dump(o, &r);
  CHECK(a.files == b.files);
  CHECK(r.commands.empty());
}

TEST_CASE("synth --inject on BM1684X: decodes, measured cost, visible fault") {
  for (fault f : {fault::starved_tiu, fault::serial_dma, fault::lane_underuse, fault::bank_conflict,
                  fault::small_dma, fault::dispatch}) {
    CAPTURE(tpuprof::synth::fault_name(f));
    check_rule(f, true);
  }
}

TEST_CASE("synth --inject on SG2260 mode 2: decodes, measured cost, visible fault") {
  for (fault f : {fault::starved_tiu, fault::serial_dma, fault::lane_underuse, fault::bank_conflict,
                  fault::small_dma, fault::core_imbalance, fault::dispatch}) {
    CAPTURE(tpuprof::synth::fault_name(f));
    check_rule(f, false);
  }
}
