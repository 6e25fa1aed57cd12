/// dump_writer: what every generator needs to lay out a dump's files: a
/// little-endian byte sink and writing (name, bytes) files into a directory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/dump_files.hpp>

namespace tpuprof::synth {

/// Appends little-endian values and TLV blocks to a byte vector.
class byte_sink {
 public:
  std::vector<std::byte> data;

  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) data.push_back(static_cast<std::byte>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    u32(static_cast<std::uint32_t>(v));
    u32(static_cast<std::uint32_t>(v >> 32));
  }
  void put(const void* p, std::size_t n) {
    auto* b = static_cast<const std::byte*>(p);
    data.insert(data.end(), b, b + n);
  }
  void bytes(const std::vector<std::byte>& b) { data.insert(data.end(), b.begin(), b.end()); }
  void zeros(std::size_t n) { data.insert(data.end(), n, std::byte{0}); }
  /// A block: u32 type, u32 payload length, payload (both dump families use this framing).
  template <class Type>
    requires std::is_integral_v<Type> || std::is_enum_v<Type>
  void block(Type type, const std::vector<std::byte>& payload) {
    u32(static_cast<std::uint32_t>(type));
    u32(static_cast<std::uint32_t>(payload.size()));
    bytes(payload);
  }
  /// Appends `n` zero bytes and returns where they start (valid until the next append).
  std::byte* grow(std::size_t n) {
    data.resize(data.size() + n);
    return data.data() + data.size() - n;
  }
};

inline std::vector<std::byte> text_bytes(std::string_view s) {
  std::vector<std::byte> v(s.size());
  if (!s.empty()) std::memcpy(v.data(), s.data(), s.size());
  return v;
}

/// A generator's files: any range of (name, bytes) pairs.
template <class Files>
concept generated_files = requires(const Files& f) {
  { std::string(std::begin(f)->first) };
  { std::begin(f)->second.data() } -> std::convertible_to<const std::byte*>;
};

/// Writes every file into `dir` (created if needed), each atomically.
/// Throws io::output_error on failure.
template <generated_files Files>
void write_dump_directory(const Files& files, const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw io::output_error(dir.string() + ": cannot create: " + ec.message());
  for (const auto& [name, bytes] : files) {
    io::atomic_file f(dir / name);
    f.write(bytes.data(), bytes.size());
    f.commit();
  }
}

/// Wraps generated files as a dump_files that borrows their buffers (no copy,
/// no file system): the files must outlive it.
template <generated_files Files>
io::dump_files as_dump_files(const Files& files, std::string label = "<synthetic>") {
  std::vector<io::dump_files::memory_file> v;
  for (const auto& [name, bytes] : files) v.push_back({std::string(name), bytes});
  return io::dump_files::from_memory(std::move(v), std::move(label));
}

}  // namespace tpuprof::synth
