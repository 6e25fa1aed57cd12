/// chip_traits: what every chip description provides, and runtime dispatch
/// from a chip name to its traits type.
#pragma once

#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <tpuprof/engine.hpp>

namespace tpuprof {

/// Which dump format (and so which generic decoder) a chip writes; each chip's
/// traits say theirs (`static constexpr dump_family family`).
enum class dump_family : std::uint8_t {
  bmprofile,  ///< `bmprofile_data-N`: bmprofile_decoder
  cdm,        ///< `cdm_profile_data_devD-N`: cdm::cdm_decoder
};

/// A chip is a traits struct passed as a template argument (the char_traits
/// idiom). Decoders refine this with the record layouts they need.
template <class T>
concept chip_traits = requires {
  { T::name } -> std::convertible_to<std::string_view>;      ///< "BM1684X"
  { T::cli_name } -> std::convertible_to<std::string_view>;  ///< "bm1684x"
  { T::core_count } -> std::convertible_to<unsigned>;        ///< physical cores
  { T::tiu_freq_mhz } -> std::convertible_to<double>;        ///< default TIU clock
  { T::dma_freq_mhz } -> std::convertible_to<double>;        ///< default DMA clock
  { T::has_engine(engine::tiu) } -> std::same_as<bool>;
};

/// A compile-time list of chips, for runtime dispatch.
template <chip_traits... Cs>
struct chip_list {};

namespace detail {
inline bool chip_name_eq(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}
template <chip_traits C, chip_traits... Rest, class F>
decltype(auto) with_chip_impl(std::string_view chip, F&& f) {
  if (chip_name_eq(chip, C::cli_name) || chip_name_eq(chip, C::name))
    return f.template operator()<C>();
  if constexpr (sizeof...(Rest) == 0)
    throw std::invalid_argument("unknown chip '" + std::string(chip) + "'");
  else
    return with_chip_impl<Rest...>(chip, std::forward<F>(f));
}
}  // namespace detail

/// Calls `f.template operator()<Chip>()` for the chip whose cli_name or name
/// equals `chip` (case-insensitive). Throws std::invalid_argument otherwise.
template <chip_traits... Cs, class F>
decltype(auto) with_chip(chip_list<Cs...>, std::string_view chip, F&& f) {
  return detail::with_chip_impl<Cs...>(chip, std::forward<F>(f));
}

/// A chip's names for people: its `name`, then `other_names` if its traits
/// have them ("SG2260/BM1690").
template <chip_traits C>
std::string display_name() {
  std::string s(C::name);
  if constexpr (requires { C::other_names; }) s += "/" + std::string(C::other_names);
  return s;
}

/// Every name `with_chip` accepts for the chips of a list (cli_name, then name),
/// e.g. for a command line's list of choices.
template <chip_traits... Cs>
std::vector<std::string> chip_names(chip_list<Cs...>) {
  std::vector<std::string> v;
  (v.emplace_back(Cs::cli_name), ...);
  (v.emplace_back(Cs::name), ...);
  return v;
}

/// "bm1684x|aks|aksv": the cli_names of a list joined by `sep`.
template <chip_traits... Cs>
std::string cli_names(chip_list<Cs...>, std::string_view sep = "|") {
  std::string s;
  ((s += (s.empty() ? "" : std::string(sep)) + std::string(Cs::cli_name)), ...);
  return s;
}

/// "bm1684x (BM1684X), aks (SG2260/BM1690), ...": a list for help texts.
template <chip_traits... Cs>
std::string chips_help(chip_list<Cs...>) {
  std::string s;
  ((s += (s.empty() ? "" : ", ") + std::string(Cs::cli_name) + " (" + display_name<Cs>() + ")"),
   ...);
  return s;
}

}  // namespace tpuprof
