/// Text helpers shared by the text sinks: strict JSON string escaping (valid
/// UTF-8 out whatever comes in), RFC 4180 CSV quoting, and number formatting
/// (hand-written integers, Dragonbox doubles laid out like std::to_chars; no
/// locale, no ostream).
#pragma once

#include <bit>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include <tpuprof/sinks/output.hpp>

// fmt::detail::dragonbox::to_decimal (fmt 8..11; an internal but stable entry
// point, compiled into libfmt) gives the shortest round-trip digits of a double.
#if !defined(TPUPROF_FMT_DRAGONBOX)
#if defined(FMT_VERSION) && FMT_VERSION >= 80000 && FMT_VERSION < 120000
#define TPUPROF_FMT_DRAGONBOX 1
#else
#define TPUPROF_FMT_DRAGONBOX 0
#endif
#endif

namespace tpuprof::detail {

/// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid.
inline std::size_t utf8_len(std::string_view s, std::size_t i) noexcept {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  std::size_t n = c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (n == 3) {
    if (c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogates
  }
  if (n == 4) {
    if (c == 0xF0 && b(i + 1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // > U+10FFFF
  }
  return n;
}

/// JSON-escapes `s` through `emit(std::string_view)`: escapes `"`, `\`,
/// control characters and DEL; replaces invalid UTF-8 bytes by U+FFFD.
template <class Emit>
inline void json_escape_with(std::string_view s, Emit&& emit) {
  static constexpr char hex[] = "0123456789abcdef";
  std::size_t run = 0;  // start of the pending unescaped run
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (std::size_t n = utf8_len(s, i)) {
        i += n;
        continue;
      }
    }
    emit(s.substr(run, i - run));
    switch (c) {
      case '"':
        emit("\\\"");
        break;
      case '\\':
        emit("\\\\");
        break;
      case '\n':
        emit("\\n");
        break;
      case '\r':
        emit("\\r");
        break;
      case '\t':
        emit("\\t");
        break;
      default:
        if (c >= 0x80) {
          emit("\\ufffd");
        } else {
          char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
          emit(std::string_view{u, 6});
        }
    }
    run = ++i;
  }
  emit(s.substr(run));
}

/// Appends `s` as a JSON string body (no quotes): escapes `"`, `\`, control
/// characters and DEL; replaces invalid UTF-8 bytes by U+FFFD.
/// `"k":` for a literal key (no escaping needed).
inline void json_key(out_buffer& out, std::string_view k) {
  out.put('"');
  out.append(k);
  out.append("\":");
}

/// The ',' before every element of a JSON array or object but the first.
inline void json_comma(out_buffer& out, bool& first) {
  if (!first) out.put(',');
  first = false;
}

inline void json_escape(out_buffer& out, std::string_view s) {
  json_escape_with(s, [&](std::string_view part) { out.append(part); });
}

/// True if `s` goes into a JSON string unchanged (printable ASCII without
/// `"` and `\`, or valid UTF-8).
inline bool json_plain(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      ++i;
    } else if (std::size_t n = c >= 0x80 ? utf8_len(s, i) : 0) {
      i += n;
    } else {
      return false;
    }
  }
  return true;
}

/// Cache of the escaped JSON text of interned names, filled once per
/// name_id: per-event output then copies bytes without scanning them.
class json_name_cache {
 public:
  /// Escaped body of `s`, the text of name `id` (the same id must always
  /// come with the same text, as name_table guarantees).
  std::string_view get(std::uint32_t id, std::string_view s) {
    if (id < state_.size() && state_[id] != 0) return state_[id] == 1 ? s : escaped_[id];
    return fill(id, s);
  }

 private:
  [[gnu::noinline]] std::string_view fill(std::uint32_t id, std::string_view s) {
    if (id >= state_.size()) {
      state_.resize(id + 1, 0);
      escaped_.resize(id + 1);
    }
    if (json_plain(s)) {
      state_[id] = 1;
      return s;
    }
    std::string& e = escaped_[id];
    e.clear();
    json_escape_with(s, [&](std::string_view part) { e.append(part); });
    state_[id] = 2;
    return e;
  }

  std::vector<std::uint8_t> state_;  // 0 = unknown, 1 = plain, 2 = escaped_
  std::vector<std::string> escaped_;
};

/// True if the CSV field needs quotes (RFC 4180: comma, quote, CR, LF).
inline bool csv_needs_quotes(std::string_view s) noexcept {
  return s.find_first_of(",\"\r\n") != std::string_view::npos;
}

/// Appends `s` as one CSV field, quoted (with doubled quotes) when needed.
inline void csv_field(out_buffer& out, std::string_view s) {
  if (!csv_needs_quotes(s)) {
    out.append(s);
    return;
  }
  out.put('"');
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '"') {
      out.append(s.substr(run, i + 1 - run));
      out.put('"');
      run = i + 1;
    }
  out.append(s.substr(run));
  out.put('"');
}

// ---- raw writers: write at `p` (room checked by the caller), return the end --

