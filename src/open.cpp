// Compiled mode (TPUPROF_COMPILED_LIB): tpuprof::open for every supported chip,
// compiled once; include/tpuprof/open_options.hpp declares these overloads.
#include <tpuprof/open.hpp>

namespace tpuprof {

trace open(io::dump_files files, const open_options& o) {
  return open<chips::all>(std::move(files), o);
}
trace open(std::vector<io::dump_files> devices, const open_options& o) {
  return open<chips::all>(std::move(devices), o);
}
trace open(const std::filesystem::path& input, const open_options& o) {
  return open<chips::all>(input, o);
}

}  // namespace tpuprof
