// tpuprof report: one self-contained HTML report (timeline, tables, overview).
#include <filesystem>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <tpuprof/io/output_set.hpp>
#include <tpuprof/report/critical_path_summary.hpp>
#include <tpuprof/report/html.hpp>
#include <tpuprof/trace.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {

void write_report(const std::string& file, const trace& t,
                  const report::critical_path_summary* critical_path) {
  report::html_options opt;
  opt.critical_path = critical_path;
  if (t.has_operands())
    report::write_html_file(file, t, t, opt);
  else
    report::write_html_file(file, t, opt);
}

subcommand register_report(CLI::App& app, common_options& o) {
  auto out = std::make_shared<std::string>("report.html");
  auto fsync = std::make_shared<bool>(false);
  auto* sc =
      app.add_subcommand("report", "one self-contained HTML report (timeline, tables, overview)");
  add_common(sc, o);
  sc->add_option("-o,--output", *out, "file to write (default report.html)");
  sc->add_flag("--fsync", *fsync, "flush the report to disk before committing it");
  return {sc, [&o, out, fsync] {
            progress p(o.show_progress, o.progress_color);
            auto t = load(o, p, true, true);
            const auto cp = report_critical_path(o, t, p);
            p.step("writing " + *out);
            const std::filesystem::path f(*out);
            io::output_set set(f.has_parent_path() ? f.parent_path() : ".", {},
                               *fsync ? io::durability::power_loss : io::durability::crash);
            write_report(set.stage(f.filename().string()).string(), t, cp ? &*cp : nullptr);
            set.commit();
            p.done();
            if (!o.quiet) fmt::print("wrote {}\n", *out);
            return finish(o, t);
          }};
}

}  // namespace cli
