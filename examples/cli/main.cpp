// tpuprof: the command-line tool built on the library (subcommands via CLI11).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <CLI/CLI.hpp>

#include <tpuprof/error.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/version.hpp>

#include "cli.hpp"

namespace {

/// Input, chip and clock options shared by the decoding subcommands, with
/// bigTpuProfile's spellings as aliases.
void add_common(CLI::App* sc, cli::common_options& o) {
  sc->add_option("dir", o.input, "dump directory (global.profile inside), or a parent of several")
      ->required();
  sc->add_option("--chip", o.chip,
                 "bm1684x, aks (SG2260/BM1690) or aksv (SG2260E); default: from global.profile")
      ->check(CLI::IsMember({"bm1684x", "aks", "aksv", "BM1684X", "SG2260", "SG2260E"}));
  sc->add_option("--tiu-freq,--tiu_freq", o.tiu_freq_mhz, "TIU clock in MHz (overrides the dump)")
      ->check(CLI::PositiveNumber);
  sc->add_option("--dma-freq,--dma_freq", o.dma_freq_mhz, "DMA clock in MHz (overrides the dump)")
      ->check(CLI::PositiveNumber);
  sc->add_option("--num-core,--num_core", o.num_core, "keep only cores 0..N-1")
      ->check(CLI::PositiveNumber);
  sc->add_flag("--strict", o.strict,
               "exit 4 when the dump lost data (wraps are fine; lost records are not)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tpuprof: timelines, tables and answers from Sophgo TPU hardware profiles"};
  app.set_version_flag("--version",
                       std::string("tpuprof ") + tpuprof::version_string +
                           "\nchips: bm1684x (BM1684X), aks (SG2260/BM1690), aksv (SG2260E)");
  app.require_subcommand(1);
  app.fallthrough();  // -q and --no-color also after the subcommand
  cli::common_options o;
  bool no_color = false;
  app.add_flag("-q,--quiet", o.quiet, "no progress, no chatter on stdout");
  app.add_flag("--no-color", no_color, "no colours (also: NO_COLOR set)");

  bool json = false;
  auto* info =
      app.add_subcommand("info", "chip, cores, engines, record counts, time span, diagnostics");
  add_common(info, o);
  info->add_flag("--json", json, "machine-readable output");

  cli::convert_options conv;
  bool disable_summary = false;
  auto* convert = app.add_subcommand(
      "convert",
      "write Perfetto / Chrome JSON / CSV (default: Perfetto + summary); --html adds report.html");
  add_common(convert, o);
  convert->add_option("-o,--output,--output_dir", conv.out_dir,
                      "output directory (default tpuprof_out/)");
  convert->add_flag("--perfetto", conv.perfetto, "trace.pftrace (Perfetto protobuf)");
  convert->add_flag("--json", conv.json, "trace.json (Chrome JSON)");
  convert->add_flag("--csv", conv.csv, "events.csv and summary.csv");
  convert->add_flag("--html", conv.html, "report.html (self-contained HTML report)");
  convert->add_option("--host-trace,--trace_file", conv.host_trace,
                      "host Chrome JSON trace to merge (tpudnn, torch)");
  convert->add_option("--host-offset-ns", conv.host_offset_ns,
                      "explicit host->device shift instead of tail_offset_ns");
  convert->add_flag("--disable_summary,--no-summary", disable_summary, "do not write summary.txt");

  std::string format = "table";
  auto* summary = app.add_subcommand(
      "summary", "per-core utilization and bandwidth (bigTpuProfile summary.txt)");
  add_common(summary, o);
  summary->add_option("--format", format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));

  std::size_t n = 20;
  std::string by = "duration", engine;
  auto* top = app.add_subcommand("top", "the N longest (or largest, fastest) commands");
  add_common(top, o);
  top->add_option("-n", n, "how many (default 20)");
  top->add_option("--by", by, "duration, bytes or bandwidth")
      ->check(CLI::IsMember({"duration", "bytes", "bandwidth"}));
  top->add_option("--engine", engine, "tiu, gdma, sdma or cdma");

