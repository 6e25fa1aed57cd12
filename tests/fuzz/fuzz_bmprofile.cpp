// libFuzzer target: bmprofile dumps (BM1684X, BM1688 with 1 and 2 cores, CV184X) with one file
// replaced by fuzz input, decoded through chip detection (detect_dump over chips::all, then the
// chip's decoder). First byte: high nibble picks the dump (4 generator seeds each of BM1684X,
// BM1688, BM1688 with 2 cores, CV184X), low nibble the file (in the order of the generator's
// files: global.profile, the cmd files, iter0.profile).
//
// Speed (issue #17, >= 2000 exec/s under ASan+UBSan): the base dumps are the smallest the
// generators make (one layer; they were 4-8 layers: 2.9x slower per input), built once in
// LLVMFuzzerInitialize together with the file lists every input reuses; an input only swaps one
// span. The seeds are these bases' files (`TPUPROF_FUZZ_WRITE_SEEDS=DIR fuzz_bmprofile -runs=0`
// writes them) and the first 4 KiB of real BM1688 / CV184X capture files (`real_*`).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/detect.hpp>
#include <tpuprof/detail/extern_templates.hpp>  // compiled mode: decoders from tpuprof_compiled
#include <tpuprof/synth/bm1684x_synth.hpp>
#include <tpuprof/synth/indexed_synth.hpp>

namespace {
using tpuprof::io::dump_files;

struct base {
  const char* label;
  tpuprof::synth::generated_dump dump;
  std::vector<dump_files::memory_file> files;  ///< spans into `dump`, reused by every input
};

/// 16 bases (the selector's high nibble): each chip form with generator seeds 1-4. Many
/// one-layer dumps cover as many op kinds as a few big ones, at a fraction of the cost per input.
std::array<base, 16>& bases() {
  static std::array<base, 16> g = [] {
    std::array<base, 16> b;
    for (std::uint64_t k = 0; k < 4; ++k) {
      tpuprof::synth::bm1684x_options o;
      o.layers = 1;
      o.seed = k + 1;
      tpuprof::synth::indexed_options x;
      x.layers = 1;
      x.seed = k + 1;
      tpuprof::synth::indexed_options x2 = x;
      x2.cores = 2;
      b[k] = {"bm1684x", tpuprof::synth::bm1684x_dump(o), {}};
      b[4 + k] = {"bm1688", tpuprof::synth::indexed_dump<tpuprof::chips::bm1688>(x), {}};
      b[8 + k] = {"bm1688_2core", tpuprof::synth::indexed_dump<tpuprof::chips::bm1688>(x2), {}};
      b[12 + k] = {"cv184x", tpuprof::synth::indexed_dump<tpuprof::chips::cv184x>(x), {}};
    }
    for (auto& d : b)
      for (const auto& [name, bytes] : d.dump.files) d.files.push_back({name, bytes});
    return b;
  }();
  return g;
}

/// One seed per file of every base: the selector byte, then the file's bytes.
void write_seeds(const std::string& dir) {
  for (std::size_t d = 0; d < bases().size(); ++d) {
    const auto& b = bases()[d];
    for (std::size_t i = 0; i < b.dump.files.size() && i < 16; ++i) {
      const auto& [name, bytes] = b.dump.files[i];
      char sel[3];
      std::snprintf(sel, sizeof sel, "%x%x", static_cast<unsigned>(d), static_cast<unsigned>(i));
      std::ofstream out(dir + "/" + b.label + "_" + sel + "_" + name, std::ios::binary);
      out.put(static_cast<char>(d << 4 | i));
      out.write(reinterpret_cast<const char*>(bytes.data()),
                static_cast<std::streamsize>(bytes.size()));
    }
  }
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)bases();
  if (const char* dir = std::getenv("TPUPROF_FUZZ_WRITE_SEEDS")) write_seeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  auto& g = bases()[(data[0] >> 4) % bases().size()];
  const std::size_t which = (data[0] & 15u) % g.files.size();
  const auto original = g.files[which].bytes;
  g.files[which].bytes = {reinterpret_cast<const std::byte*>(data + 1), size - 1};
  auto files = g.files;
  g.files[which].bytes = original;
  try {
    auto f = dump_files::from_memory(std::move(files));
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
