/// cdm_global: `global.profile` of an SG2260-family dump, and detection of the
/// chip from its `arch=` line.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/io/dump_files.hpp>

namespace tpuprof::cdm {

/// Parsed `global.profile` (text key=value lines; unknown keys are kept).
struct global_profile {
  std::optional<long long> arch;
  std::uint64_t arch_offset = 0;  ///< byte offset of the `arch=` line
  bool bmodel = false;            ///< a line containing "bmodel" (bmodel capture path)
  std::uint64_t max_record_num = 0;
  std::optional<double> tpu_freq_mhz;
  std::uint64_t tpu_freq_offset = 0;  ///< byte offset of the `tpu_freq=` line
  std::optional<std::int64_t> tail_offset_ns;
  /// Every `<name>_record=<n>` line, in file order (core0_tiu_record, cdma_port0_record...).
  std::vector<std::pair<std::string, std::uint64_t>> record_counts;
  std::vector<std::pair<std::string, std::string>> other;

  /// Value of `<key>_record`, or nullopt.
  std::optional<std::uint64_t> record_count(std::string_view key) const {
    for (const auto& [k, v] : record_counts)
      if (k == key) return v;
    return std::nullopt;
  }
};

namespace detail {
inline std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}
template <class T>
bool parse_number(std::string_view s, T& v) noexcept {
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}
}  // namespace detail

/// Parses `global.profile`. Throws decode_error (with the line's byte offset) for
/// a number that does not parse; a missing `arch` is checked by the caller.
inline global_profile parse_global_profile(const io::byte_reader& r) {
  global_profile g;
  const auto* base = reinterpret_cast<const char*>(r.bytes().data());
  std::string_view text(base, r.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::size_t line_off = pos;
    std::string_view line = detail::trim(text.substr(pos, eol - pos));
    pos = eol + 1;
    if (line.empty()) continue;
    if (line.find("bmodel") != std::string_view::npos) {
      g.bmodel = true;
      continue;
    }
    auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    auto key = detail::trim(line.substr(0, eq));
    auto value = detail::trim(line.substr(eq + 1));
    auto bad = [&](std::string_view what) {
      r.fail(line_off, std::string(what) + " '" + std::string(value) + "' is not a number");
    };
    if (key == "arch") {
      long long a = 0;
      if (!detail::parse_number(value, a)) bad("arch");
      if (!g.arch) {  // the first arch line wins
        g.arch = a;
        g.arch_offset = line_off;
      }
    } else if (key == "max_record_num") {
      if (!detail::parse_number(value, g.max_record_num)) bad("max_record_num");
    } else if (key == "tpu_freq") {
      double f = 0;
      if (!detail::parse_number(value, f)) bad("tpu_freq");
      g.tpu_freq_mhz = f;
      g.tpu_freq_offset = line_off;
    } else if (key == "tail_offset_ns") {
      std::int64_t t = 0;
      if (!detail::parse_number(value, t)) bad("tail_offset_ns");
      g.tail_offset_ns = t;
    } else if (key.size() > 7 && key.substr(key.size() - 7) == "_record") {
      std::uint64_t n = 0;
      if (!detail::parse_number(value, n)) bad(key);
      g.record_counts.emplace_back(std::string(key.substr(0, key.size() - 7)), n);
    } else {
      g.other.emplace_back(std::string(key), std::string(value));
    }
  }
  return g;
}

/// What detect_cdm() found.
struct cdm_detection {
  std::string_view chip;  ///< the chip's `cli_name`
  long long arch;
  bool bmodel;
};

namespace detail {
template <class C, class... Rest>
std::optional<std::string_view> cdm_chip_of(long long arch) {
  if constexpr (cdm_chip<C>)
    if (matches_arch<C>(arch)) return C::cli_name;
  if constexpr (sizeof...(Rest) > 0)
    return cdm_chip_of<Rest...>(arch);
  else
    return std::nullopt;
}
}  // namespace detail

namespace detail {
/// The first `arch=` line's value and byte offset, read without parsing the
/// rest of the file (detection must not depend on the other lines being valid).
inline std::optional<std::pair<long long, std::uint64_t>> raw_arch(const io::byte_reader& r) {
  std::string_view text(reinterpret_cast<const char*>(r.bytes().data()), r.size());
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = trim(text.substr(pos, eol - pos));
    const std::size_t off = pos;
    pos = eol + 1;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos || line.find("bmodel") != std::string_view::npos ||
        trim(line.substr(0, eq)) != "arch")
      continue;
    long long a = 0;
    if (!parse_number(trim(line.substr(eq + 1)), a)) return std::nullopt;
    return std::pair{a, std::uint64_t{off}};
  }
  return std::nullopt;
}
}  // namespace detail

/// Detects an SG2260-family dump among the cdm-family chips of `chip_list<Cs...>`:
/// a global.profile whose first `arch=` is one of their `arch_ids`. Returns
/// nullopt when it is not such a dump (no global.profile, any other arch).
/// Once the arch says "this family", a malformed global.profile or a missing
/// `cdmlib*.profile` throws decode_error with the real reason (file, offset):
/// "this chip's format but malformed" is not "not this chip".
template <class... Cs>
std::optional<cdm_detection> detect_cdm(const io::dump_files& files, chip_list<Cs...>) {
  auto g = files.find("global.profile");
  if (!g) return std::nullopt;
  const auto raw = detail::raw_arch(*g);
  if (!raw) return std::nullopt;
  std::optional<std::string_view> chip;
  if constexpr (sizeof...(Cs) > 0) chip = detail::cdm_chip_of<Cs...>(raw->first);
  if (!chip) return std::nullopt;
  const global_profile gp = parse_global_profile(*g);  // throws with the line's offset
  bool has_core = false;
  for (auto n : files.names())
    if (n.starts_with("cdmlib") && n.ends_with(".profile")) has_core = true;
  if (!has_core)
    throw decode_error(files.label(), decode_error::no_offset,
                       "arch=" + std::to_string(raw->first) + " (" + std::string(*chip) +
                           ") in global.profile, but no cdmlib*.profile core file");
  return cdm_detection{*chip, raw->first, gp.bmodel};
}

}  // namespace tpuprof::cdm
