/// isa_entry: one row of a generated command-class table (chips/<chip>/isa_table.hpp): the
/// head values that select a class, its length and names.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <tpuprof/command_frame.hpp>
#include <tpuprof/io/byte_reader.hpp>

namespace tpuprof::chips {

struct isa_entry {
  std::uint8_t short_code;  ///< 0 long form, 1 short form, 2 either (head without a short bit)
  std::uint8_t type;        ///< tsk_typ / cmd_type
  std::uint8_t sub;         ///< tsk_eu_typ / special function
  std::uint16_t length;     ///< bytes; 0 = the vendor has no register layout for the class
  std::string_view cls;     ///< class name ("sAR", "DMA_matrix")
  std::string_view op;      ///< op name ("arith.cast", "dma.matrix")
};

/// The entry for (short_code, type, sub), or nullopt.
constexpr std::optional<isa_entry> find_isa_entry(std::span<const isa_entry> t, unsigned short_code,
                                                  unsigned type, unsigned sub) noexcept {
  for (const auto& e : t)
    if (e.short_code == short_code && e.type == type && e.sub == sub) return e;
  return std::nullopt;
}

/// Command head bit positions of a chip whose commands carry no own id (tpu-mlir's
/// target_1688-style decoders: the id is the position in the list).
struct isa_heads {
  unsigned gdma_type_bits;  ///< cmd_type width at bit 32; the special function follows it
  bool tr_acc_has_short;    ///< the SYS_TR_ACC head (3-bit eu type) keeps the short bit
};

/// The class of a TIU command the way the vendor looks it up: the normal head (short bit 0,
/// tsk_typ 41-44, tsk_eu_typ 45-49) first, then the SYS_TR_ACC head (3-bit eu type).
constexpr std::optional<isa_entry> tiu_class(std::span<const isa_entry> t, isa_heads h,
                                             std::uint64_t w0) noexcept {
  const auto sh = static_cast<unsigned>(w0 & 1);
  const auto type = static_cast<unsigned>(io::bits(w0, 41, 4));
  const auto eu5 = static_cast<unsigned>(io::bits(w0, 45, 5));
  auto e = find_isa_entry(t, sh, type, eu5);
  if (!e) e = find_isa_entry(t, h.tr_acc_has_short ? sh : 2u, type, eu5 & 7u);
  return e;
}

/// The class of a GDMA command: short bit 3, cmd_type at 32, special function after it.
constexpr std::optional<isa_entry> gdma_class(std::span<const isa_entry> t, isa_heads h,
                                              std::uint64_t w0) noexcept {
  const auto sh = static_cast<unsigned>(io::bits(w0, 3, 1));
  const auto type = static_cast<unsigned>(io::bits(w0, 32, h.gdma_type_bits));
  const auto sf = static_cast<unsigned>(io::bits(w0, 32 + h.gdma_type_bits, 3));
  return find_isa_entry(t, sh, type, sf);
}

/// A class as a command frame (no own ids: the position is the id); nullopt when the vendor
/// has no register layout for it.
constexpr std::optional<bmprofile::command_frame> frame_of(std::optional<isa_entry> e) noexcept {
  if (!e || e->length == 0) return std::nullopt;
  return bmprofile::command_frame{e->length, e->op, 0, 0, e->type, e->sub};
}

}  // namespace tpuprof::chips
