/// Register-table types shared by every chip: a command form is a list of
/// (name, low bit, width) fields over an LSB-first bit string.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

namespace tpuprof::regs {

/// FNV-1a (32 bits) of a field name: the slot a generated name index gives the field
/// (tools/gen_regdefs.py computes the same hash and writes the index as a literal).
constexpr std::uint32_t name_hash(std::string_view s) noexcept {
  std::uint32_t h = 2166136261u;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

/// One field of a command descriptor. Bit k of a command is bit (k mod 8) of
/// its byte k/8 (little-endian, LSB first), as the vendor tools read it.
struct reg_field {
  std::string_view name;
  std::uint16_t lo = 0;    ///< first bit
  std::uint8_t width = 0;  ///< 1..64
};

/// The layout of one command form (a sheet of the vendor's register spreadsheet).
struct reg_table {
  std::string_view sheet;             ///< vendor sheet name, e.g. "sAR", "DMA_tensor（0x000）"
  std::span<const reg_field> fields;  ///< in bit order
  unsigned bits = 0;                  ///< command length in bits
  /// Name index written by tools/gen_regdefs.py: 2^k one-character slots, `index_empty` + field
  /// index + 1 (`index_empty` alone: empty; at least one is), a field at slot name_hash(name) &
  /// index_mask or the next free one. Lookups by name were a scan of string compares: ~40 % of a
  /// BM1688 decode and most of fuzz_bmprofile's time (#17). Null for hand-built tables: find()
  /// scans them. (A pointer, not a string_view: 4 MB less compiler memory over all tables.)
  const char* index = nullptr;
  std::uint32_t index_mask = 0;  ///< slots - 1
  static constexpr unsigned char index_empty = '#';

  constexpr unsigned bytes() const noexcept { return (bits + 7) / 8; }
  /// Index of a field by name (the first of equal names); nullopt when this form has none.
  constexpr std::optional<std::size_t> find(std::string_view name) const noexcept {
    if (index) {
      for (std::size_t k = name_hash(name) & index_mask;; k = (k + 1) & index_mask) {
        const unsigned slot = static_cast<unsigned char>(index[k]) - index_empty;
        if (slot == 0) return std::nullopt;
        if (fields[slot - 1].name == name) return slot - 1;
      }
    }
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (fields[i].name == name) return i;
    return std::nullopt;
  }
};

/// Reads `width` bits starting at bit `lo` of `data` (LSB-first); bits past
/// the end of `data` read as 0.
constexpr std::uint64_t read_bits(std::span<const std::byte> data, unsigned lo,
                                  unsigned width) noexcept {
  // Fast path: one 8-byte load holds any field of <= 57 bits (about 10x fewer
  // instructions than the byte loop, which stays for the tail and constexpr).
  if (!std::is_constant_evaluated() && std::endian::native == std::endian::little && width <= 57 &&
      data.size() >= 8 && lo / 8 <= data.size() - 8) {
    std::uint64_t w;
    std::memcpy(&w, data.data() + lo / 8, 8);
    return (w >> (lo % 8)) & ((std::uint64_t{1} << width) - 1);
  }
  std::uint64_t v = 0;
  unsigned got = 0;
  while (got < width) {
    const unsigned bit = lo + got;
    const std::size_t byte = bit / 8;
    if (byte >= data.size()) break;
    const unsigned off = bit % 8;
    const unsigned take = (8 - off) < (width - got) ? (8 - off) : (width - got);
    const auto b = static_cast<std::uint64_t>(std::to_integer<unsigned>(data[byte]) >> off) &
                   ((std::uint64_t{1} << take) - 1);
    v |= b << got;
    got += take;
  }
  return v;
}

/// A command's bytes seen through one table: field values by name.
/// Holds a span, so the bytes must outlive it.
class reg_view {
 public:
  constexpr reg_view() = default;
  constexpr reg_view(const reg_table* t, std::span<const std::byte> data) noexcept
      : table_(t), data_(data) {}

  constexpr const reg_table* table() const noexcept { return table_; }
  constexpr std::span<const std::byte> data() const noexcept { return data_; }
  constexpr bool has(std::string_view name) const noexcept {
    return table_ && table_->find(name).has_value();
  }
  /// Field value; 0 when the form has no such field (see has()).
  constexpr std::uint64_t get(std::string_view name) const noexcept {
    if (!table_) return 0;
    auto i = table_->find(name);
    if (!i) return 0;
    const auto& f = table_->fields[*i];
    return read_bits(data_, f.lo, f.width);
  }
  constexpr std::uint64_t operator[](std::string_view name) const noexcept { return get(name); }

 private:
  const reg_table* table_ = nullptr;
  std::span<const std::byte> data_;
};

/// A field name usable as a template argument (`field<table, "res0_n">`).
template <std::size_t N>
struct fixed_name {
  char s[N]{};
  constexpr fixed_name(const char (&a)[N]) noexcept {  // NOLINT(google-explicit-constructor)
    for (std::size_t i = 0; i < N; ++i) s[i] = a[i];
  }
  constexpr std::string_view view() const noexcept { return {s, N - 1}; }
};

/// True when form `T` has a field named `F` (decided at compile time).
template <const reg_table& T, fixed_name F>
inline constexpr bool has_field = T.find(F.view()).has_value();

/// Field `F` of form `T` in `data`, the field looked up at compile time (the
/// hot-path twin of reg_view::get); 0 when the form has no such field.
template <const reg_table& T, fixed_name F>
constexpr std::uint64_t field(std::span<const std::byte> data) noexcept {
  if constexpr (has_field<T, F>) {
    constexpr reg_field f = T.fields[*T.find(F.view())];
    return read_bits(data, f.lo, f.width);
  } else {
    (void)data;
    return 0;
  }
}

}  // namespace tpuprof::regs
