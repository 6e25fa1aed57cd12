// tpuprof_sqlite.so: the SQLite output, in a module so that libsqlite3 loads
// only when a run asks for it (../optional_outputs.hpp).
#include <tpuprof/algo/summary.hpp>
#include <tpuprof/sinks/sqlite.hpp>

#include "../optional_outputs.hpp"

extern "C" __attribute__((visibility("default"))) const char* tpuprof_module_tag() {
  return cli::modules::tag;
}

extern "C" __attribute__((visibility("default"))) void tpuprof_write_sqlite(
    const cli::modules::sqlite_job& job) {
  using namespace tpuprof;
  sinks::sqlite_options so;
  so.label = job.label;
  so.shared = job.shared;
  sinks::sqlite_sink s(job.file, so);
  s.begin(job.t.info());
  for (const engine_event& e : job.t.events()) s.write(e);
  for (const engine_event& e : job.t.spans()) s.write(e);
  summary_options sum;
  sum.info = &job.t.info();
  s.write_summary(job.t.events() | algo::summary(sum));
  s.finish();
}
