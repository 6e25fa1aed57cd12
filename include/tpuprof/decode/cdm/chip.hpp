/// cdm_chip: what a chip of the SG2260 family provides to the cdm decoder and
/// the synthetic dump generator, on top of tpuprof::chip_traits.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/decode/cdm/format.hpp>

namespace tpuprof::cdm {

/// A chip_traits that also describes the cdm dump layout.
template <class T>
concept cdm_chip = chip_traits<T> && requires {
  { T::cdma_port_count } -> std::convertible_to<unsigned>;  ///< CDMA ports (file cdma_P)
  { T::arch_ids[0] } -> std::convertible_to<int>;           ///< `arch=` values in global.profile
  { T::arch_ids.size() } -> std::convertible_to<std::size_t>;
  { T::dyn_engines } -> std::convertible_to<dyn_engine_ids>;    ///< DYN_DATA engine numbers
  { T::rvt_wrap_limit } -> std::convertible_to<std::uint32_t>;  ///< 0 = no RVT id wrap
  { T::init_cmd_num } -> std::convertible_to<unsigned>;  ///< profiler init records per engine
  { T::kind } -> std::convertible_to<cdm_chip_kind>;     ///< register layout variant
};

/// True when `arch` (the global.profile value) names chip C.
template <cdm_chip C>
constexpr bool matches_arch(long long arch) noexcept {
  for (auto a : C::arch_ids)
    if (a == arch) return true;
  return false;
}

}  // namespace tpuprof::cdm
