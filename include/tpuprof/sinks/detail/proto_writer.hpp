/// proto_writer: protozero-style protobuf encoding into a caller's buffer
/// (tags, varints, fixed64, and nested messages with exact 1-byte lengths
/// patched after the fact). No allocation, no libprotobuf.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace tpuprof::detail::proto {

enum wire : std::uint32_t { varint = 0, fixed64 = 1, len = 2 };

/// Encoded key of (field, wire type).
constexpr std::uint32_t tag(std::uint32_t field, wire w) noexcept {
  return (field << 3) | w;
}

/// Bytes a varint of `v` takes (1..10).
constexpr std::size_t varint_size(std::uint64_t v) noexcept {
  return static_cast<std::size_t>((std::bit_width(v | 1) + 6) / 7);
}

/// Writes `v` as a varint; returns the advanced pointer.
inline std::uint8_t* put_varint(std::uint8_t* p, std::uint64_t v) noexcept {
  while (v >= 0x80) {
    *p++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}

inline std::uint8_t* put_key(std::uint8_t* p, std::uint32_t field, wire w) noexcept {
  return put_varint(p, tag(field, w));
}

/// Varint field (uint*, bool, enum; int64 as two's complement, 10 bytes if < 0).
inline std::uint8_t* put_uint(std::uint8_t* p, std::uint32_t field, std::uint64_t v) noexcept {
  return put_varint(put_key(p, field, varint), v);
}
inline std::uint8_t* put_int(std::uint8_t* p, std::uint32_t field, std::int64_t v) noexcept {
  return put_uint(p, field, static_cast<std::uint64_t>(v));
}
inline std::uint8_t* put_double(std::uint8_t* p, std::uint32_t field, double v) noexcept {
  p = put_key(p, field, fixed64);
  std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &bits, 8);  // one store
    return p + 8;
  }
  for (int i = 0; i < 8; ++i) *p++ = static_cast<std::uint8_t>(bits >> (8 * i));
  return p;
}
inline std::uint8_t* put_string(std::uint8_t* p, std::uint32_t field, std::string_view s) noexcept {
  p = put_varint(put_key(p, field, len), s.size());
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  return p + s.size();
}
/// Upper bound of the bytes put_string writes.
constexpr std::size_t string_bound(std::string_view s) noexcept {
  return s.size() + 3 + 10;
}

/// Starts a nested message: writes the key and reserves one length byte.
/// Returns the position of that byte; pass it to end_nested.
inline std::uint8_t* begin_nested(std::uint8_t*& p, std::uint32_t field) noexcept {
  p = put_key(p, field, len);
  return p++;
}
/// The rare end_nested case, out of line: a body of 128 bytes or more moves
/// to make room for its longer length.
[[gnu::noinline]] inline std::uint8_t* end_nested_long(std::uint8_t* len_pos, std::uint8_t* p,
                                                       std::uint64_t n) noexcept {
  std::size_t extra = varint_size(n) - 1;
  std::memmove(len_pos + 1 + extra, len_pos + 1, n);
  put_varint(len_pos, n);
  return p + extra;
}
/// Closes a nested message whose body runs from `len_pos + 1` to `p`:
/// writes the exact (minimal) length, moving the body when it needs more
/// than one length byte. Returns the new end. (Inlined: it closes every
/// annotation and packet; GCC kept the whole function out of line, ~8 % of
/// the Perfetto sink's time.)
[[gnu::always_inline]] inline std::uint8_t* end_nested(std::uint8_t* len_pos,
                                                       std::uint8_t* p) noexcept {
  auto n = static_cast<std::uint64_t>(p - (len_pos + 1));
  if (n < 0x80) [[likely]] {
    *len_pos = static_cast<std::uint8_t>(n);
    return p;
  }
  return end_nested_long(len_pos, p, n);
}

}  // namespace tpuprof::detail::proto

namespace tpuprof::detail::proto {

/// A field tag of a message: an enum class per message (protozero style).
template <class T>
concept field_tag = std::is_enum_v<T>;

template <field_tag T>
constexpr std::uint32_t field(T t) noexcept {
  return static_cast<std::uint32_t>(t);
}
template <field_tag T>
inline std::uint8_t* put_uint(std::uint8_t* p, T f, std::uint64_t v) noexcept {
  return put_uint(p, field(f), v);
}
template <field_tag T>
inline std::uint8_t* put_int(std::uint8_t* p, T f, std::int64_t v) noexcept {
  return put_int(p, field(f), v);
}
template <field_tag T>
inline std::uint8_t* put_double(std::uint8_t* p, T f, double v) noexcept {
  return put_double(p, field(f), v);
}
template <field_tag T>
inline std::uint8_t* put_string(std::uint8_t* p, T f, std::string_view s) noexcept {
  return put_string(p, field(f), s);
}
template <field_tag T>
inline std::uint8_t* begin_nested(std::uint8_t*& p, T f) noexcept {
  return begin_nested(p, field(f));
}

}  // namespace tpuprof::detail::proto
