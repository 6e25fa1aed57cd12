// The outputs whose C libraries the CLI loads only when they are asked for:
// the PerfDoc workbook (libxlsxwriter, which pulls libcrypto, minizip and zlib)
// and the SQLite database. Each is a small module (tpuprof_xlsx.so,
// tpuprof_sqlite.so, built from cli/modules/) in <dir of the binary>/../lib/tpuprof/
// that the CLI dlopen()s on first use: every other run starts without those
// libraries (about 1.5 ms and 180 page faults less; docs/performance.md).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <tpuprof/sinks/register_fields.hpp>
#include <tpuprof/trace.hpp>
#include <tpuprof/version.hpp>

namespace cli::modules {

/// Identifies the build a module belongs to: the CLI refuses a module whose tag
/// differs (another version, module ABI or compiler) instead of calling into it.
/// Bump TPUPROF_CLI_MODULE_ABI when a job struct below or an entry point changes.
#define TPUPROF_CLI_MODULE_ABI "1"
#define TPUPROF_CLI_MODULE_STR2(x) #x
#define TPUPROF_CLI_MODULE_STR(x) TPUPROF_CLI_MODULE_STR2(x)
#define TPUPROF_CLI_MODULE_VERSION                                              \
  TPUPROF_CLI_MODULE_STR(TPUPROF_VERSION_MAJOR)                                 \
  "." TPUPROF_CLI_MODULE_STR(TPUPROF_VERSION_MINOR) "." TPUPROF_CLI_MODULE_STR( \
      TPUPROF_VERSION_PATCH)
inline constexpr const char* tag = "tpuprof " TPUPROF_CLI_MODULE_VERSION
                                   ", module abi " TPUPROF_CLI_MODULE_ABI ", compiler " __VERSION__;

/// `convert --xlsx` / `--enable_doc`: the workbook at `file`.
struct xlsx_job {
  const tpuprof::trace& t;
  std::filesystem::path file;
  tpuprof::sinks::command_lookup command;  ///< register fields; may be empty
};

/// `convert --sqlite` / `--sqlite-db`: this dump into the database at `file`.
struct sqlite_job {
  const tpuprof::trace& t;
  std::filesystem::path file;
  std::string label;    ///< runs.label
  bool shared = false;  ///< a database other runs append to (durable settings)
};

/// The modules' entry points (extern "C" in the module), found with dlsym.
/// They throw as the sinks do.
using tag_fn = const char*();
using xlsx_fn = void(const xlsx_job&);
using sqlite_fn = void(const sqlite_job&);
inline constexpr const char* tag_symbol = "tpuprof_module_tag";
inline constexpr const char* xlsx_symbol = "tpuprof_write_xlsx";
inline constexpr const char* sqlite_symbol = "tpuprof_write_sqlite";

/// Where the modules are looked for: <dir of /proc/self/exe>/../lib/tpuprof
/// (the installed layout; the build tree mirrors it).
std::filesystem::path module_dir();

/// Loads module `name` ("xlsx" or "sqlite") once, so that a missing or foreign
/// module fails before the input is decoded. Throws tpuprof::io::output_error
/// naming the file.
void require(std::string_view name);

/// Through the loaded module (loading it first).
void write_xlsx(const xlsx_job& job);
void write_sqlite(const sqlite_job& job);

}  // namespace cli::modules
