/// Text helpers shared by the text sinks: strict JSON string escaping (valid
/// UTF-8 out whatever comes in), RFC 4180 CSV quoting, and number formatting
/// with std::to_chars (no locale, no ostream).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

#include <tpuprof/sinks/output.hpp>

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

/// Appends `s` as a JSON string body (no quotes): escapes `"`, `\`, control
/// characters and DEL; replaces invalid UTF-8 bytes by U+FFFD.
inline void json_escape(out_buffer& out, std::string_view s) {
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
    out.append(s.substr(run, i - run));
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      default:
        if (c >= 0x80) {
          out.append("\\ufffd");
        } else {
          char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
          out.append({u, 6});
        }
    }
    run = ++i;
  }
  out.append(s.substr(run));
}

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

template <class T>
inline void put_int(out_buffer& out, T v) {
  char* p = out.reserve(24);
  out.commit(std::to_chars(p, p + 24, v).ptr);
}

/// Shortest text that reads back to the same double; nothing when not finite.
inline void put_double(out_buffer& out, double v) {
  if (!std::isfinite(v)) return;
  char* p = out.reserve(32);
  if (v == std::trunc(v) && std::fabs(v) < 9.0e15) {  // integral: integer path, same text
    out.commit(std::to_chars(p, p + 32, static_cast<std::int64_t>(v)).ptr);
    return;
  }
  out.commit(std::to_chars(p, p + 32, v).ptr);
}

/// ns as microseconds with exactly 3 decimals ("-1.005", "12.000"): exact
/// for Chrome JSON readers while |ns| < 2^51.
inline void put_us3(out_buffer& out, std::int64_t ns) {
  char* p = out.reserve(32);
  char* q = p;
  std::uint64_t a = ns < 0 ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  if (ns < 0) *q++ = '-';
  q = std::to_chars(q, q + 24, a / 1000).ptr;
  std::uint64_t f = a % 1000;
  q[0] = '.';
  q[1] = static_cast<char>('0' + f / 100);
  q[2] = static_cast<char>('0' + f / 10 % 10);
  q[3] = static_cast<char>('0' + f % 10);
  out.commit(q + 4);
}

}  // namespace tpuprof::detail
