// tpuprof synth: write a synthetic dump (for tests, benchmarks, demos).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>
#include <tpuprof/synth/cdm_synth.hpp>
#include <tpuprof/synth/dump_writer.hpp>
#include <tpuprof/synth/indexed_synth.hpp>
#include <tpuprof/synth/inject.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {
namespace {

struct synth_options {
  std::string chip = "aks";
  std::string out_dir;
  unsigned records = 131072;
  unsigned cores = 0;
  unsigned mode = 1;
  unsigned cdma_ports = 0;
  std::uint64_t seed = 1;
  bool cycle_wrap = false;
  synth::dep_options deps;          // --deps, --scale
  std::vector<std::string> scales;  // ENGINE=FACTOR terms
  std::string inject;               // --inject RULE
  std::string inject_report;        // --inject-report FILE (default DIR/inject.json)
  synth::fault fault = synth::fault::none;
};

/// A dump in memory: its files, its hardware span and what a fault touched.
struct made_dump {
  std::vector<std::pair<std::string, std::vector<std::byte>>> files;
  std::size_t events = 0;
  double span_ns = 0;
  synth::inject_record injected;
};

/// Generates the dump of `s` with fault `f` (none: clean); `reference`: the fault's reference
/// program (cdm_synth_options::inject_reference).
made_dump make_dump(const synth_options& s, synth::fault f, bool reference = false) {
  made_dump m;
  if (s.chip == "bm1684x") {
    synth::bm1684x_options bo;
    bo.seed = s.seed;
    bo.layers = std::max<std::size_t>(1, s.records / 2);
    if (s.cycle_wrap) bo.cycles_before_wrap = 5000;
    bo.deps = s.deps;
    bo.inject = f;
    auto g = synth::bm1684x_dump(bo, &m.injected);
    m.files = std::move(g.files);
    m.events = g.expected.size();
    m.span_ns = synth::hw_span_ns(g.expected);
    return m;
  }
  if (s.chip == "bm1688" || s.chip == "cv184x") {
    if (s.deps.enabled)
      throw std::invalid_argument(
          "--deps/--inject: bm1684x, aks and aksv only (the BM1688/CV184X "
          "generator does not schedule from dependencies yet)");
    synth::indexed_options xo;
    xo.seed = s.seed;
    xo.layers = std::max<std::size_t>(1, s.records / 2);
    xo.cycle_wrap = s.cycle_wrap ? 1 : 0;
    using indexed_chips = chip_list<chips::bm1688, chips::cv184x>;
    return with_chip(indexed_chips{}, s.chip, [&]<class C>() {
      xo.cores = s.cores ? s.cores : C::core_count;
      xo.barriers = xo.cores > 1 ? 2 : 0;  // send / wait pairs inside the network
      auto g = synth::indexed_dump<C>(xo);
      m.files = std::move(g.files);
      m.events = g.expected.size();
      return std::move(m);
    });
  }
  synth::cdm_synth_options co;
  co.records = s.records;
  co.cores = s.cores;
  co.mode = s.mode;
  co.cdma_ports = s.cdma_ports;
  co.seed = s.seed;
  co.cycle_wrap = s.cycle_wrap;
  co.deps = s.deps;
  co.inject = f;
  co.inject_reference = reference;
  using cdm_chips = chip_list<chips::aks, chips::aksv>;
  return with_chip(cdm_chips{}, s.chip, [&]<class C>() {
    auto r = synth::synthesize_cdm<C>(co, &m.injected);
    for (auto& [name, bytes] : r.files) m.files.emplace_back(name, std::move(bytes));
    m.events = r.expected.hw.size();
    m.span_ns = synth::hw_span_ns(r.expected.hw);
    return std::move(m);
  });
}

/// Writes the dump (and with --inject its ground-truth report); returns how many hardware
/// events it holds.
std::size_t write_dump(const synth_options& s) {
  made_dump m = make_dump(s, s.fault);
  synth::write_dump_directory(m.files, s.out_dir);
  if (s.fault != synth::fault::none) {
    synth::inject_report r;
    r.rule = s.fault;
    r.span_ns = m.span_ns;
    // The cost is measured against the program a fix would give: the clean dump, except for
    // SG2260 serial-dma, whose clean windows are not double-buffered (docs/analysis.md).
    const bool ref = s.fault == synth::fault::serial_dma && s.chip != "bm1684x";
    r.clean_span_ns = make_dump(s, ref ? s.fault : synth::fault::none, ref).span_ns;
    r.what = std::move(m.injected);
    const std::string path = s.inject_report.empty() ? s.out_dir + "/inject.json" : s.inject_report;
    const std::string json = r.to_json();
    io::atomic_file out(path);
    out.write(json.data(), json.size());
    out.commit();
  }
  return m.events;
}

int run_synth(const common_options& o, synth_options s) {
  if (s.out_dir.empty()) throw std::invalid_argument("synth needs -o DIR");
  for (const auto& t : s.scales) s.deps.parse_scale(t);
  if (!s.inject.empty()) {
    const auto f = synth::parse_fault(s.inject);
    if (!f)
      throw std::invalid_argument("unknown --inject rule '" + s.inject +
                                  "' (starved-tiu, serial-dma, lane-underuse, bank-conflict, "
                                  "small-dma, core-imbalance, dispatch)");
    if (s.chip != "bm1684x" && s.chip != "aks" && s.chip != "aksv")
      throw std::invalid_argument("--inject: bm1684x, aks and aksv only");
    if (*f == synth::fault::core_imbalance && s.chip == "bm1684x")
      throw std::invalid_argument("--inject core-imbalance: multi-core chips only (aks, aksv)");
    if (s.chip != "bm1684x" && s.mode != 2)
      throw std::invalid_argument("--inject on aks/aksv needs --mode 2 (the register images)");
    s.fault = *f;
    s.deps.enabled = true;  // faults live in the dependency schedule
  }
  if (!s.inject_report.empty() && s.inject.empty())
    throw std::invalid_argument("--inject-report needs --inject");
  if (!s.scales.empty() && !s.deps.enabled)
    throw std::invalid_argument(
        "--scale needs --deps (durations scale in the dependency schedule)");
  progress p(o.show_progress, o.progress_color);
  p.step("generating " + s.chip + " dump");
  const std::size_t events = write_dump(s);
  p.done();
  if (!o.quiet) fmt::print("wrote {} ({} chip, {} hardware events)\n", s.out_dir, s.chip, events);
  return ok;
}

}  // namespace

