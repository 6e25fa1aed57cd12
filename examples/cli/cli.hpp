// Shared declarations of the tpuprof CLI (examples/cli): options, loading, commands.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/views/operand_table.hpp>

namespace cli {

/// Exit codes (documented in docs/cli.md).
enum exit_code : int {
  ok = 0,
  bad_input = 1,  ///< decode_error: missing, truncated, corrupt or unsupported input
  usage = 2,      ///< bad command line
  io_error = 3,   ///< output could not be written
  data_loss = 4,  ///< --strict and the decoder reported lost data
};

struct common_options {
  std::string input;
  std::string chip;         ///< "" = auto-detect from global.profile
  double tiu_freq_mhz = 0;  ///< 0 = from the dump / chip default
  double dma_freq_mhz = 0;
  int num_core = 0;  ///< 0 = all; else keep cores < num_core
  bool quiet = false;
  bool strict = false;
  bool color = false;  ///< set from TTY + NO_COLOR
};

/// Progress on stderr: only on a TTY and without -q.
class progress {
 public:
  explicit progress(bool on) : on_(on) {}
  void step(const std::string& what) {
    if (!on_) return;
    std::fprintf(stderr, "\r\033[K%s", what.c_str());
    std::fflush(stderr);
    dirty_ = true;
  }
  ~progress() { done(); }
  void done() {
    if (on_ && dirty_) std::fprintf(stderr, "\r\033[K");
    dirty_ = false;
  }

 private:
  bool on_;
  bool dirty_ = false;
};

/// Decodes a dump directory, or a parent of several dump directories (one
/// device each). Throws tpuprof::decode_error. With `ops`, also keeps the
/// memory operands of decoders that have them (the HTML memory charts).
tpuprof::materialized_trace load(const common_options& o, progress& p,
                                 tpuprof::operand_table* ops = nullptr);

struct convert_options {
  std::string out_dir = "tpuprof_out";
  bool perfetto = false, json = false, csv = false, html = false, summary = true;
  std::string host_trace;
  std::optional<double> host_offset_ns;
};
struct synth_options {
  std::string chip = "aks";
  std::string out_dir;
  unsigned records = 131072;
  unsigned cores = 0;
  unsigned mode = 1;
  unsigned cdma_ports = 0;
  std::uint64_t seed = 1;
  bool cycle_wrap = false;
};

int cmd_info(const common_options& o, bool json);
int cmd_convert(const common_options& o, const convert_options& c);
int cmd_summary(const common_options& o, const std::string& format);
int cmd_top(const common_options& o, std::size_t n, const std::string& by,
            const std::string& engine);
int cmd_gaps(const common_options& o, double min_ns, std::size_t limit);
int cmd_group(const common_options& o, const std::string& by, const std::string& format);
int cmd_diff(const common_options& o, const std::string& other, const std::string& by,
             std::size_t n);
int cmd_report(const common_options& o, const std::string& out);
int cmd_synth(const common_options& o, const synth_options& s);

/// Parses "1us", "250ns", "2ms", "1.5s" or a bare number of ns.
std::optional<double> parse_duration_ns(const std::string& s);

}  // namespace cli