  std::string min = "1us";
  std::size_t limit = 20;
  auto* gaps = app.add_subcommand("gaps", "idle gaps per engine, longest first");
  add_common(gaps, o);
  gaps->add_option("--min", min, "smallest gap to report (e.g. 500ns, 1us; default 1us)");
  gaps->add_option("-n", limit, "how many of the longest gaps to list (default 20)");

  std::string group_by = "op";
  auto* group = app.add_subcommand(
      "group", "count/sum/mean/min/max/p50/p99 per op, function, layer, engine or core");
  add_common(group, o);
  group->add_option("--by", group_by, "op, op_type, function, layer, engine or core");
  group->add_option("--format", format, "table or csv")->check(CLI::IsMember({"table", "csv"}));

  std::string report_out = "report.html";
  auto* report =
      app.add_subcommand("report", "one self-contained HTML report (timeline, tables, overview)");
  add_common(report, o);
  report->add_option("-o,--output", report_out, "file to write (default report.html)");

  std::string other, diff_by = "op";
  std::size_t diff_n = 30;
  auto* diff = app.add_subcommand(
      "diff", "compare two runs (A = baseline, B = new) per op, function, layer, ...");
  add_common(diff, o);
  diff->add_option("other", other, "the second dump (B)")->required();
  diff->add_option("--by", diff_by, "op, op_type, function, layer, engine or core");
  diff->add_option("-n", diff_n, "rows (largest time change first; default 30)");

  cli::synth_options syn;
  auto* synth =
      app.add_subcommand("synth", "write a synthetic dump (for tests, benchmarks, demos)");
  synth->add_option("--chip", syn.chip, "aks, aksv or bm1684x")
      ->check(CLI::IsMember({"aks", "aksv", "bm1684x"}));
  synth->add_option("-o,--output", syn.out_dir, "directory to write")->required();
  synth->add_option("--records", syn.records, "PMU records per core and engine (default 131072)")
      ->check(CLI::Range(8u, 1u << 24));
  synth->add_option("--cores", syn.cores, "cores (0 = all of the chip)");
  synth->add_option("--mode", syn.mode, "0 PMU only, 1 condensed commands, 2 detailed")
      ->check(CLI::Range(0u, 2u));
  synth->add_option("--cdma-ports", syn.cdma_ports, "CDMA ports with records");
  synth->add_option("--seed", syn.seed, "random seed");
  synth->add_flag("--cycle-wrap", syn.cycle_wrap,
                  "make the 32-bit cycle counter wrap inside the run");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return cli::usage;
  }
  o.color = !no_color && std::getenv("NO_COLOR") == nullptr && ::isatty(2) && ::isatty(1);
  if (o.quiet) o.color = false;

  try {
    if (*info) return cli::cmd_info(o, json);
    if (*convert) {
      conv.summary = !disable_summary;
      return cli::cmd_convert(o, conv);
    }
    if (*summary) return cli::cmd_summary(o, format);
    if (*top) return cli::cmd_top(o, n, by, engine);
    if (*gaps) {
      auto ns = cli::parse_duration_ns(min);
      if (!ns) {
        std::fprintf(stderr, "tpuprof: --min: not a duration: %s (e.g. 500ns, 1us)\n", min.c_str());
        return cli::usage;
      }
      return cli::cmd_gaps(o, *ns, limit);
    }
    if (*group) return cli::cmd_group(o, group_by, format);
    if (*report) return cli::cmd_report(o, report_out);
    if (*diff) return cli::cmd_diff(o, other, diff_by, diff_n);
    if (*synth) return cli::cmd_synth(o, syn);
  } catch (const tpuprof::decode_error& e) {
    std::fprintf(stderr, "tpuprof: %s\n", e.what());
    return cli::bad_input;
  } catch (const tpuprof::io::output_error& e) {
    std::fprintf(stderr, "tpuprof: %s\n", e.what());
    return cli::io_error;
  } catch (const std::filesystem::filesystem_error& e) {
    std::fprintf(stderr, "tpuprof: %s\n", e.what());
    return cli::io_error;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "tpuprof: %s\n", e.what());
    return cli::usage;
  }
  return cli::ok;
}
