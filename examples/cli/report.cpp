// tpuprof report: one self-contained HTML report (findings, timeline, tables, overview).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/io/output_set.hpp>
#include <tpuprof/report/critical_path_summary.hpp>
#include <tpuprof/report/findings_summary.hpp>
#include <tpuprof/report/html.hpp>
#include <tpuprof/trace.hpp>

#include "advise_data.hpp"
#include "cli.hpp"

using namespace tpuprof;

namespace cli {

void write_report(const std::string& file, const trace& t,
                  const report::critical_path_summary* critical_path,
                  const report::findings_summary* findings) {
  report::html_options opt;
  opt.critical_path = critical_path;
  opt.findings = findings;
  if (t.has_operands())
    report::write_html_file(file, t, t, opt);
  else
    report::write_html_file(file, t, opt);
}

report_sections report_analysis(const common_options& o, const trace& t, progress& p, bool advise,
                                const advise_use& also) {
  report_sections s;
  if (!advise) {
    s.critical_path = report_critical_path(o, t, p);
    return s;
  }
  // One analysis for both sections: the advisor's graph gives the critical path too.
  with_advice(o, t, p, [&](const trace& a, const advise_result& r) {
    s.findings = report_findings(a, r, t);
    if (t.has_dependencies())
      s.critical_path = report::summarize_critical_path(r.graph, algo::critical_path(r.graph),
                                                        algo::idle_causes(r.graph), t.events());
    if (also) also(a, r);
  });
  return s;
}

void write_report(const std::string& file, const trace& t, const report_sections& s) {
  write_report(file, t, s.critical_path ? &*s.critical_path : nullptr,
               s.findings ? &*s.findings : nullptr);
}

subcommand register_report(CLI::App& app, common_options& o) {
  auto out = std::make_shared<std::string>("report.html");
  auto fsync = std::make_shared<bool>(false);
  auto no_advise = std::make_shared<bool>(false);
  auto* sc = app.add_subcommand(
      "report", "one self-contained HTML report (findings, timeline, tables, overview)");
  add_common(sc, o);
  sc->add_option("-o,--output", *out, "file to write (default report.html)");
  sc->add_flag("--no-advise", *no_advise,
               "no Findings section (skips the advisor; docs/analysis.md, \"advise\")");
  sc->add_flag("--fsync", *fsync, "flush the report to disk before committing it");
  return {sc, [&o, out, no_advise, fsync] {
            progress p(o.show_progress, o.progress_color);
            auto t = load(o, p, true, true);
            const auto s = report_analysis(o, t, p, !*no_advise);
            p.step("writing " + *out);
            const std::filesystem::path f(*out);
            io::output_set set(f.has_parent_path() ? f.parent_path() : ".", {},
                               *fsync ? io::durability::power_loss : io::durability::crash);
            write_report(set.stage(f.filename().string()).string(), t, s);
            set.commit();
            p.done();
            if (!o.quiet) fmt::print("wrote {}\n", *out);
            return finish(o, t);
          }};
}

}  // namespace cli
