// tpuprof convert: Perfetto / Chrome JSON / CSV / HTML files and summary.txt,
// optionally merged with a host trace.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <tpuprof/algo/summary.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/chrome_json_reader.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/io/output_set.hpp>
#include <tpuprof/sinks/chrome_json.hpp>
#include <tpuprof/sinks/csv.hpp>
#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/sinks/summary_format.hpp>
#include <tpuprof/sinks/write_file.hpp>
#include <tpuprof/trace.hpp>

#include "cli.hpp"
#include "convert_compat.hpp"
#include "validators.hpp"

namespace fs = std::filesystem;
using namespace tpuprof;

namespace cli {
namespace {

struct convert_options {
  std::string out_dir;  ///< -o; default tpuprof_out/ (plan_outputs)
  bool perfetto = false, json = false, csv = false, html = false, no_summary = false;
  std::string host_trace;
  std::optional<double> host_offset_ns;
  compat_options compat;  ///< bigTpuProfile's call form, SQLite (convert_compat.cpp)
};

/// The host trace of --host-trace, aligned to the device timeline.
io::host_trace read_host(const convert_options& c, const trace& t, progress& p) {
  io::host_trace host;
  if (c.host_trace.empty()) return host;
  p.step("reading host trace " + c.host_trace);
  host = io::read_chrome_json(c.host_trace);
  if (c.host_offset_ns) {
    host.shift(static_cast<std::int64_t>(*c.host_offset_ns));
  } else if (auto tail = t.info().property("tail_offset_ns"); !tail.empty()) {
    host.align_by_tail(std::stoll(std::string(tail)), static_cast<std::int64_t>(t.info().end_ns));
  } else {
    host.align_by_tail(0, static_cast<std::int64_t>(t.info().end_ns));
  }
  return host;
}

int run_convert(const common_options& o, const convert_options& c) {
  const output_plan plan = plan_outputs(c.compat, c.out_dir);
  progress p(o.show_progress, o.progress_color);
  auto t = load(o, p, c.html);
  const io::host_trace host = read_host(c, t, p);
  const auto regs = register_lookup(c.compat, o);  // null unless an output shows register fields
  const bool any = c.perfetto || c.json || c.csv || c.html || c.compat.sqlite ||
                   !c.compat.sqlite_db.empty() || c.compat.xlsx;
  std::vector<std::string> written;
  io::output_set set(plan.dir);  // all files replace the previous run's as one set
  auto emit = [&](const std::string& file, auto&& write) {
    p.step("writing " + set.final_path(file).string());
    write(set.stage(file));
    written.push_back(set.final_path(file).string());
  };
  if (c.perfetto || !any || plan.vendor)
    emit(plan.perfetto_name,
         [&](const fs::path& f) { sinks::write_file<sinks::perfetto_sink>(f, t, host); });
  if (c.json)
    emit("trace.json",
         [&](const fs::path& f) { sinks::write_file<sinks::chrome_json_sink>(f, t, host); });
  if (c.csv) {
    emit("events.csv", [&](const fs::path& f) {
      sinks::write_file<sinks::csv_sink>(f, t, csv_options_for(c.compat, regs));
    });
    emit("summary.csv",
         [&](const fs::path& f) { sinks::write_file<sinks::csv_summary_sink>(f, t); });
  }
  write_compat_outputs(c.compat, t, plan, emit, regs);
  if (c.html) emit("report.html", [&](const fs::path& f) { write_report(f.string(), t); });
  if (!c.no_summary) {
    emit("summary.txt", [&](const fs::path& f) {
      summary_options so;
      so.info = &t.info();
      io::atomic_file af(f);
      af.write(format_summary_txt(t.events() | algo::summary(so)));
      af.commit();
    });
  }
  set.commit();
  p.done();
  if (!o.quiet)
    for (const auto& w : written) fmt::print("wrote {}\n", w);
  return finish(o, t);
}

}  // namespace

subcommand register_convert(CLI::App& app, common_options& o) {
  auto c = std::make_shared<convert_options>();
  auto* sc = app.add_subcommand(
      "convert",
      "write Perfetto / Chrome JSON / CSV (default: Perfetto + summary); --html adds report.html");
  add_common(sc, o);
  sc->add_option("-o,--output,--output_dir", c->out_dir, "output directory (default tpuprof_out/)");
  sc->add_flag("--perfetto", c->perfetto, "trace.pftrace (Perfetto protobuf)");
  sc->add_flag("--json", c->json, "trace.json (Chrome JSON)");
  sc->add_flag("--csv", c->csv, "events.csv and summary.csv");
  sc->add_flag("--html", c->html, "report.html (self-contained HTML report)");
  sc->add_option("--host-trace,--trace_file", c->host_trace,
                 "host Chrome JSON trace to merge (tpudnn, torch)");
  sc->add_option("--host-offset-ns", c->host_offset_ns,
                 "explicit host->device shift instead of tail_offset_ns")
      ->check(finite_number);
  sc->add_flag("--disable_summary,--no-summary", c->no_summary, "do not write summary.txt");
  add_compat_options(sc, c->compat);
  return {sc, [&o, c] { return run_convert(o, *c); }};
}

}  // namespace cli
