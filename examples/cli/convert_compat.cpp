// bigTpuProfile's call form of `tpuprof convert` and the optional outputs
// (SQLite, the workbook: written by modules loaded on demand, optional_outputs.hpp).
#include "convert_compat.hpp"

#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/sinks/instr_world.hpp>
#include <tpuprof/sinks/reginfo.hpp>
#include <tpuprof/sinks/register_fields.hpp>

#include "optional_outputs.hpp"

namespace fs = std::filesystem;
using namespace tpuprof;

namespace cli {
namespace {

/// bigTpuProfile's --enable_doc (and not --disable_doc): RegInfo files and the workbook.
bool doc_outputs(const compat_options& c) {
  return c.enable_doc && !c.disable_doc;
}

/// One RegInfo file: the events of `engines` on `unit` (device 0), in order.
void write_reg_info(const fs::path& f, const trace& t, sinks::reg_info_kind kind,
                    std::initializer_list<engine> engines, unsigned unit,
                    const register_source& regs) {
  io::atomic_file af(f);
  sinks::reg_info_writer w(af, t.info(), kind);
  for (engine eng : engines) {
    w.restart_index();
    for (const engine_event& e : t.events(eng))
      if (e.device == 0 && e.unit == unit) w.write(e, regs(e));
  }
  w.finish();
  af.commit();
}

/// tiuRegInfo_N.txt, tdmaRegInfo_N.txt (GDMA then SDMA), cdmaRegInfo_P.txt:
/// a file for every queue of device 0 that has events, as bigTpuProfile writes them.
void write_reg_infos(const trace& t, const register_source& regs, const emit_fn& emit) {
  std::vector<bool> tiu, dma, cdma;
  for (const engine_event& e : t.events()) {
    if (e.device != 0 || !is_hardware(e.engine)) continue;
    auto& v = e.engine == engine::tiu ? tiu : e.engine == engine::cdma ? cdma : dma;
    if (v.size() <= e.unit) v.resize(e.unit + 1u, false);
    v[e.unit] = true;
  }
  using K = sinks::reg_info_kind;
  for (unsigned u = 0; u < tiu.size(); ++u)
    if (tiu[u])
      emit(fmt::format("tiuRegInfo_{}.txt", u),
           [&](const fs::path& f) { write_reg_info(f, t, K::tiu, {engine::tiu}, u, regs); });
  for (unsigned u = 0; u < dma.size(); ++u)
    if (dma[u])
      emit(fmt::format("tdmaRegInfo_{}.txt", u), [&](const fs::path& f) {
        write_reg_info(f, t, K::tdma, {engine::gdma, engine::sdma}, u, regs);
      });
  for (unsigned u = 0; u < cdma.size(); ++u)
    if (cdma[u])
      emit(fmt::format("cdmaRegInfo_{}.txt", u),
           [&](const fs::path& f) { write_reg_info(f, t, K::cdma, {engine::cdma}, u, regs); });
}

/// The workbook's name: perfdoc.xlsx, or bigTpuProfile's PerfDoc/<OUT>.xlsx.
std::string workbook_name(const output_plan& plan) {
  if (!plan.vendor) return "perfdoc.xlsx";
  std::string out = fs::absolute(plan.dir).lexically_normal().filename().string();
  if (out.empty())
    out = fs::absolute(plan.dir).lexically_normal().parent_path().filename().string();
  return "PerfDoc/" + out + ".xlsx";
}

}  // namespace

void add_compat_options(CLI::App* sc, compat_options& c) {
  sc->add_option("out", c.out_positional,
                 "bigTpuProfile's OUT: its file names (perfetto.pftrace, summary.txt)");
  sc->add_option("--layout", c.layout,
                 "file names: tpuprof (default with -o) or bigtpuprofile (default with OUT)")
      ->check(CLI::IsMember({"tpuprof", "bigtpuprofile"}));
  sc->add_flag("--enable_doc", c.enable_doc,
               "bigTpuProfile's doc outputs (bigTpuProfile layout; see docs/cli.md)");
  sc->add_flag("--disable_doc", c.disable_doc,
               "no doc outputs (the default; bigTpuProfile layout)");
  sc->add_flag("--disable_web", c.disable_web,
               "no web page (the default; report.html only with --html; bigTpuProfile layout)");
  sc->add_flag("--sqlite", c.sqlite, "trace.sqlite (SQLite database, docs/sinks.md)");
  sc->add_option("--sqlite-db", c.sqlite_db,
                 "append this dump to the SQLite database FILE (implies --sqlite)");
  sc->add_option("--label", c.label, "free text stored in the database's runs.label");
  sc->add_flag("--xlsx", c.xlsx,
               "PerfDoc workbook: perfdoc.xlsx (PerfDoc/<OUT>.xlsx in bigTpuProfile's layout)");
  sc->add_flag("--registers", c.registers,
               "with --csv: the decoded register fields as extra columns of events.csv");
}

std::shared_ptr<register_source> register_lookup(const compat_options& c, const common_options& o) {
  if (!c.xlsx && !c.registers && !doc_outputs(c)) return nullptr;
  return std::make_shared<register_source>(o);
}

sinks::csv_options csv_options_for(const compat_options& c,
                                   const std::shared_ptr<register_source>& regs) {
  sinks::csv_options so;
  if (c.registers && regs) {
    so.extra_header = sinks::register_csv_header();
    so.extra = [regs](std::string& out, const engine_event& e) {
      sinks::append_register_csv(out, (*regs)(e));
    };
  }
  return so;
}

output_plan plan_outputs(const compat_options& c, const std::string& o_dir) {
  if (!c.out_positional.empty() && !o_dir.empty())
    throw std::invalid_argument("give the output directory once: -o DIR or OUT, not both");
  output_plan p;
  p.vendor = c.layout == "bigtpuprofile" ||
             (c.layout.empty() &&
              (!c.out_positional.empty() || c.enable_doc || c.disable_doc || c.disable_web));
  if (!c.out_positional.empty())
    p.dir = c.out_positional;
  else if (!o_dir.empty())
    p.dir = o_dir;
  else
    p.dir = p.vendor ? "profile_out" : "tpuprof_out";
  if (p.vendor) p.perfetto_name = "perfetto.pftrace";
    // The modules of the optional outputs, now: a missing one fails before the decode.
#if TPUPROF_WITH_XLSX
  if (c.xlsx || doc_outputs(c)) modules::require("xlsx");
#endif
#if TPUPROF_WITH_SQLITE
  if (c.sqlite || !c.sqlite_db.empty()) modules::require("sqlite");
#endif
  return p;
}

void write_compat_outputs(const compat_options& c, const trace& t, const output_plan& plan,
                          const emit_fn& emit, const std::shared_ptr<register_source>& regs) {
  if (doc_outputs(c) && regs) write_reg_infos(t, *regs, emit);
  if (c.xlsx || doc_outputs(c)) {
#if TPUPROF_WITH_XLSX
    emit(workbook_name(plan), [&](const fs::path& f) {
      modules::xlsx_job job{t, f, {}};
      if (regs) job.command = [regs](const engine_event& e) { return (*regs)(e); };
      modules::write_xlsx(job);
    });
    if (plan.vendor) {  // bigTpuProfile's "Instr World" table next to its workbook
      std::string csv = workbook_name(plan);
      csv.replace(csv.size() - 4, 4, "csv");
      emit(csv, [&](const fs::path& f) {
        io::atomic_file af(f);
        sinks::command_lookup cmd;
        if (regs) cmd = [regs](const engine_event& e) { return (*regs)(e); };
        sinks::write_instr_world(af, t, cmd);
        af.commit();
      });
    }
#else
    throw std::invalid_argument(
        "--xlsx / --enable_doc: this tpuprof was built without libxlsxwriter "
        "(apt-get install libxlsxwriter-dev, TPUPROF_WITH_XLSX=ON)");
#endif
  }
  if (c.sqlite || !c.sqlite_db.empty()) {
#if TPUPROF_WITH_SQLITE
    auto write_db = [&](const fs::path& f) {
      // other runs append to a --sqlite-db: durable settings
      modules::write_sqlite({t, f, c.label, !c.sqlite_db.empty()});
    };
    if (c.sqlite_db.empty()) {
      // OUT/trace.sqlite holds this dump only: one file of the output set.
      emit("trace.sqlite", [&](const fs::path& f) {
        fs::remove(f);
        write_db(f);
      });
    } else {
      // --sqlite-db (relative to the working directory, not to OUT) is shared by
      // many runs, not part of this run's set: appended in one transaction
      // (a failure rolls back).
      write_db(fs::absolute(c.sqlite_db));
    }
#else
    throw std::invalid_argument(
        "--sqlite: this tpuprof was built without SQLite "
        "(apt-get install libsqlite3-dev, TPUPROF_WITH_SQLITE=ON)");
#endif
  }
}

}  // namespace cli
