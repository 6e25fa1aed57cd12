// libFuzzer target: bmprofile dumps (BM1684X, BM1688 with 1 and 2 cores, CV184X) with one file
// replaced by fuzz input, decoded through chip detection (detect_dump over chips::all, then the
// chip's decoder). First byte: high nibble picks the dump, low nibble the file (in the order of
// the generator's files: global.profile, the cmd files, iter0.profile).
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/detect.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>
#include <tpuprof/synth/indexed_synth.hpp>

namespace {
const std::array<tpuprof::synth::generated_dump, 4>& bases() {
  static const auto g = [] {
    tpuprof::synth::bm1684x_options o;
    o.layers = 8;
    tpuprof::synth::indexed_options x;
    x.layers = 4;
    tpuprof::synth::indexed_options x2 = x;
    x2.cores = 2;
    return std::array<tpuprof::synth::generated_dump, 4>{
        tpuprof::synth::bm1684x_dump(o), tpuprof::synth::indexed_dump<tpuprof::chips::bm1688>(x),
        tpuprof::synth::indexed_dump<tpuprof::chips::bm1688>(x2),
        tpuprof::synth::indexed_dump<tpuprof::chips::cv184x>(x)};
  }();
  return g;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const auto& g = bases()[(data[0] >> 4) % bases().size()];
  std::vector<tpuprof::io::dump_files::memory_file> files;
  const std::size_t which = (data[0] & 15u) % g.files.size();
  for (std::size_t i = 0; i < g.files.size(); ++i) {
    if (i == which)
      files.push_back({g.files[i].first, {reinterpret_cast<const std::byte*>(data + 1), size - 1}});
    else
      files.push_back({g.files[i].first, g.files[i].second});
  }
  try {
    auto f = tpuprof::io::dump_files::from_memory(files);
    const auto d = tpuprof::detect_dump(f, tpuprof::chips::all{});
    if (d.family != tpuprof::dump_family::bmprofile) return 0;
    tpuprof::with_chip(tpuprof::chips::all{}, d.chip, [&]<class C>() {
      if constexpr (C::family == tpuprof::dump_family::bmprofile) {
        tpuprof::bmprofile_decoder<C> dec(std::move(f));
        std::uint64_t sum = 0;
        for (const auto& e : dec.events()) sum += e.begin_cycle ^ e.end_cycle ^ e.bytes;
        for (const auto& e : dec.spans()) sum += e.cmd_id;
        (void)sum;
      }
    });
  } catch (const tpuprof::decode_error&) {
  }
  return 0;
}
