// Validators for numeric options: finite, positive, in range, with short
// messages (CLI11's PositiveNumber accepts nan and prints the largest double).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
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

/// A byte size: "512M", "1.5G", "200MiB", "4096" (K, M, G: powers of 1024),
/// from 1 MiB to 2^60 bytes, into `bytes`; returns why not ("" when it is).
inline std::string size_problem(const std::string& s, std::uint64_t& bytes) {
  double v = 0;
  std::size_t used = 0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    return "not a size (e.g. 512M, 1G)";
  }
  const std::string unit = s.substr(used);
  double mul = 0;
  if (unit.empty() || unit == "B") mul = 1;
  if (unit == "K" || unit == "KiB") mul = 1024.0;
  if (unit == "M" || unit == "MiB") mul = 1024.0 * 1024;
  if (unit == "G" || unit == "GiB") mul = 1024.0 * 1024 * 1024;
  if (mul == 0 || !std::isfinite(v) || v * mul < 1024 * 1024 || v * mul > 0x1p60)
    return "give 1M to 2^60 bytes (K, M, G suffixes: powers of 1024)";
  bytes = static_cast<std::uint64_t>(v * mul);
  return {};
}

/// A byte size as size_problem() reads it, replaced by its byte count (the
/// option can then be a number).
inline const CLI::Validator byte_size(
    [](std::string& s) -> std::string {
      std::uint64_t b = 0;
      const std::string why = size_problem(s, b);
      if (!why.empty()) return "'" + s + "': " + why;
      s = std::to_string(b);
      return {};
    },
    "SIZE", "byte_size");

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
