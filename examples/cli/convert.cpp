// tpuprof convert: Perfetto / Chrome JSON / CSV / HTML files and summary.txt,
// optionally merged with a host trace.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <tpuprof/algo/summary.hpp>
#include <tpuprof/detail/ordered_window.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/chrome_json_reader.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/io/output_set.hpp>
#include <tpuprof/report/critical_path_summary.hpp>
#include <tpuprof/sinks/chrome_json.hpp>
#include <tpuprof/sinks/csv.hpp>
#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/sinks/summary_format.hpp>
#include <tpuprof/sinks/write_file.hpp>
#include <tpuprof/stream.hpp>
#include <tpuprof/trace.hpp>

#include "advise_data.hpp"
#include "cli.hpp"
#include "convert_compat.hpp"
#include "convert_split.hpp"
#include "validators.hpp"

namespace fs = std::filesystem;
using namespace tpuprof;

namespace cli {
namespace {

struct convert_options {
  std::string out_dir;  ///< -o; default tpuprof_out/ (plan_outputs)
  bool perfetto = false, json = false, csv = false, html = false, no_summary = false;
  bool each = false;           ///< --each: one output directory per dump of a parent directory
  bool critical_path = false;  ///< flows and markers of the critical path (critical_path.cpp)
  bool fsync = false;          ///< --fsync: the output set survives a power cut
  bool advise = false;         ///< --advise: the findings on the Perfetto / Chrome JSON slices
  bool no_advise = false;      ///< --no-advise: report.html without its Findings section
  std::string host_trace;
  std::optional<double> host_offset_ns;
  std::string split;  ///< --split: Perfetto as parts with an index (convert_split.cpp)
  std::size_t memory_budget = cdm::stream_options{}.memory_budget;  ///< --memory-budget
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
    std::int64_t v = 0;
    auto r = std::from_chars(tail.data(), tail.data() + tail.size(), v);
    if (r.ec != std::errc{} || r.ptr != tail.data() + tail.size())
      throw decode_error((fs::path(t.info().source) / "global.profile").string(),
                         decode_error::no_offset,
                         "tail_offset_ns '" + std::string(tail) + "' is not a 64-bit integer");
    host.align_by_tail(v, static_cast<std::int64_t>(t.info().end_ns));
  } else {
    host.align_by_tail(0, static_cast<std::int64_t>(t.info().end_ns));
  }
  return host;
}

int run_convert(const common_options& o, const convert_options& c);

/// --each: the dumps of a parent directory converted one by one into
/// OUT/<dump name>/, -j at a time (scale-out on one machine; a batch scheduler
/// runs `tpuprof convert DUMP -o OUT/DUMP` per task instead, docs/performance.md).
/// A failing dump does not stop the others; the exit code is the worst one.
int run_each(const common_options& o, const convert_options& c) {
  std::vector<fs::path> dumps;
  std::error_code ec;
  if (fs::is_regular_file(fs::path(o.input) / "global.profile", ec)) {
    dumps.emplace_back(o.input);
  } else {
    for (const auto& e : fs::directory_iterator(o.input, ec))
      if (e.is_directory(ec) && fs::is_regular_file(e.path() / "global.profile", ec))
        dumps.push_back(e.path());
  }
  if (dumps.empty())
    throw decode_error(o.input, decode_error::no_offset,
                       "--each: no dump here (subdirectories with a global.profile)");
  std::sort(dumps.begin(), dumps.end());
  const fs::path out = plan_outputs(c.compat, c.out_dir).dir;
  std::vector<int> rc(dumps.size(), ok);
  std::vector<std::string> error(dumps.size());
  tpuprof::detail::parallel_in_order(
      dumps.size(), o.threads,
      [&](std::size_t i) {
        common_options one = o;
        one.input = dumps[i].string();
        one.quiet = true;
        one.show_progress = false;
        one.threads = 1;
        convert_options ci = c;
        ci.each = false;
        const auto sub = (out / dumps[i].filename()).string();
        (ci.compat.out_positional.empty() ? ci.out_dir : ci.compat.out_positional) = sub;
        try {
          rc[i] = run_convert(one, ci);
        } catch (const decode_error& e) {
          error[i] = e.what();
          rc[i] = bad_input;
        } catch (const std::exception& e) {
          error[i] = e.what();
          rc[i] = io_error;
        }
      },
      [](std::size_t) {});
  int worst = ok;
  for (std::size_t i = 0; i < dumps.size(); ++i) {
    worst = std::max(worst, rc[i]);
    if (!error[i].empty())
      fmt::print(stderr, "tpuprof: {}: {}\n", dumps[i].string(), error[i]);
    else if (!o.quiet)
      fmt::print("wrote {}\n", (out / dumps[i].filename()).string());
  }
  return worst;
}

/// summary.txt's classifier over a table that grows while events stream in
/// (every event's names are in the table before the event is written).
struct growing_classifier {
  const trace_info* info = nullptr;
  mutable name_classifier names;
  mutable std::size_t known = 0;
  summary_class operator()(const engine_event& e) const {
    if (info->names.size() != known) {
      names = name_classifier(info->names);
      known = info->names.size();
    }
    return names(e);
  }
};

/// The streamable outputs of one convert as one sink: each part sees what
/// write_file (or summary.txt's algo::summary) gives it in run_convert.
struct convert_sinks {
  std::optional<sinks::perfetto_sink> perfetto;
  std::optional<sinks::chrome_json_sink> json;
  std::optional<sinks::csv_sink> csv;
  std::optional<sinks::csv_summary_sink> csv_summary;
  bool summary = false;
  std::optional<algo::summary_accumulator<growing_classifier>> sum;

