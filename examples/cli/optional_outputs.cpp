// Loads the xlsx and SQLite modules on demand (optional_outputs.hpp).
#include "optional_outputs.hpp"
#include <dlfcn.h>

#include <mutex>
#include <string>
#include <system_error>

#include <tpuprof/io/atomic_file.hpp>

#ifndef TPUPROF_MODULE_RELDIR
#define TPUPROF_MODULE_RELDIR "../lib/tpuprof"  // CMake passes bindir -> libdir/tpuprof
#endif

namespace fs = std::filesystem;

namespace cli::modules {
namespace {

struct loaded {
  std::once_flag once;
  void* handle = nullptr;
  std::string error;  // why it could not be loaded
};

/// The outputs a module writes (for the messages).
const char* outputs_of(std::string_view name) {
  return name == "xlsx" ? "the PerfDoc workbook (--xlsx, --enable_doc)"
                        : "the SQLite output (--sqlite, --sqlite-db)";
}

void load(std::string_view name, loaded& m) {
  const std::string file = (module_dir() / ("tpuprof_" + std::string(name) + ".so")).string();
  const std::string why = std::string(outputs_of(name)) + " needs the module " + file + ": ";
  void* h = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    std::string e = ::dlerror();
    if (e.rfind(file + ": ", 0) == 0) e.erase(0, file.size() + 2);  // named once is enough
    m.error = why + e + " (reinstall tpuprof, or build the target tpuprof_" + std::string(name) +
              "_module)";
    return;
  }
  auto* tag_of = reinterpret_cast<tag_fn*>(::dlsym(h, tag_symbol));
  const std::string got = tag_of ? tag_of() : "(none)";
  if (got != tag) {
    ::dlclose(h);
    m.error = why + "it is from another build (\"" + got + "\", this binary is \"" + tag +
              "\"): reinstall tpuprof";
    return;
  }
  m.handle = h;
}

void* symbol(std::string_view name, const char* sym) {
  static loaded xlsx, sqlite;
  loaded& m = name == "xlsx" ? xlsx : sqlite;
  std::call_once(m.once, [&] { load(name, m); });
  if (!m.handle) throw tpuprof::io::output_error(m.error);
  void* f = ::dlsym(m.handle, sym);
  if (!f)
    throw tpuprof::io::output_error("module tpuprof_" + std::string(name) + ".so has no " + sym);
  return f;
}

}  // namespace

fs::path module_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return fs::path(TPUPROF_MODULE_RELDIR).lexically_normal();
  return (exe.parent_path() / TPUPROF_MODULE_RELDIR).lexically_normal();
}

void require(std::string_view name) {
  symbol(name, tag_symbol);
}

void write_xlsx(const xlsx_job& job) {
  reinterpret_cast<xlsx_fn*>(symbol("xlsx", xlsx_symbol))(job);
}

void write_sqlite(const sqlite_job& job) {
  reinterpret_cast<sqlite_fn*>(symbol("sqlite", sqlite_symbol))(job);
}

}  // namespace cli::modules
