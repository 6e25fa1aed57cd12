// bigTpuProfile's call form of `tpuprof convert` (positional OUT, its flags
// and file names) and the optional outputs (SQLite, xlsx), kept apart from
// convert.cpp so the two evolve separately (docs/cli.md, "From bigTpuProfile").
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include <tpuprof/sinks/csv.hpp>
#include <tpuprof/trace.hpp>

#include "registers.hpp"

namespace CLI {
class App;
}

namespace cli {

struct compat_options {
  std::string out_positional;  ///< bigTpuProfile's OUT (second positional)
  std::string layout;          ///< "", "tpuprof" or "bigtpuprofile"
  bool enable_doc = false, disable_doc = false, disable_web = false;
  bool sqlite = false;
  std::string sqlite_db;   ///< --sqlite-db FILE: append to this database
  std::string label;       ///< --label: runs.label in the database
  bool xlsx = false;       ///< --xlsx: the PerfDoc workbook (perfdoc.xlsx)
  bool registers = false;  ///< --registers: register columns in events.csv
};

/// What run_convert writes and where.
struct output_plan {
  std::filesystem::path dir;
  bool vendor = false;                          ///< bigTpuProfile's file names and set
  std::string perfetto_name = "trace.pftrace";  ///< "perfetto.pftrace" in the vendor layout
};

/// Adds OUT, --layout, --enable_doc, --disable_doc, --disable_web, --sqlite,
/// --sqlite-db, --label, --xlsx, --registers to `sc`.
void add_compat_options(CLI::App* sc, compat_options& c);

/// The output directory and names: `-o` (tpuprof names, default tpuprof_out/)
/// or bigTpuProfile's OUT / its own flags (its names, default profile_out/).
/// Throws std::invalid_argument when -o and OUT are both given. Loads the
/// modules of the optional outputs asked for (optional_outputs.hpp): throws
/// io::output_error when one is missing, before anything is decoded.
output_plan plan_outputs(const compat_options& c, const std::string& o_dir);

/// A step that writes one output file: (file name in OUT, writer).
using emit_fn = std::function<void(const std::string&,
                                   const std::function<void(const std::filesystem::path&)>&)>;

/// The descriptors for the outputs that show register fields (--xlsx,
/// --registers, bigTpuProfile's doc outputs); null when none is asked for.
std::shared_ptr<register_source> register_lookup(const compat_options& c, const common_options& o);

/// events.csv's options: the register columns with --registers.
tpuprof::sinks::csv_options csv_options_for(const compat_options& c,
                                            const std::shared_ptr<register_source>& regs);

/// The optional outputs of `c` through `emit`: trace.sqlite, perfdoc.xlsx,
/// and with --enable_doc bigTpuProfile's RegInfo files and PerfDoc/<OUT>.xlsx.
void write_compat_outputs(const compat_options& c, const tpuprof::trace& t, const output_plan& plan,
                          const emit_fn& emit, const std::shared_ptr<register_source>& regs);

}  // namespace cli
