/// Bounds-checked little-endian reads over caller-owned bytes.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include <tpuprof/error.hpp>

namespace tpuprof::io {

/// Unchecked little-endian load; callers check bounds once per record.
template <class T>
inline T load_le(const std::byte* p) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, p, sizeof(T));
  if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
    auto* b = reinterpret_cast<unsigned char*>(&v);
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
  }
  return v;
}

/// A view of bytes that knows its file name and its offset in that file, so
/// every failed read names where it happened. Does not own the bytes.
class byte_reader {
 public:
  byte_reader() = default;
  byte_reader(std::span<const std::byte> bytes, std::string_view file, std::uint64_t base = 0)
      : bytes_(bytes), file_(file), base_(base) {}

  std::size_t size() const noexcept { return bytes_.size(); }
  std::span<const std::byte> bytes() const noexcept { return bytes_; }
  std::string_view file() const noexcept { return file_; }
  /// Offset of byte 0 of this view in the file.
  std::uint64_t base() const noexcept { return base_; }

  /// Throws decode_error unless [off, off+n) is inside the view.
  void require(std::size_t off, std::size_t n, std::string_view what) const {
    if (off > bytes_.size() || n > bytes_.size() - off) {
      std::string r = "truncated ";
      r += what;
      r += ": need ";
      r += std::to_string(n);
      r += " bytes, have ";
      r += std::to_string(off > bytes_.size() ? 0 : bytes_.size() - off);
      throw decode_error(file_, base_ + off, r);
    }
  }

  template <class T>
  T read(std::size_t off, std::string_view what = "field") const {
    require(off, sizeof(T), what);
    return load_le<T>(bytes_.data() + off);
  }
  std::uint8_t u8(std::size_t off) const { return read<std::uint8_t>(off); }
  std::uint16_t u16(std::size_t off) const { return read<std::uint16_t>(off); }
  std::uint32_t u32(std::size_t off) const { return read<std::uint32_t>(off); }
  std::uint64_t u64(std::size_t off) const { return read<std::uint64_t>(off); }

  /// Sub-view [off, off+n), checked.
  byte_reader sub(std::size_t off, std::size_t n, std::string_view what = "block") const {
    require(off, n, what);
    return byte_reader(bytes_.subspan(off, n), file_, base_ + off);
  }

  /// Throws decode_error at `off` with `reason`.
  [[noreturn]] void fail(std::size_t off, std::string_view reason) const {
    throw decode_error(file_, base_ + off, reason);
  }

 private:
  std::span<const std::byte> bytes_;
  std::string_view file_;
  std::uint64_t base_ = 0;
};

/// Extracts bits [lo, lo+width) of a 64-bit word (LSB = bit 0).
constexpr std::uint64_t bits(std::uint64_t v, unsigned lo, unsigned width) noexcept {
  return width >= 64 ? (v >> lo) : ((v >> lo) & ((std::uint64_t{1} << width) - 1));
}

}  // namespace tpuprof::io
