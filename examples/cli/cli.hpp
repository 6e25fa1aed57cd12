// Shared declarations of the tpuprof CLI (examples/cli): options, loading,
// and the subcommands, one file each (info.cpp, convert.cpp, ...).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <tpuprof/algo/group_stats.hpp>
#include <tpuprof/sinks/slice_marks.hpp>
#include <tpuprof/trace.hpp>

#include "output.hpp"

namespace CLI {
class App;
}
namespace tpuprof::report {
struct critical_path_summary;
struct findings_summary;
}  // namespace tpuprof::report

namespace cli {

/// Exit codes (documented in docs/cli.md).
enum exit_code : int {
  ok = 0,
  bad_input = 1,  ///< decode_error: missing, truncated, corrupt or unsupported input
  usage = 2,      ///< bad command line
  io_error = 3,   ///< output could not be written
  data_loss = 4,  ///< --strict and the decoder reported lost data
  slower = 5,     ///< diff --fail-above: B is slower than A by more than the threshold
  findings = 6,   ///< advise --fail-on: a finding at or above the given severity
};

struct common_options {
  std::string input;
  /// --time-base vendor|shared-counter (open_options::time)
  std::string time_base;    ///< "": vendor, except critical-path / whatif (shared-counter)
  std::string chip;         ///< "" = auto-detect from global.profile
  double tiu_freq_mhz = 0;  ///< 0 = from the dump / chip default
  double dma_freq_mhz = 0;
  int num_core = 0;      ///< 0 = all; else keep cores < num_core
  unsigned threads = 0;  ///< -j: dumps decoded at once (0 = hardware threads)
  bool quiet = false;
  bool strict = false;
  bool color = false;  ///< set from TTY + NO_COLOR
  /// Progress bar on stderr: stderr is a terminal and no -q (stdout may be a file).
  bool show_progress = false;
  bool progress_color = false;  ///< the bar in colour: neither NO_COLOR nor --no-color
};

/// A registered subcommand: `run` is called once the command line is parsed
/// and `app` was the one chosen.
struct subcommand {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// Adds a subcommand to `app`: its options bound to its own state, the common
/// ones (add_common) to `o`. Each subcommand's file defines one; subcommands.def lists them.
using register_fn = subcommand (*)(CLI::App& app, common_options& o);

#define TPUPROF_SUBCOMMAND(name) subcommand register_##name(CLI::App& app, common_options& o);
#include "subcommands.def"
#undef TPUPROF_SUBCOMMAND

/// Input, chip and clock options shared by the decoding subcommands, with
/// bigTpuProfile's spellings as aliases.
void add_common(CLI::App* sc, common_options& o);

/// tpuprof::open with the command line's options: a dump directory, or a
/// parent of several (one device each). Throws tpuprof::decode_error (with
/// the --chip hint when the chip cannot be told). `operands`: keep the memory
/// operands (the HTML memory charts); `dependencies`: keep what each command
/// waits for (critical-path, whatif).
/// `o` with the analysis subcommands' default clock: shared-counter times,
/// where every dependency holds (docs/analysis.md), unless --time-base says.
common_options analysis_options(const common_options& o);

tpuprof::trace load(const common_options& o, progress& p, bool operands = false,
                    bool dependencies = false);

/// The exit code after a decode: data_loss under --strict when data was lost.
int finish(const common_options& o, const tpuprof::trace& t);
int finish(const common_options& o, const tpuprof::decode_diagnostics& d);

/// `tpuprof --completion bash|zsh`: a completion script for the subcommands and
/// options registered in `app` (completion.cpp).
std::string completion_script(const CLI::App& app, const std::string& shell);

/// A JSON string literal of `s`.
std::string json_str(std::string_view s);
/// `v` as a JSON number (shortest round-trip form); null for NaN and infinities.
std::string json_num(double v);
/// `v` with `prec` decimals; "" for NaN and infinities.
std::string num(double v, int prec = 3);
/// num() for JSON: the same digits, but NaN and infinities are null.
std::string json_fixed(double v, int prec = 3);
/// Engine name as the JSON keys spell it ("tiu", "gdma", ...).
std::string json_engine(tpuprof::engine e);
/// Op name of `e`, "unknown" when it has none.
std::string op_text(const tpuprof::trace_info& i, const tpuprof::engine_event& e);
/// --by value of group and diff; throws std::invalid_argument.
tpuprof::group_key parse_group_key(const std::string& by);
/// Prints `table` fitted to the terminal width (terminal_width()).
void print_table(const text_table& table);
/// Parses "1us", "250ns", "2ms", "1.5s" or a bare number of ns.
std::optional<double> parse_duration_ns(const std::string& s);
/// The slice marks of the critical path of `shown` (decoded with `o`): the
/// analysis runs on the critical-path subcommand's times (analysis_options),
/// with a second decode when `o` asks for other times (critical_path.cpp).
tpuprof::sinks::slice_marks critical_path_marks(const common_options& o,
                                                const tpuprof::trace& shown, progress& p);
/// report.html, with the memory charts when the trace kept operands, the
/// critical path section when `critical_path` is given, the Findings section
/// when `findings` is.
void write_report(const std::string& file, const tpuprof::trace& t,
                  const tpuprof::report::critical_path_summary* critical_path = nullptr,
                  const tpuprof::report::findings_summary* findings = nullptr);
/// The report's critical path and idle causes when `shown` (decoded with `o`
/// and dependencies) has dependency data, on analysis_options' times (critical_path.cpp).
std::optional<tpuprof::report::critical_path_summary> report_critical_path(
    const common_options& o, const tpuprof::trace& shown, progress& p);

}  // namespace cli
