// libFuzzer target: a whole dump directory in one input, global.profile and
// chip detection included. The input is a tar-like list of files, each
// `u8 name length, name, u32 LE data length (clipped to what is left), data`
// (tools/fuzz_pack.py writes seeds from dump directories). tpuprof::open
// detects the chip and decodes; decode_error is the only acceptable failure.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <tpuprof/open.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> names;
  std::vector<std::span<const std::byte>> bodies;
  std::size_t p = 0;
  while (p < size && names.size() < 64) {
    const std::size_t nl = data[p++];
    if (nl > size - p) break;
    names.emplace_back(reinterpret_cast<const char*>(data + p), nl);
    p += nl;
    std::uint32_t len = 0;
    if (size - p >= 4) std::memcpy(&len, data + p, 4);
    p += std::min<std::size_t>(4, size - p);
    const std::size_t n = std::min<std::size_t>(len, size - p);
    bodies.emplace_back(reinterpret_cast<const std::byte*>(data + p), n);
    p += n;
  }
  std::vector<tpuprof::io::dump_files::memory_file> files;
  for (std::size_t i = 0; i < names.size(); ++i) files.push_back({names[i], bodies[i]});
  try {
    auto t = tpuprof::open(tpuprof::io::dump_files::from_memory(std::move(files), "fuzz"));
    std::uint64_t sum = 0;
    for (const auto& e : t.events()) sum += e.begin_cycle ^ e.end_cycle ^ e.bytes;
    for (const auto& s : t.spans()) sum += s.cmd_id;
    (void)sum;
  } catch (const tpuprof::decode_error&) {
  }
  return 0;
}
