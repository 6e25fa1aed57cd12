/// Text helpers of the HTML report: JSON values safe inside <script>, HTML
/// escaping, a streaming base64 writer, and nice axis steps.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <tpuprof/sinks/detail/text_format.hpp>
#include <tpuprof/sinks/output.hpp>

namespace tpuprof::detail::html {

/// A JSON string safe inside <script>: strict JSON escaping plus `<` as \u003c.
inline void put_str(out_buffer& o, std::string_view s) {
  o.put('"');
  std::size_t p = 0;
  for (std::size_t i; (i = s.find('<', p)) != std::string_view::npos; p = i + 1) {
    json_escape(o, s.substr(p, i - p));
    o.append("\\u003c");
  }
  json_escape(o, s.substr(p));
  o.put('"');
}

/// A JSON number; null when not finite.
inline void put_num(out_buffer& o, double v) {
  if (!std::isfinite(v))
    o.append("null");
  else
    put_double(o, v);
}

/// A JSON number rounded to `decimals` places (compact series).
inline void put_rounded(out_buffer& o, double v, int decimals) {
  if (!std::isfinite(v)) return o.append("null");
  const double s = std::pow(10.0, decimals);
  put_double(o, std::round(v * s) / s);
}

/// Text for HTML element content and attribute values.
inline void put_escaped_html(out_buffer& o, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&':
        o.append("&amp;");
        break;
      case '<':
        o.append("&lt;");
        break;
      case '>':
        o.append("&gt;");
        break;
      case '"':
        o.append("&quot;");
        break;
      default:
        o.put(c);
    }
  }
}

/// Streams bytes as base64 (RFC 4648, padded at end()).
class base64_writer {
 public:
  explicit base64_writer(out_buffer& o) : o_(o) {}
  void put(const std::uint8_t* p, std::size_t n) {
    while (n && fill_ != 0 && fill_ < 3) {
      carry_[fill_++] = *p++;
      --n;
      if (fill_ == 3) {
        emit(carry_, 1);
        fill_ = 0;
      }
    }
    constexpr std::size_t group = 4096;
    while (n >= 3) {
      const std::size_t g = std::min(n / 3, group);
      emit(p, g);
      p += 3 * g;
      n -= 3 * g;
    }
    while (n--) carry_[fill_++] = *p++;
  }
  void end() {
    if (fill_ == 0) return;
    static constexpr char abc[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const std::uint32_t v =
        std::uint32_t{carry_[0]} << 16 | (fill_ > 1 ? std::uint32_t{carry_[1]} << 8 : 0u);
    char q[4] = {abc[v >> 18 & 63], abc[v >> 12 & 63], fill_ > 1 ? abc[v >> 6 & 63] : '=', '='};
    o_.append({q, 4});
    fill_ = 0;
  }

 private:
  void emit(const std::uint8_t* p, std::size_t groups) {
    static constexpr char abc[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char* w = o_.reserve(groups * 4);
    char* q = w;
    for (std::size_t i = 0; i < groups; ++i, p += 3) {
      const std::uint32_t v = std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2];
      *q++ = abc[v >> 18 & 63];
      *q++ = abc[v >> 12 & 63];
      *q++ = abc[v >> 6 & 63];
      *q++ = abc[v & 63];
    }
    o_.commit(q);
  }
  out_buffer& o_;
  std::uint8_t carry_[3] = {};
  std::size_t fill_ = 0;
};

/// 1, 2 or 5 x 10^k, the smallest at least `x` (x > 0).
inline double nice_step(double x) {
  if (!(x > 0)) return 1;
  double p = std::pow(10.0, std::floor(std::log10(x)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= x) return m * p;
  return 10 * p;
}
}  // namespace tpuprof::detail::html
