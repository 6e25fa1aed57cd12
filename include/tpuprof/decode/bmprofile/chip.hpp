/// bmprofile_chip: what a chip must describe for the bmprofile_data-N decoder
/// (BM1684X now; BM1684 and BM1688 are the same container with other tables).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include <tpuprof/chip_traits.hpp>

namespace tpuprof::bmprofile {

/// One framed command of a cmd_*.dat buffer: its length and identity.
struct command_frame {
  unsigned length = 0;       ///< bytes
  std::string_view op;       ///< op name, e.g. "arith.cast"
  std::uint32_t cmd_id = 0;  ///< own id (bd_id / gdma_id)
  std::uint32_t dep_id = 0;  ///< id of the other engine's command it waits for
  unsigned type = 0;         ///< tsk_typ / cmd_type
  unsigned eu = 0;           ///< tsk_eu_typ / special function
};

/// Bit layout of the 64-bit id of an MCU NODE_SET / NODE_WAIT record.
struct node_set_layout {
  unsigned bd_lo, bd_width, gdma_lo, gdma_width, engine_lo, engine_width, func_lo, func_width,
      parallel_bit, version_lo;
};

template <class T>
concept bmprofile_chip = chip_traits<T> && requires(std::uint64_t w) {
  { T::arch_id } -> std::convertible_to<int>;
  { T::arch_name } -> std::convertible_to<std::string_view>;
  { T::period_fixed } -> std::convertible_to<bool>;
  { T::tiu_record_size } -> std::convertible_to<std::size_t>;
  { T::gdma_record_size } -> std::convertible_to<std::size_t>;
  { T::id_width } -> std::convertible_to<unsigned>;
  { T::gdma_inst_id_bits } -> std::convertible_to<unsigned>;
  { T::node_set } -> std::convertible_to<node_set_layout>;
  { T::bd_func_names[0] } -> std::convertible_to<std::string_view>;
  { T::gdma_func_names[0] } -> std::convertible_to<std::string_view>;
  { T::frame_tiu(w) } -> std::same_as<std::optional<command_frame>>;
  { T::frame_gdma(w, w) } -> std::same_as<std::optional<command_frame>>;
  { T::realigns_after(std::string_view{}) } -> std::same_as<bool>;
};

}  // namespace tpuprof::bmprofile
