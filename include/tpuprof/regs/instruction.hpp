/// Decoded command descriptors, chip-independent: tensor operands with memory
/// kind, dtype, shape and stride; alg/arch ops; the memory ranges touched.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/command_dep.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/regs/ops_math.hpp>
#include <tpuprof/regs/reg_table.hpp>

namespace tpuprof::regs {

/// Where an operand lives.
enum class mem_kind : std::uint8_t {
  unknown = 0,
  local,       ///< per-lane local memory (LMEM)
  static_mem,  ///< static memory (BM1684X: 16 KiB at 0x9000000)
  l2,          ///< L2 SRAM / L2M
  ddr,         ///< global memory
  constant,    ///< an immediate in the descriptor (no memory)
};

constexpr std::string_view name(mem_kind k) noexcept {
  constexpr std::array<std::string_view, 6> n{"unknown", "local", "static", "l2", "ddr", "const"};
  return n[static_cast<std::size_t>(k)];
}

/// Element types with the vendor's numbering (tpu-mlir op_support.DType):
/// low 3 bits = precision, +8 unsigned, +16 signed; signless otherwise.
enum class dtype : std::uint8_t {
  i8 = 0,
  f16 = 1,
  f32 = 2,
  i16 = 3,
  i32 = 4,
  bf16 = 5,
  i64 = 6,  ///< BM1684X code 6; the SG2260 family's code 6 is int4 (i4 below)
  f8 = 7,
  ui8 = 8,
  ui16 = 11,
  ui32 = 12,
  ui4 = 14,
  f8e5m2 = 15,
  si8 = 16,
  si16 = 19,
  si32 = 20,
  si4 = 22,
  f8e4m3 = 23,
  i4 = 38,  ///< SG2260 family code 6 (signless int4), moved off BM1684X's i64
  unknown = 255,
};

/// Vendor spelling ("f32", "si8", ...); "" for unknown.
constexpr std::string_view name(dtype t) noexcept {
  switch (t) {
    case dtype::i8:
      return "i8";
    case dtype::f16:
      return "f16";
    case dtype::f32:
      return "f32";
    case dtype::i16:
      return "i16";
    case dtype::i32:
      return "i32";
    case dtype::bf16:
      return "bf16";
    case dtype::i64:
      return "i64";
    case dtype::ui8:
      return "ui8";
    case dtype::ui16:
      return "ui16";
    case dtype::ui32:
      return "ui32";
    case dtype::si8:
      return "si8";
    case dtype::si16:
      return "si16";
    case dtype::si32:
      return "si32";
    case dtype::f8:
      return "f8";
    case dtype::ui4:
      return "ui4";
    case dtype::f8e5m2:
      return "f8e5m2";
    case dtype::si4:
      return "si4";
    case dtype::f8e4m3:
      return "f8e4m3";
    case dtype::i4:
      return "i4";
    default:
      return "";
  }
}

/// Bits per element; 0 for unknown.
constexpr unsigned bit_size(dtype t) noexcept {
  switch (t) {
    case dtype::i4:
    case dtype::ui4:
    case dtype::si4:
      return 4;
    case dtype::i8:
    case dtype::ui8:
    case dtype::si8:
    case dtype::f8:
    case dtype::f8e5m2:
    case dtype::f8e4m3:
      return 8;
    case dtype::f16:
    case dtype::bf16:
    case dtype::i16:
    case dtype::ui16:
    case dtype::si16:
      return 16;
    case dtype::f32:
    case dtype::i32:
    case dtype::ui32:
    case dtype::si32:
      return 32;
    case dtype::i64:
      return 64;
    default:
      return 0;
  }
}

/// Bytes per element; 0 for unknown and for 4-bit types (see bit_size).
constexpr unsigned item_size(dtype t) noexcept {
  return bit_size(t) / 8;
}

/// The vendor's DType(code): nullopt-like `unknown` for codes it rejects.
constexpr dtype dtype_from_code(std::uint64_t code) noexcept {
  switch (code) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 8:
    case 11:
    case 12:
    case 16:
    case 19:
    case 20:
      return static_cast<dtype>(code);
    default:
      return dtype::unknown;
  }
}

/// tpu-mlir get_dtype(prec, sign): floats as they are, integers signed when
/// sign == 1 (exactly 1), unsigned otherwise.
constexpr dtype dtype_from_prec(std::uint64_t prec, std::uint64_t sign) noexcept {
  if (prec == 1 || prec == 2 || prec == 5) return static_cast<dtype>(prec);
  if (prec > 6) return dtype::unknown;
  return dtype_from_code(prec + 8 + (sign == 1 ? 8 : 0));
}

/// Layout of a tensor in memory (tpu-mlir op_support.Layout).
enum class layout : std::uint8_t {
  none = 0,
  align_eu,
  compact,
  offset,
  stride,
  matrix,
  matrix2,
  ic64,
  ic32,
  ic1,
  t3,
  t4,
  t5,
  dma_stride,
  dma_4bank,
  dma_matrix,
  dma_linear,
  align_ic,    ///< SG2260 family weights (code 20 there)
  align_line,  ///< SG2260 family gather/scatter lines (code 30 there)
};

constexpr std::string_view name(layout l) noexcept {
  constexpr std::array<std::string_view, 19> n{
      "Tensor",   "alignEU",   "compact",   "offset",  "stride",   "matrix", "matrix2",
      "_64IC",    "_32IC",     "_1IC",      "T3",      "T4",       "T5",     "DMAstride",
      "DMA4Bank", "DMAmatrix", "DMAlinear", "alignIC", "alignLine"};
  return n[static_cast<std::size_t>(l)];
}

