/// chip_traits: what every chip description provides, and runtime dispatch
/// from a chip name to its traits type.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include <tpuprof/engine.hpp>

namespace tpuprof {

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

/// Calls `f.template operator()<Chip>()` for the chip whose cli_name or name
/// equals `chip` (case-insensitive). Throws std::invalid_argument otherwise.
template <chip_traits... Cs, class F>
decltype(auto) with_chip(chip_list<Cs...>, std::string_view chip, F&& f) {
  auto eq = [](std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      char x = a[i], y = b[i];
      if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
      if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
      if (x != y) return false;
    }
    return true;
  };
  using R = decltype(f.template operator()<std::tuple_element_t<0, std::tuple<Cs...>>>());
  if constexpr (std::is_void_v<R>) {
    bool found =
        ((eq(chip, Cs::cli_name) || eq(chip, Cs::name) ? (f.template operator()<Cs>(), true)
                                                       : false) ||
         ...);
    if (!found) throw std::invalid_argument("unknown chip '" + std::string(chip) + "'");
  } else {
    std::optional<R> r;
    (void)((eq(chip, Cs::cli_name) || eq(chip, Cs::name)
                ? (r.emplace(f.template operator()<Cs>()), true)
                : false) ||
           ...);
    if (!r) throw std::invalid_argument("unknown chip '" + std::string(chip) + "'");
    return *std::move(r);
  }
}

}  // namespace tpuprof
