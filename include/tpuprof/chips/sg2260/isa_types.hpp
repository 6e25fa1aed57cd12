/// sg2260 ISA vocabulary: the family's constants (NPUs, lanes, EUs), dtype and
/// layout codes, and the converter's operand dicts (`opd`, `converted`,
/// `op_summary`) that the TIU and DMA converters fill (tpu-mlir target_1690).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/regs/ops_math.hpp>

namespace tpuprof::regs::sg2260 {

/// BM1690 constants (the values tpu-mlir reads from libtpuv7_emulator; the same
/// for SG2260E per bigTpuProfile's AKSV arch table).
inline constexpr std::int64_t npu_num = 64;
inline constexpr std::int64_t bank_num = 16;
inline constexpr std::int64_t lane_size = 256 * 1024;  ///< local memory per NPU
inline constexpr std::int64_t eu_base = 64;            ///< int8 execution units per lane
inline constexpr std::int64_t cube_base = 64;          ///< IC parallel for int8
inline constexpr std::int64_t cube_ohow_align = 4;     ///< memmap CubeOutputHeightWidthAlignNum
/// memmap ExecutionUnitNumber (64 * 256 / 2 / 8) per NPU: what VC's arch ops divide.
inline constexpr std::int64_t per_lane_eu = 64 * 256 / 2 / 8 / npu_num;

/// Memory kind of a descriptor address from its tag (bits 40..44): tags
/// below 30 are DDR, 30 is L2 SRAM, 31 local memory (the rule of the vendor's
/// Direction column). TIU addresses (32 bits, tag 0) are local memory.
constexpr mem_kind dma_kind_of(std::uint64_t addr) noexcept {
  const auto tag = (addr >> 40) & 0x1F;
  return tag < 30 ? mem_kind::ddr : tag == 30 ? mem_kind::l2 : mem_kind::local;
}

/// tpu-mlir DType(code) for the family: 0..7 = i8 f16 f32 i16 i32 bf16 i4 f8,
/// +8 unsigned, +16 signed; unknown for codes the vendor rejects.
constexpr dtype dtype_from_code(std::uint64_t code) noexcept {
  switch (code) {
    case 6:
      return dtype::i4;
    case 7:
    case 14:
    case 15:
    case 22:
    case 23:
      return static_cast<dtype>(code);
    default:
      return regs::dtype_from_code(code);
  }
}

/// tpu-mlir get_dtype(prec, sign): f32/bf16/f16 as they are, everything else
/// prec + 8, + 8 more when sign == 1 (int4 -> ui4/si4, fp8 -> f8e5m2/f8e4m3).
constexpr dtype dtype_from_prec(std::uint64_t prec, std::uint64_t sign) noexcept {
  if (prec == 1 || prec == 2 || prec == 5) return static_cast<dtype>(prec);
  if (prec > 7) return dtype::unknown;
  return dtype_from_code(prec + 8 + (sign == 1 ? 8 : 0));
}

/// memmap EU_NUM: execution units per lane for a dtype (64 for 8 bits); 0 when
/// the vendor has no entry (`fp8` false: the chip lists no fp8 types, AKSV).
constexpr std::int64_t eu_num(dtype t, bool fp8) noexcept {
  switch (bit_size(t)) {
    case 4:
      return eu_base * 2;
    case 8:
      if (!fp8 && (t == dtype::f8 || t == dtype::f8e5m2 || t == dtype::f8e4m3)) return 0;
      return eu_base;
    case 16:
      return eu_base / 2;
    case 32:
      return eu_base / 4;
    default:
      return 0;
  }
}

/// memmap CUBE_NUM: input channels per cycle of the cube (1 for 32-bit types).
constexpr std::int64_t cube_num(dtype t, bool fp8) noexcept {
  switch (bit_size(t)) {
    case 4:
      return cube_base * 2;
    case 8:
      if (!fp8 && (t == dtype::f8 || t == dtype::f8e5m2 || t == dtype::f8e4m3)) return 0;
      return cube_base;
    case 16:
      return cube_base / 2;
    case 32:
      return 1;
    default:
      return 0;
  }
}

/// Why a descriptor decoded only partly (or not at all).
enum class decode_status : std::uint8_t {
  ok,
  unsupported,  ///< a form without a vendor converter or formula: no operands/ops
  unknown_opcode,
  truncated,  ///< fewer bytes than the form's length
};

namespace detail {

using regs::detail::align_up;
using regs::detail::clamp_size;
using regs::detail::div_up;
using regs::detail::i128;
using regs::detail::sat64;

/// tpu-mlir Layout codes of the family.
constexpr layout layout_from_code(std::uint64_t v) noexcept {
  switch (v) {
    case 0:
      return layout::align_eu;
    case 1:
      return layout::compact;
    case 2:
      return layout::offset;
    case 3:
      return layout::stride;
    default:
      return layout::none;  // the vendor raises (Layout(v) is not a member)
  }
}

/// An operand before get_value(): the converter's dict.
struct opd {
  std::uint64_t address = 0;
  dtype type = dtype::unknown;
  layout lay = layout::none;
  bool is_const = false;
  bool dma = false;  ///< DMA address (tagged) rather than a TIU local address
  std::uint8_t rank = 0, srank = 0;
  std::array<std::uint64_t, 4> shape{};
  std::array<std::int64_t, 4> stride{};
  std::uint64_t mask = ~std::uint64_t{0};
  std::uint32_t w = 0;  ///< matrix layouts: row width