/// "00".."99", for writing two digits at a time.
inline constexpr char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/// Number of decimal digits of `v` (1 for 0).
inline int decimal_digits(std::uint64_t v) noexcept {
  static constexpr std::uint64_t pow10[20] = {1ULL,
                                              10ULL,
                                              100ULL,
                                              1000ULL,
                                              10000ULL,
                                              100000ULL,
                                              1000000ULL,
                                              10000000ULL,
                                              100000000ULL,
                                              1000000000ULL,
                                              10000000000ULL,
                                              100000000000ULL,
                                              1000000000000ULL,
                                              10000000000000ULL,
                                              100000000000000ULL,
                                              1000000000000000ULL,
                                              10000000000000000ULL,
                                              100000000000000000ULL,
                                              1000000000000000000ULL,
                                              10000000000000000000ULL};
  int t = (std::bit_width(v | 1) * 1233) >> 12;
  return t + 1 - (v < pow10[t] ? 1 : 0);
}

/// Writes exactly `n` digits of `v` (n = decimal_digits(v)) ending at p + n.
inline char* write_digits(char* p, std::uint64_t v, int n) noexcept {
  char* end = p + n;
  char* q = end;
  while (v >= 100) {
    std::uint64_t r = v % 100;
    v /= 100;
    q -= 2;
    std::memcpy(q, digit_pairs + 2 * r, 2);
  }
  if (v >= 10) {
    q -= 2;
    std::memcpy(q, digit_pairs + 2 * v, 2);
  } else {
    *--q = static_cast<char>('0' + v);
  }
  return end;
}

/// The 8 decimal digits of `v` < 10^8 (with leading zeros) as ASCII, first
/// digit in the lowest byte: all digit pairs computed in parallel (SWAR).
[[gnu::always_inline]] inline std::uint64_t digits8(std::uint32_t v) noexcept {
  std::uint64_t x = (v / 10000) | (std::uint64_t{v % 10000} << 32);  // [abcd, efgh]
  std::uint64_t hi = ((x * 10486) >> 20) & 0x0000007F0000007FULL;    // /100 in each lane
  x = hi | ((x - hi * 100) << 16);                                   // [ab, cd, ef, gh]
  std::uint64_t tens = ((x * 103) >> 10) & 0x000F000F000F000FULL;    // /10 in each lane
  return (tens | ((x - tens * 10) << 8)) + 0x3030303030303030ULL;
}

/// Writes 1..8 digits of `v` < 10^8; stores 8 bytes at p (the ones past the
/// returned end are scratch).
[[gnu::always_inline]] inline char* write_upto8(char* p, std::uint32_t v) noexcept {
  if (v < 10) {
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  const int n = decimal_digits(v);
  const std::uint64_t w = digits8(v) >> (8 * (8 - n));
  std::memcpy(p, &w, 8);
  return p + n;
}

/// Decimal text of `v` (same as std::to_chars). Touches at most 20 bytes
/// at p; bytes past the returned end may be overwritten (scratch).
[[gnu::always_inline]] inline char* write_uint(char* p, std::uint64_t v) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    if (v < 100000000) return write_upto8(p, static_cast<std::uint32_t>(v));
    std::uint64_t w;
    if (v < 10000000000000000ULL) {
      p = write_upto8(p, static_cast<std::uint32_t>(v / 100000000));
    } else {
      std::uint64_t top = v / 10000000000000000ULL, mid = v / 100000000 % 100000000;
      p = write_upto8(p, static_cast<std::uint32_t>(top));
      w = digits8(static_cast<std::uint32_t>(mid));
      std::memcpy(p, &w, 8);
      p += 8;
    }
    w = digits8(static_cast<std::uint32_t>(v % 100000000));
    std::memcpy(p, &w, 8);
    return p + 8;
  } else {
    if (v < 10) {
      *p = static_cast<char>('0' + v);
      return p + 1;
    }
    return write_digits(p, v, decimal_digits(v));
  }
}
/// At most 20 bytes.
[[gnu::always_inline]] inline char* write_int(char* p, std::int64_t v) noexcept {
  if (v >= 0) return write_uint(p, static_cast<std::uint64_t>(v));
  *p++ = '-';
  return write_uint(p, 0 - static_cast<std::uint64_t>(v));
}

