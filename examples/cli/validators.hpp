// Validators for numeric options: finite, positive, in range, with short
// messages (CLI11's PositiveNumber accepts nan and prints the largest double).
#pragma once

#include <charconv>
#include <cmath>
#include <string>

#include <CLI/CLI.hpp>

#include <tpuprof/clock_check.hpp>

namespace cli {

namespace detail {
inline bool parse_double(const std::string& s, double& v) {
  try {
    std::size_t used = 0;
    v = std::stod(s, &used);
    return used == s.size();
  } catch (const std::exception&) {
    return false;
  }
}
}  // namespace detail

/// A clock in MHz: finite, above 0, at most 100000.
inline const CLI::Validator clock_mhz(
    [](std::string& s) -> std::string {
      double v = 0;
      if (!detail::parse_double(s, v)) return "'" + s + "' is not a number";
      if (tpuprof::usable_clock_mhz(v)) return {};
      return "clock " + s + " " + tpuprof::clock_problem(v) + " (give MHz in (0, 100000])";
    },
    "MHz", "clock_mhz");

/// Any finite number (nan and inf rejected).
inline const CLI::Validator finite_number(
    [](std::string& s) -> std::string {
      double v = 0;
      if (!detail::parse_double(s, v)) return "'" + s + "' is not a number";
      return std::isfinite(v) ? std::string{} : "'" + s + "' is not a finite number";
    },
    "NUMBER", "finite_number");

/// A time shift in ns that fits std::int64_t (finite, |v| < 2^63).
inline const CLI::Validator ns_offset(
    [](std::string& s) -> std::string {
      double v = 0;
      if (!detail::parse_double(s, v)) return "'" + s + "' is not a number";
      if (!std::isfinite(v)) return "'" + s + "' is not a finite number";
      return v >= -0x1p63 && v < 0x1p63 ? std::string{} : s + " ns is out of range (|ns| < 2^63)";
    },
    "NS", "ns_offset");

/// A count of cores: 1 to 1024.
inline const CLI::Validator core_count(
    [](std::string& s) -> std::string {
      long v = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), v);
      if (r.ec != std::errc{} || r.ptr != s.data() + s.size())
        return "'" + s + "' is not an integer";
      return v >= 1 && v <= 1024 ? std::string{} : "core count " + s + " is not in 1..1024";
    },
    "N", "core_count");

}  // namespace cli
