/// bmprofile_chip: what a chip must describe for the bmprofile_data-N decoder
/// (one chip now; other chips of the family are the same container with other tables).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/command_frame.hpp>
#include <tpuprof/node_set_layout.hpp>

namespace tpuprof::bmprofile {

template <class T>
concept bmprofile_chip = chip_traits<T> && requires(std::uint64_t w) {
  requires T::family == dump_family::bmprofile;
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
