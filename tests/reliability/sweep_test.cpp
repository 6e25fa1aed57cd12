// Sweeps over every sample in ../shared/samples: truncation at every block and
// record boundary, and single-bit flips. No crash or hang; every error names
// its file and byte offset; a decode that yields fewer events than the clean
// one reports data loss. Bounded by default (an even spread of positions);
// TPUPROF_SWEEP_FULL=1 runs every position.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/tpuprof.hpp>

#if defined(TPUPROF_SAMPLES_DIR)
namespace fs = std::filesystem;

namespace {

struct loaded_dump {
  std::string label;
  std::vector<std::string> names;
  std::vector<std::vector<std::byte>> bytes;
};

loaded_dump load(const fs::path& dir) {
  loaded_dump d;
  d.label = dir.filename().string();
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto n = e.path().filename().string();
    if (n.ends_with(".mlir") || n.ends_with(".json")) continue;  // not read by the decoders
    std::ifstream in(e.path(), std::ios::binary);
    std::vector<char> c((std::istreambuf_iterator<char>(in)), {});
    d.names.push_back(n);
    d.bytes.emplace_back(reinterpret_cast<std::byte*>(c.data()),
                         reinterpret_cast<std::byte*>(c.data()) + c.size());
  }
  return d;
}

std::vector<fs::path> sample_dumps() {
  std::vector<fs::path> v;
  for (const auto& e : fs::recursive_directory_iterator(TPUPROF_SAMPLES_DIR))
    if (e.is_regular_file() && e.path().filename() == "global.profile")
      v.push_back(e.path().parent_path());
  std::sort(v.begin(), v.end());
  return v;
}

bool binary(const std::string& n) {
  return n.ends_with(".profile") && n != "global.profile";
}

/// Block boundaries and every 16th byte inside a block (16 divides every
/// record size, so every record boundary is among them).
std::vector<std::size_t> boundaries(const std::vector<std::byte>& f) {
  std::vector<std::size_t> v;
  for (std::size_t o = 0; o + 8 <= f.size();) {
    std::uint32_t len;
    std::memcpy(&len, f.data() + o + 4, 4);
    v.push_back(o);
    if (len > f.size() - o - 8) break;
    for (std::size_t r = 8; r < len; r += 16) v.push_back(o + r);
    o += 8 + len;
  }
  return v;
}

/// At most `n` of `v`, evenly spread (all when TPUPROF_SWEEP_FULL is set).
template <class T>
std::vector<T> spread(const std::vector<T>& v, std::size_t n) {
  if (std::getenv("TPUPROF_SWEEP_FULL") || v.size() <= n) return v;
  std::vector<T> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(v[i * v.size() / n]);
  return out;
}

struct outcome {
  std::size_t errors = 0, decodes = 0, losses = 0;
};

/// Decodes the dump with file `which` replaced by `bytes`; checks the rules.
void check_one(const loaded_dump& d, std::size_t which, const std::vector<std::byte>& bytes,
               std::size_t clean_events, outcome& o) {
  std::vector<tpuprof::io::dump_files::memory_file> files;
  for (std::size_t i = 0; i < d.names.size(); ++i)
    files.push_back({d.names[i], i == which ? std::span<const std::byte>(bytes)
                                            : std::span<const std::byte>(d.bytes[i])});
  try {
    auto t = tpuprof::open(tpuprof::io::dump_files::from_memory(std::move(files), d.label));
    ++o.decodes;
    if (t.events().size() < clean_events) {
      CHECK_MESSAGE(t.diagnostics().data_loss(), d.names[which] << " lost "
                                                                << clean_events - t.events().size()
                                                                << " events silently");
      o.losses += t.diagnostics().data_loss();
    }
  } catch (const tpuprof::decode_error& e) {
    ++o.errors;
    CHECK_MESSAGE(e.offset() != tpuprof::decode_error::no_offset, e.what());
    CHECK_MESSAGE(!e.file().empty(), e.what());
  }
}

}  // namespace

TEST_CASE("sweep: truncation at every block and record boundary of every sample") {
  for (const auto& dir : sample_dumps()) {
    const auto d = load(dir);
    const auto clean = tpuprof::open(tpuprof::io::dump_files::from_memory(
                                         [&] {
                                           std::vector<tpuprof::io::dump_files::memory_file> f;
                                           for (std::size_t i = 0; i < d.names.size(); ++i)
                                             f.push_back({d.names[i], d.bytes[i]});
                                           return f;
                                         }(),
                                         d.label))
                           .events()
                           .size();
    outcome o;
    for (std::size_t i = 0; i < d.names.size(); ++i) {
      if (!binary(d.names[i])) continue;
      CAPTURE(dir.string());
      CAPTURE(d.names[i]);
      for (std::size_t cut : spread(boundaries(d.bytes[i]), 24)) {
        CAPTURE(cut);
        std::vector<std::byte> b(d.bytes[i].begin(),
                                 d.bytes[i].begin() + static_cast<std::ptrdiff_t>(cut));
        check_one(d, i, b, clean, o);
      }
    }
    MESSAGE(dir.filename().string() << ": " << o.errors << " errors, " << o.decodes << " decodes, "
                                    << o.losses << " reported losses");
  }
}

TEST_CASE("sweep: single-bit flips over every sample") {
  for (const auto& dir : sample_dumps()) {
    const auto d = load(dir);
    std::vector<std::pair<std::size_t, std::size_t>> bits;  // (file, bit)
    for (std::size_t i = 0; i < d.names.size(); ++i)
      for (std::size_t b = 0; b < d.bytes[i].size() * 8; b += 7) bits.emplace_back(i, b);
    outcome o;
    std::vector<tpuprof::io::dump_files::memory_file> f;
    for (std::size_t i = 0; i < d.names.size(); ++i) f.push_back({d.names[i], d.bytes[i]});
    const auto clean =
        tpuprof::open(tpuprof::io::dump_files::from_memory(f, d.label)).events().size();
    for (const auto& [i, bit] : spread(bits, 40)) {
      CAPTURE(dir.string());
      CAPTURE(d.names[i]);
      CAPTURE(bit);
      auto b = d.bytes[i];
      b[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
      check_one(d, i, b, clean, o);
    }
    MESSAGE(dir.filename().string() << ": " << o.errors << " errors, " << o.decodes << " decodes, "
                                    << o.losses << " reported losses");
  }
}
#endif
