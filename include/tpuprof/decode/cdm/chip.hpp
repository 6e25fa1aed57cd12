/// cdm_chip: what a chip of the SG2260 family provides to the cdm decoder and
/// the synthetic dump generator, on top of tpuprof::chip_traits. Everything
/// that differs between the chips is a member of their traits.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <tpuprof/cdm_format.hpp>
#include <tpuprof/chip_traits.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::cdm {

/// A chip_traits that also describes the cdm dump layout, command framing and names.
template <class T>
concept cdm_chip =
    chip_traits<T> && requires(std::span<const std::byte> data, regs::instruction& ins) {
      requires T::family == dump_family::cdm;
      { T::cdma_port_count } -> std::convertible_to<unsigned>;  ///< CDMA ports (file cdma_P)
      { T::arch_ids[0] } -> std::convertible_to<int>;  ///< `arch=` values in global.profile
      { T::arch_ids.size() } -> std::convertible_to<std::size_t>;
      { T::dyn_engines } -> std::convertible_to<dyn_engine_ids>;    ///< DYN_DATA engine numbers
      { T::rvt_wrap_limit } -> std::convertible_to<std::uint32_t>;  ///< 0 = no RVT id wrap
      { T::init_cmd_num } -> std::convertible_to<unsigned>;  ///< profiler init records per engine
      // Command framing: TIU class (name, bits) and DMA / CDMA lengths in bits.
      { T::tiu_class_of(0u, 0u, true)->bits } -> std::convertible_to<unsigned>;
      { T::dma_bits(0u) } -> std::convertible_to<unsigned>;
      { T::cdma_bits(0u) } -> std::convertible_to<unsigned>;
      // Names the vendor tools print.
      { T::tiu_op(0u, 0u) } -> std::convertible_to<std::string_view>;
      { T::tiu_names(0u, 0u).name } -> std::convertible_to<std::string>;
      { T::cdma_op_names(0u, 0u).type } -> std::convertible_to<std::string>;
      T::dma_op_names(0u, 0u, mem_kind::ddr, mem_kind::ddr, std::string_view{});
      // Register-level descriptors.
      T::decode_descriptor(engine::tiu, data, ins);
      { T::descriptor_ops(data).uarch_rate() } -> std::convertible_to<float>;
    };

/// True when `arch` (the global.profile value) names chip C.
template <cdm_chip C>
constexpr bool matches_arch(long long arch) noexcept {
  for (auto a : C::arch_ids)
    if (a == arch) return true;
  return false;
}

}  // namespace tpuprof::cdm