/// One operand or result of a command: a tensor in memory or an immediate.
struct tensor_ref {
  std::uint64_t address = 0;  ///< full device address; the value for constants
  mem_kind kind = mem_kind::unknown;
  dtype type = dtype::unknown;
  layout lay = layout::none;
  std::uint8_t rank = 0;                        ///< dimensions used in `shape`
  std::uint8_t stride_rank = 0;                 ///< 0 = no stride given
  std::uint64_t lane_mask = ~std::uint64_t{0};  ///< DMA layouts
  std::uint32_t layout_w = 0;                   ///< matrix layouts: row width
  std::array<std::uint64_t, 4> shape{};
  std::array<std::int64_t, 4> stride{};  ///< in elements

  constexpr bool is_const() const noexcept { return kind == mem_kind::constant; }
  constexpr std::uint64_t elements() const noexcept {
    if (is_const()) return 0;
    std::uint64_t n = 1;
    for (unsigned i = 0; i < rank; ++i) n *= shape[i];
    return n;
  }
};

/// A memory range a command reads or writes (what tpu_profile.py draws in
/// its LOCAL / GLOBAL MEM charts).
struct mem_operand {
  /// Local memory: offset inside one lane; elsewhere: device address.
  std::uint64_t address = 0;
  std::uint64_t size = 0;       ///< bytes covered (first to last element, strides included)
  std::uint64_t data_size = 0;  ///< bytes of the elements themselves
  mem_kind kind = mem_kind::unknown;
  bool write = false;
  std::uint8_t index = 0;  ///< position among the command's operands (or results)
  /// Local memory: the size of the dimension spread over the NPU lanes (channels,
  /// matrix rows), which a TIU command's lanes work on in parallel; 0 elsewhere.
  std::uint32_t lane_dim = 0;
};

/// A named address range of one memory kind (a local memory bank, a global
/// buffer such as "neuron_mem"): the partitions of the memory charts.
/// Addresses as in mem_operand (local memory: offset inside a lane).
struct memory_region {
  mem_kind kind = mem_kind::unknown;
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  std::string name;

  constexpr std::uint64_t end() const noexcept { return address + size; }
};

/// One decoded command descriptor.
struct instruction {
  const reg_table* table = nullptr;  ///< the form it was decoded with
  std::string_view op;               ///< e.g. "arith.cast", "dma.tensor"
  engine eng = engine::tiu;
  bool short_form = false;
  unsigned type = 0;  ///< tsk_typ / cmd_type
  unsigned eu = 0;    ///< tsk_eu_typ / special function
  std::uint32_t cmd_id = 0, dep_id = 0;
  /// Send / wait sync commands: the role, message id and count (a send: how many waits
  /// consume it; a wait: how many sends it needs), where the chip's layout is known.
  sync_role sync = sync_role::none;
  std::uint32_t msg_id = 0, msg_count = 0;
  std::uint32_t length = 0;  ///< bytes
  std::vector<tensor_ref> operands, results;
  /// TIU: useful operations and the operations the hardware spends (channels
  /// padded to the NPU count, the innermost dim to the EU count); DMA: none.
  std::optional<std::uint64_t> alg_ops, arch_ops;
  direction dir = direction::none;  ///< DMA: from the memory kinds of source and destination
  std::uint64_t bytes = 0;          ///< DMA: bytes of the source tensor described (0 if unknown)
  std::vector<mem_operand> memory;  ///< the ranges read (operands) then written (results)
  /// The descriptor bytes it was decoded from (`length` of them): every
  /// register field through reg_view(table, raw). Points into the dump's
  /// files, so valid only while they stay mapped (the decoder's dump_files).
  std::span<const std::byte> raw;

  /// alg_ops / arch_ops; NaN when unknown or arch_ops is 0.
  float uarch_rate() const noexcept { return detail::ops_ratio(alg_ops, arch_ops); }
  dtype in_type() const noexcept {
    return operands.empty() || results.empty() ? dtype::unknown : operands[0].type;
  }
  dtype out_type() const noexcept {
    return operands.empty() || results.empty() ? dtype::unknown : results[0].type;
  }
};

/// Direction from source and destination memory kinds; `unknown` for pairs
/// the enum has no name for (e.g. static memory).
constexpr direction direction_of(mem_kind src, mem_kind dst) noexcept {
  using K = mem_kind;
  auto code = [](K k) -> char {
    switch (k) {
      case K::ddr:
        return 's';
      case K::local:
        return 'l';
      case K::l2:
        return 'm';
      case K::constant:
        return 'c';
      default:
        return '?';
    }
  };
  const char s = code(src), d = code(dst);
  if (s == 's')
    return d == 'l'   ? direction::s2l
           : d == 's' ? direction::s2s
           : d == 'm' ? direction::s2m
                      : direction::unknown;
  if (s == 'l')
    return d == 's'   ? direction::l2s
           : d == 'l' ? direction::l2l
           : d == 'm' ? direction::l2m
                      : direction::unknown;
  if (s == 'm')
    return d == 's'   ? direction::m2s
           : d == 'l' ? direction::m2l
           : d == 'm' ? direction::m2m
                      : direction::unknown;
  if (s == 'c')
    return d == 's'   ? direction::c2s
           : d == 'l' ? direction::c2l
           : d == 'm' ? direction::c2m
                      : direction::unknown;
  return direction::unknown;
}

}  // namespace tpuprof::regs