  constexpr opd& set_shape(std::initializer_list<std::uint64_t> s) noexcept {
    rank = 0;
    for (auto v : s)
      if (rank < 4) shape[rank++] = v;
    return *this;
  }
  constexpr opd& set_stride(std::initializer_list<std::int64_t> s) noexcept {
    srank = 0;
    for (auto v : s)
      if (srank < 4) stride[srank++] = v;
    return *this;
  }
};

/// What a converter yields: operands, results and whether ops can be computed.
struct converted {
  std::array<opd, 6> ops{};
  std::array<opd, 2> res{};
  unsigned nops = 0, nres = 0;
  bool supported = true;  ///< false where the vendor has no converter or raises
  constexpr void add_op(const opd& o) noexcept {
    if (nops < ops.size()) ops[nops++] = o;
  }
  constexpr void add_res(const opd& o) noexcept {
    if (nres < res.size()) res[nres++] = o;
  }
};

/// What the ops formulas read of a conversion (operands 0-2 and result 0:
/// type, constness, shape), filled by the same converters as `converted`.
/// Inlined, the converters then drop every register read it does not keep
/// (strides, addresses, layouts): ~4x cheaper when only ops are wanted.
struct op_summary {
  struct part {
    dtype type = dtype::unknown;
    bool is_const = false;
    std::uint8_t rank = 0;
    std::array<std::uint64_t, 4> shape{};
    constexpr part() = default;
    constexpr explicit part(const opd& o) noexcept
        : type(o.type), is_const(o.is_const), rank(o.rank), shape(o.shape) {}
  };
  std::array<part, 3> ops{};
  std::array<part, 1> res{};
  unsigned nops = 0, nres = 0;  ///< counted as `converted` counts them
  bool supported = true;
  constexpr void add_op(const opd& o) noexcept {
    if (nops < ops.size()) ops[nops] = part(o);
    if (nops < 6) ++nops;
  }
  constexpr void add_res(const opd& o) noexcept {
    if (nres < res.size()) res[nres] = part(o);
    if (nres < 2) ++nres;
  }
};

using bytes = std::span<const std::byte>;

/// Field F of form T, or G when the form names it so (AKSV renames a few).
template <const reg_table& T, fixed_name F, fixed_name G>
constexpr std::uint64_t field_or(bytes d) noexcept {
  if constexpr (has_field<T, F>)
    return field<T, F>(d);
  else
    return field<T, G>(d);
}

/// A stride field; AKSV splits 18-bit strides into `_15_0` and `_17_16` parts.
template <const reg_table& T, fixed_name F, fixed_name Lo, fixed_name Hi>
constexpr std::int64_t stride_field(bytes d) noexcept {
  if constexpr (has_field<T, F>)
    return static_cast<std::int64_t>(field<T, F>(d));
  else
    return static_cast<std::int64_t>(field<T, Lo>(d) | field<T, Hi>(d) << 16);
}

#define TPUPROF_AKS_STR(T, p, x) \
  stride_field<T, #p "_" #x "_str", #p "_" #x "_str_15_0", #p "_" #x "_str_17_16">(d)

template <const reg_table& T>
constexpr std::array<std::int64_t, 4> strides_of_res0(bytes d) noexcept {
  return {TPUPROF_AKS_STR(T, res0, n), TPUPROF_AKS_STR(T, res0, c), TPUPROF_AKS_STR(T, res0, h),
          TPUPROF_AKS_STR(T, res0, w)};
}
template <const reg_table& T>
constexpr std::array<std::int64_t, 4> strides_of_opd0(bytes d) noexcept {
  return {TPUPROF_AKS_STR(T, opd0, n), TPUPROF_AKS_STR(T, opd0, c), TPUPROF_AKS_STR(T, opd0, h),
          TPUPROF_AKS_STR(T, opd0, w)};
}
template <const reg_table& T>
constexpr std::array<std::int64_t, 4> strides_of_opd1(bytes d) noexcept {
  return {TPUPROF_AKS_STR(T, opd1, n), TPUPROF_AKS_STR(T, opd1, c), TPUPROF_AKS_STR(T, opd1, h),
          TPUPROF_AKS_STR(T, opd1, w)};
}
#undef TPUPROF_AKS_STR

constexpr void set4(opd& o, const std::array<std::int64_t, 4>& s) noexcept {
  o.set_stride({s[0], s[1], s[2], s[3]});
}

/// res0_n (AKSV's sCONV calls it opd0_n).
template <const reg_table& T>
constexpr std::uint64_t res0_n(bytes d) noexcept {
  return field_or<T, "res0_n", "opd0_n">(d);
}

}  // namespace detail

}  // namespace tpuprof::regs::sg2260