/// Shortest text that reads back to the same value of type T (float or
/// double): integral values below 9e15 as plain integers, the others byte
/// for byte what std::to_chars(p, end, v) writes (fixed or scientific,
/// whichever is shorter, fixed on a tie); nothing when not finite.
/// At most 32 bytes. A float keeps float precision: 0.28108695f is written
/// "0.28108695", not the "0.2810869514942169" of its widened double.
/// Integral values take an integer path; other values use fmt's Dragonbox
/// (the same shortest, closest digits as the Ryu inside std::to_chars, about
/// 2-3x faster), laid out here exactly as to_chars does.
template <std::floating_point T>
inline char* write_shortest(char* p, T v) noexcept {
  if (!std::isfinite(v)) return p;
  if (v == std::trunc(v)) {
    if (std::fabs(v) < T(9.0e15)) return write_int(p, static_cast<std::int64_t>(v));
    return std::to_chars(p, p + 32, v).ptr;
  }
#if TPUPROF_FMT_DRAGONBOX
  // Not integral, so |v| < 2^52 (2^23 for float) and the shortest decimal has
  // digits after the point: v = sig * 10^exp with exp < 0, no trailing zeros.
  if (std::signbit(v)) *p++ = '-';
  const auto d = fmt::detail::dragonbox::to_decimal(std::fabs(v));
  const std::uint64_t sig = d.significand;
  const int n = decimal_digits(sig), e = d.exponent;
  const int sci_exp = n - 1 + e;  // exponent of the first digit
  const int abs_sci = sci_exp < 0 ? -sci_exp : sci_exp;
  const int fixed_len = sci_exp >= 0 ? n + 1 : 2 - e;
  const int sci_len = n + (n > 1 ? 1 : 0) + 2 + (abs_sci < 100 ? 2 : 3);
  if (fixed_len <= sci_len) {
    if (sci_exp >= 0) {  // ddd.ddd: write the digits one place right, then move the integer part
      write_uint(p + 1, sig);
      for (int i = 0; i <= sci_exp; ++i) p[i] = p[i + 1];
      p[sci_exp + 1] = '.';
      return p + n + 1;
    }
    if (sci_exp >= -7) {  // 0.000ddd
      std::memcpy(p, "0.000000", 8);
    } else {
      p[0] = '0';
      p[1] = '.';
      std::memset(p + 2, '0', static_cast<std::size_t>(-sci_exp - 1));
    }
    return write_uint(p + 1 - sci_exp, sig);
  }
  write_uint(p + 1, sig);  // d.ddde-XX
  p[0] = p[1];
  char* q = p + 1;
  if (n > 1) {
    *q = '.';
    q += n;
  }
  *q++ = 'e';
  *q++ = sci_exp < 0 ? '-' : '+';
  if (abs_sci >= 100) {
    *q++ = static_cast<char>('0' + abs_sci / 100);
    std::memcpy(q, digit_pairs + 2 * (abs_sci % 100), 2);
  } else {
    std::memcpy(q, digit_pairs + 2 * abs_sci, 2);
  }
  return q + 2;
#else
  return std::to_chars(p, p + 32, v).ptr;
#endif
}

inline char* write_double(char* p, double v) noexcept {
  return write_shortest(p, v);
}

/// ns as microseconds with exactly 3 decimals ("-1.005", "12.000"): exact
/// for Chrome JSON readers while |ns| < 2^51. At most 25 bytes.
inline char* write_us3(char* p, std::int64_t ns) noexcept {
  std::uint64_t a = ns < 0 ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  if (ns < 0) *p++ = '-';
  p = write_uint(p, a / 1000);
  std::uint64_t f = a % 1000;
  p[0] = '.';
  p[1] = static_cast<char>('0' + f / 100);
  std::memcpy(p + 2, digit_pairs + 2 * (f % 100), 2);
  return p + 4;
}

/// Copies a string literal (size known at compile time) and returns the end.
template <std::size_t N>
inline char* write_lit(char* p, const char (&s)[N]) noexcept {
  std::memcpy(p, s, N - 1);
  return p + (N - 1);
}
/// Copies `s`; short strings (names) with a few fixed-size moves instead of
/// a memcpy call. Reads only inside `s`.
inline char* write_str(char* p, std::string_view s) noexcept {
  const char* q = s.data();
  const std::size_t n = s.size();
  if (n >= 8 && n <= 16) {
    std::memcpy(p, q, 8);
    std::memcpy(p + n - 8, q + n - 8, 8);
  } else if (n >= 4 && n < 8) {
    std::memcpy(p, q, 4);
    std::memcpy(p + n - 4, q + n - 4, 4);
  } else if (n < 4) {
    if (n) {
      p[0] = q[0];
      p[n / 2] = q[n / 2];
      p[n - 1] = q[n - 1];
    }
  } else {
    std::memcpy(p, q, n);
  }
  return p + n;
}

// ---- buffered forms ------------------------------------------------------

template <class T>
inline void put_int(out_buffer& out, T v) {
  char* p = out.reserve(24);
  if constexpr (std::is_signed_v<T>)
    out.commit(write_int(p, static_cast<std::int64_t>(v)));
  else
    out.commit(write_uint(p, static_cast<std::uint64_t>(v)));
}

/// Shortest text that reads back to the same double; nothing when not finite.
inline void put_double(out_buffer& out, double v) {
  char* p = out.reserve(32);
  out.commit(write_double(p, v));
}

/// ns as microseconds with exactly 3 decimals (see write_us3).
inline void put_us3(out_buffer& out, std::int64_t ns) {
  char* p = out.reserve(32);
  out.commit(write_us3(p, ns));
}

}  // namespace tpuprof::detail