  void begin(const trace_info& info) {
    const io::host_trace none;
    if (perfetto) perfetto->begin(info), perfetto->host(none);
    if (json) json->begin(info), json->host(none);
    if (csv) csv->begin(info);
    if (csv_summary) csv_summary->begin(info);
    if (summary) {
      summary_options so;
      so.info = &info;
      sum.emplace(so, growing_classifier{&info, {}, 0});
    }
  }
  void write(const engine_event& e) {
    if (perfetto) perfetto->write(e);
    if (json) json->write(e);
    if (csv) csv->write(e);
    if (csv_summary) csv_summary->write(e);
    if (sum) sum->add(e);
  }
  /// A core's Perfetto bytes are formatted on the decoder's worker threads
  /// (sinks/sink.hpp, forkable_sink); the other outputs take events here.
  /// summary.txt's sums too: the worker reads the events while they are in its
  /// cache, the calling thread would read them again from memory.
  struct part {
    std::optional<sinks::perfetto_sink::part> perfetto;
    std::optional<algo::summary_accumulator<growing_classifier>> sum;
    void write(const engine_event& e) {
      if (perfetto) perfetto->write(e);
      if (sum) sum->add(e);
    }
  };
  part fork(std::uint8_t device, std::uint8_t unit, const trace_info& names) const {
    part p;
    if (perfetto) p.perfetto.emplace(perfetto->fork(device, unit, names));
    if (sum) p.sum.emplace(sum->share(growing_classifier{&names, {}, 0}));
    return p;
  }
  void join(part&& p, std::span<const engine_event> events) {
    if (perfetto) perfetto->join(std::move(*p.perfetto), events);
    if (sum) sum->merge(*p.sum);
    if (!json && !csv && !csv_summary) return;
    for (const auto& e : events) {
      if (json) json->write(e);
      if (csv) csv->write(e);
      if (csv_summary) csv_summary->write(e);
    }
  }
  void finish() {
    if (perfetto) perfetto->finish();
    if (json) json->finish();
    if (csv) csv->finish();
    if (csv_summary) csv_summary->finish();
  }
};

/// True when every output asked for is a sink that takes events one by one:
/// then convert streams (tpuprof::stream_trace, bounded memory) instead of
/// opening the whole trace.
bool streamable(const common_options& o, const convert_options& c, const output_plan& plan) {
  const auto& x = c.compat;
  return !c.html && !c.advise && !c.critical_path && c.host_trace.empty() && !plan.vendor &&
         c.split.empty() && !x.sqlite && x.sqlite_db.empty() && !x.xlsx && !x.enable_doc &&
         !x.registers && o.num_core <= 0 && !register_lookup(x, o);
}

/// run_convert for streamable outputs: the same files, byte for byte.
int run_streamed(const common_options& o, const convert_options& c, const output_plan& plan) {
  progress p(o.show_progress, o.progress_color);
  open_options opt;
  opt.chip = o.chip;
  if (o.tiu_freq_mhz > 0) opt.tiu_freq_mhz = o.tiu_freq_mhz;
  if (o.dma_freq_mhz > 0) opt.dma_freq_mhz = o.dma_freq_mhz;
  opt.threads = o.threads;
  opt.time = parse_time_base(o.time_base).value_or(time_base::vendor);
  const bool any = c.perfetto || c.json || c.csv;
  io::output_set set(plan.dir, {}, c.fsync ? io::durability::power_loss : io::durability::crash);
  std::vector<std::pair<std::string, std::unique_ptr<io::atomic_file>>> files;
  fs::path perfetto_staged;
  auto stage = [&](const std::string& name) -> io::atomic_file& {
    const fs::path staged = set.stage(name);
    if (name == plan.perfetto_name) perfetto_staged = staged;
    files.emplace_back(set.final_path(name).string(), std::make_unique<io::atomic_file>(staged));
    return *files.back().second;
  };
  convert_sinks s;
  if (c.perfetto || !any) s.perfetto.emplace(sinks::byte_output{stage(plan.perfetto_name)});
  if (c.json) s.json.emplace(sinks::byte_output{stage("trace.json")});
  if (c.csv) {
    s.csv.emplace(sinks::byte_output{stage("events.csv")}, csv_options_for(c.compat, nullptr));
    s.csv_summary.emplace(sinks::byte_output{stage("summary.csv")});
  }
  s.summary = !c.no_summary;
  trace_info info;
  try {
    p.step("decoding " + o.input);
    info = stream_trace(o.input, s, opt, c.memory_budget);
    p.done();
  } catch (const detect_error& e) {  // the CLI way to give the chip explicitly
    throw decode_error(e.file(), e.offset(),
                       e.reason() + "; use --chip " + cli_names(chips::all{}));
  }
  std::vector<std::string> written;
  for (auto& [name, f] : files) {
    f->commit();
    written.push_back(name);
  }
  if (s.summary) {
    const std::string name = "summary.txt";
    io::atomic_file af(set.stage(name));
    af.write(format_summary_txt(s.sum ? s.sum->report() : summary_report{}));
    af.commit();
    written.push_back(set.final_path(name).string());
  }
  if (!perfetto_staged.empty())
    warn_large_perfetto(set.final_path(plan.perfetto_name).string(),
                        fs::file_size(perfetto_staged));
  set.commit();
  p.done();
  if (!o.quiet)
    for (const auto& w : written) fmt::print("wrote {}\n", w);
  return finish(o, info.diagnostics);
}

int run_convert(const common_options& o, const convert_options& c) {
  if (c.each) return run_each(o, c);
  const output_plan plan = plan_outputs(c.compat, c.out_dir);
  if (streamable(o, c, plan)) return run_streamed(o, c, plan);
  progress p(o.show_progress, o.progress_color);
  const bool html_findings = c.html && !c.no_advise;
  auto t = load(o, p, c.html || c.advise, c.critical_path || c.html || c.advise);
  const io::host_trace host = read_host(c, t, p);
  sinks::slice_marks marks;  // empty unless --critical-path or --advise
  if (c.critical_path) marks = critical_path_marks(o, t, p);
  sinks::perfetto_options po;
  sinks::chrome_json_options jo;
  if (c.critical_path || c.advise) po.marks = jo.marks = &marks;
  auto mark_findings = [&](const trace&, const advise_result& r) {
    if (c.advise) add_advise_marks(r, t, marks);
  };
  report_sections sections;  // report.html's; one advisor run serves the marks too
  if (c.html) sections = report_analysis(o, t, p, html_findings, mark_findings);
  if (c.advise && !html_findings) with_advice(o, t, p, mark_findings);
  const auto regs = register_lookup(c.compat, o);  // null unless an output shows register fields
  const bool any = c.perfetto || c.json || c.csv || c.html || c.compat.sqlite ||
                   !c.compat.sqlite_db.empty() || c.compat.xlsx;
  std::vector<std::string> written;
  // All files replace the previous run's as one set.
  io::output_set set(plan.dir, {}, c.fsync ? io::durability::power_loss : io::durability::crash);
  auto emit = [&](const std::string& file, auto&& write) {
    p.step("writing " + set.final_path(file).string());
    write(set.stage(file));
    written.push_back(set.final_path(file).string());
  };
  if (!c.split.empty()) {
    p.step("writing " + set.final_path(plan.perfetto_name).string() + " in parts");
    for (auto& w : write_perfetto_split(c.split, t, host, po, set, plan.perfetto_name))
      written.push_back(std::move(w));
  } else if (c.perfetto || !any || plan.vendor) {
    emit(plan.perfetto_name, [&](const fs::path& f) {
      sinks::write_file<sinks::perfetto_sink>(f, t, host, po);
      warn_large_perfetto(set.final_path(plan.perfetto_name).string(), fs::file_size(f));
    });
  }
  if (c.json)
    emit("trace.json",
         [&](const fs::path& f) { sinks::write_file<sinks::chrome_json_sink>(f, t, host, jo); });
  if (c.csv) {
    emit("events.csv", [&](const fs::path& f) {
      sinks::write_file<sinks::csv_sink>(f, t, csv_options_for(c.compat, regs));
    });
    emit("summary.csv",
         [&](const fs::path& f) { sinks::write_file<sinks::csv_summary_sink>(f, t); });
  }
  write_compat_outputs(c.compat, t, plan, emit, regs);
  if (c.html)
    emit("report.html", [&](const fs::path& f) { write_report(f.string(), t, sections); });
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
      ->check(ns_offset);
  sc->add_flag("--disable_summary,--no-summary", c->no_summary, "do not write summary.txt");
  sc->add_flag("--each", c->each,
               "a parent directory's dumps each into OUT/<dump>/ (-j at a time), not one trace");
  sc->add_flag("--critical-path", c->critical_path,
               "Perfetto / Chrome JSON: flow arrows along the critical path's dependency edges and "
               "a critical_path arg on its slices (docs/analysis.md)");
  sc->add_flag("--fsync", c->fsync,
               "flush the outputs to disk before committing them (survive a power cut; a disk "
               "flush per file)");
  sc->add_option("--memory-budget", c->memory_budget,
                 "memory for the cores decoded at once when streaming (default 224M; K, M, G): "
                 "more lets a large dump use every thread, and a smaller one be decoded once "
                 "(docs/performance.md)")
      ->transform(byte_size);
  sc->add_flag("--advise", c->advise,
               "Perfetto / Chrome JSON: the findings of `tpuprof advise` as a track of their own "
               "and advise.* args on their commands' slices (docs/sinks.md)");
  sc->add_flag("--no-advise", c->no_advise, "report.html without its Findings section");
  add_split_option(sc, c->split);
  add_compat_options(sc, c->compat);
  return {sc, [&o, c] { return run_convert(o, *c); }};
}

}  // namespace cli
