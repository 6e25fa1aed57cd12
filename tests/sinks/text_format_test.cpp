// Number formatting shared by the text sinks: the shortest round-trip text of
// floats and doubles, checked against std::to_chars and by reading it back.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/sinks/detail/text_format.hpp>

namespace {

template <class T>
std::string ours(T v) {
  char b[40];
  return {b, tpuprof::detail::write_shortest(b, v)};
}
template <class T>
std::string std_chars(T v) {
  char b[40];
  return {b, std::to_chars(b, b + 40, v).ptr};
}

}  // namespace

TEST_CASE("write_shortest: floats keep float precision") {
  CHECK(ours(0.28108695f) == "0.28108695");
  CHECK(ours(static_cast<float>(42369024.0 / 150732800.0)) == "0.28108695");
  CHECK(ours(static_cast<double>(0.28108695f)) == "0.2810869514942169");  // the widened double
  CHECK(ours(0.046875f) == "0.046875");
  CHECK(ours(1e-7f) == "1e-07");
  CHECK(ours(-2.5f) == "-2.5");
  CHECK(ours(3.0f) == "3");
  CHECK(ours(16777216.0f) == "16777216");
  CHECK(ours(std::nanf("")).empty());
  CHECK(ours(std::numeric_limits<double>::infinity()).empty());
}

TEST_CASE("write_shortest equals std::to_chars on non-integral values and reads back") {
  std::mt19937_64 rng(7);
  int checked_f = 0, checked_d = 0;
  for (int i = 0; i < 300000; ++i) {
    const auto bits = rng();
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    if (std::isfinite(f) && f != std::trunc(f)) {
      const auto s = ours(f);
      REQUIRE(s == std_chars(f));
      float back = 0;
      std::from_chars(s.data(), s.data() + s.size(), back);
      REQUIRE(std::bit_cast<std::uint32_t>(back) == std::bit_cast<std::uint32_t>(f));
      ++checked_f;
    }
    const double d = std::bit_cast<double>(bits);
    if (std::isfinite(d) && d != std::trunc(d)) {
      REQUIRE(ours(d) == std_chars(d));
      ++checked_d;
    }
    // ratios like bandwidths and uArch rates
    const double r = static_cast<double>(bits % 1000000007) / static_cast<double>(1 + bits % 997);
    if (r != std::trunc(r)) REQUIRE(ours(r) == std_chars(r));
    const float rf = static_cast<float>(r);
    if (rf != std::trunc(rf)) REQUIRE(ours(rf) == std_chars(rf));
  }
  CHECK(checked_f > 100000);
  CHECK(checked_d > 100000);
}

TEST_CASE("write_shortest writes integral values as integers") {
  CHECK(ours(1e10) == "10000000000");
  CHECK(ours(-7.0) == "-7");
  CHECK(ours(9.5e15) == std_chars(9.5e15));  // beyond the integer path: to_chars
}