subcommand register_synth(CLI::App& app, common_options& o) {
  auto s = std::make_shared<synth_options>();
  auto* sc = app.add_subcommand("synth", "write a synthetic dump (for tests, benchmarks, demos)");
  sc->add_option("--chip", s->chip, "aks, aksv, bm1684x, bm1688 or cv184x")
      ->check(CLI::IsMember({"aks", "aksv", "bm1684x", "bm1688", "cv184x"}));
  sc->add_option("-o,--output", s->out_dir, "directory to write")->required();
  sc->add_option("--records", s->records, "PMU records per core and engine (default 131072)")
      ->check(CLI::Range(8u, 1u << 24));
  sc->add_option("--cores", s->cores, "cores (0 = all of the chip)");
  sc->add_option("--mode", s->mode, "0 PMU only, 1 condensed commands, 2 detailed")
      ->check(CLI::Range(0u, 2u));
  sc->add_option("--cdma-ports", s->cdma_ports, "CDMA ports with records");
  sc->add_option("--seed", s->seed, "random seed");
  sc->add_flag("--cycle-wrap", s->cycle_wrap,
               "make the 32-bit cycle counter wrap inside the run (bm1688/cv184x: TIU)");
  // Dependency schedule (docs/testing.md#what-if-ground-truth-synth---deps---scale): what-if ground
  // truth.
  sc->add_flag("--deps", s->deps.enabled,
               "schedule commands from the dependencies written into their descriptors");
  sc->add_option("--scale", s->scales,
                 "with --deps: ENGINE=FACTOR duration multiplier (tiu, gdma, sdma), repeatable");
  sc->add_option("--inject", s->inject,
                 "one known fault (implies --deps): starved-tiu, serial-dma, lane-underuse, "
                 "bank-conflict, small-dma, core-imbalance (aks, aksv), dispatch");
  sc->add_option("--inject-report", s->inject_report,
                 "with --inject: the ground-truth JSON (default DIR/inject.json)");
  return {sc, [&o, s] { return run_synth(o, *s); }};
}

}  // namespace cli
