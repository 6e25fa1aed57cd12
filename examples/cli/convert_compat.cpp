// bigTpuProfile's call form of `tpuprof convert` and the optional SQLite output.
#include "convert_compat.hpp"

#include <cstdio>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include <tpuprof/algo/summary.hpp>
#if TPUPROF_WITH_SQLITE
#include <tpuprof/sinks/sqlite.hpp>
#endif

namespace fs = std::filesystem;
using namespace tpuprof;

namespace cli {

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
  return p;
}

void write_compat_outputs(const compat_options& c, const trace& t, const output_plan& plan,
                          const emit_fn& emit) {
  if (c.enable_doc &&
      !c.disable_doc)  // said even under -q: an output the user asked for is missing
    std::fprintf(stderr,
                 "tpuprof: --enable_doc: the PerfDoc workbook and the *RegInfo_N.txt files are "
                 "not written yet; --csv and --sqlite carry the same events\n");
  if (c.sqlite || !c.sqlite_db.empty()) {
#if TPUPROF_WITH_SQLITE
    auto write_db = [&](const fs::path& f) {
      sinks::sqlite_options so;
      so.label = c.label;
      so.shared = !c.sqlite_db.empty();  // other runs append to it: durable settings
      sinks::sqlite_sink s(f, so);
      s.begin(t.info());
      for (const engine_event& e : t.events()) s.write(e);
      for (const engine_event& e : t.spans()) s.write(e);
      summary_options sum;
      sum.info = &t.info();
      s.write_summary(t.events() | algo::summary(sum));
      s.finish();
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
  (void)plan;
}

}  // namespace cli
