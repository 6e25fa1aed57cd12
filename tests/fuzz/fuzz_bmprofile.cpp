// libFuzzer target: BM1684X dumps with one file replaced by fuzz input.
// First byte picks the file (iter0.profile, global.profile, a cmd file).
#include <cstddef>
#include <cstdint>

#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>

namespace {
const tpuprof::synth::generated_dump& base() {
  static const auto g = [] {
    tpuprof::synth::bm1684x_options o;
    o.layers = 8;
    return tpuprof::synth::bm1684x_dump(o);
  }();
  return g;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const auto& g = base();
  std::vector<tpuprof::io::dump_files::memory_file> files;
  const std::size_t which = data[0] % g.files.size();
  for (std::size_t i = 0; i < g.files.size(); ++i) {
    if (i == which)
      files.push_back({g.files[i].first, {reinterpret_cast<const std::byte*>(data + 1), size - 1}});
    else
      files.push_back({g.files[i].first, g.files[i].second});
  }
  try {
    tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d(
        tpuprof::io::dump_files::from_memory(files));
    std::uint64_t sum = 0;
    for (const auto& e : d.events()) sum += e.begin_cycle ^ e.end_cycle ^ e.bytes;
    for (const auto& e : d.spans()) sum += e.cmd_id;
    (void)sum;
  } catch (const tpuprof::decode_error&) {
  }
  return 0;
}
