// tpuprof_xlsx.so: the PerfDoc workbook, in a module so that libxlsxwriter (and
// libcrypto, minizip, zlib behind it) load only when a run asks for it
// (../optional_outputs.hpp).
#include <tpuprof/sinks/xlsx.hpp>

#include "../optional_outputs.hpp"

extern "C" __attribute__((visibility("default"))) const char* tpuprof_module_tag() {
  return cli::modules::tag;
}

extern "C" __attribute__((visibility("default"))) void tpuprof_write_xlsx(
    const cli::modules::xlsx_job& job) {
  tpuprof::sinks::xlsx_options xo;
  xo.command = job.command;
  tpuprof::sinks::write_xlsx(job.file, job.t, xo);
}
