/// SG2260-family command descriptors (AKS = SG2260 = BM1690, AKSV = SG2260E) to
/// instructions: operands, dtypes, memory ranges, alg/arch ops and DMA
/// direction, as tpu-mlir's debugger/target_1690 (opparam.py, opdef.py,
/// memmap.py, context.py) derives them; docs/registers.md lists the
/// deliberate differences.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <utility>

#include <tpuprof/chips/aks_regs.hpp>
#include <tpuprof/chips/aksv_regs.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/regs/ops_math.hpp>

namespace tpuprof::regs::aks_isa {

/// Which register tables: AKS (tpu-mlir target_1690) or AKSV (target_1690e).
enum class family : std::uint8_t { aks, aksv };

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
/// the vendor has no entry (AKSV lists no fp8 types).
constexpr std::int64_t eu_num(dtype t, family f) noexcept {
  switch (bit_size(t)) {
    case 4:
      return eu_base * 2;
    case 8:
      if (f == family::aksv && (t == dtype::f8 || t == dtype::f8e5m2 || t == dtype::f8e4m3))
        return 0;
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
constexpr std::int64_t cube_num(dtype t, family f) noexcept {
  switch (bit_size(t)) {
    case 4:
      return cube_base * 2;
    case 8:
      if (f == family::aksv && (t == dtype::f8 || t == dtype::f8e5m2 || t == dtype::f8e4m3))
        return 0;
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

// ---------------------------------------------------------------- TIU converters

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_sconv(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = res0_n<T>(d), c = field<T, "res0_c">(d);
  const auto prec0 = field<T, "opt_opd0_prec">(d), sign0 = field<T, "opt_opd0_sign">(d);
  const auto sign1 = field<T, "opt_opd1_sign">(d), sign2 = field<T, "opt_opd2_sign">(d);
  const auto ic = field<T, "opd0_c">(d);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  if (eu == 1 || eu == 4) {  // CONV_BW
    o0.set_shape({field<T, "opd0_n">(d), ic, field<T, "opd0_h">(d), field<T, "opd0_w">(d)});
  } else {
    o0.set_shape({n, ic, field<T, "opd0_h">(d), field<T, "opd0_w">(d)});
  }
  set4(o0, strides_of_opd0<T>(d));
  o0.type = dtype_from_prec(prec0, sign0);
  o0.lay = layout_from_code(field<T, "short_opd0_str">(d));
  opd o1;
  o1.address = field<T, "opd1_addr">(d);
  o1.set_shape({c, ic, field<T, "opd1_h">(d), field<T, "opd1_w">(d)});
  o1.is_const = field<T, "opt_opd1_const">(d) != 0;
  o1.lay = layout::align_ic;
  opd o2;
  o2.address = field<T, "opd2_addr">(d);
  o2.is_const = field<T, "opt_opd2_const">(d) != 0;
  o2.set_shape({1, c, 1, 1});
  o2.lay = layout::compact;
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.lay = layout::align_eu;
  if (eu == 1 || eu == 4) {
    o1.type = dtype_from_prec(field<T, "opt_opd1_prec">(d), sign1);
    o2.type = dtype_from_prec(field<T, "opt_opd2_prec">(d), sign2);
    r0.set_shape({field<T, "opd0_n">(d), c, field<T, "res0_h">(d), field<T, "res0_w">(d)});
    r0.type = dtype_from_prec(field<T, "opt_res0_prec">(d), field<T, "opt_res0_sign">(d));
    cv.add_op(o0);
    cv.add_op(o1);
    cv.add_op(o2);
    cv.add_res(r0);
    return cv;
  }
  o1.type = dtype_from_prec(prec0, sign1);
  o2.type = dtype_from_prec(4, sign2);  // (DType.i32, sign): i32 is not a float, so +8/+16
  opd o3;
  o3.address = field<T, "opd3_addr">(d);
  o3.is_const = field<T, "opt_opd3_const">(d) != 0;
  o3.set_shape({1, c, 1, 2});
  o3.lay = layout::compact;
  o3.type = o0.type;
  r0.set_shape({n, c, field<T, "res0_h">(d), field<T, "res0_w">(d)});
  r0.type = dtype_from_prec(field<T, "opt_res0_prec">(d), sign0 ? sign0 : sign1 ? sign1 : sign2);
  cv.add_op(o0);
  cv.add_op(o1);
  cv.add_op(o2);
  cv.add_op(o3);
  // opd4/opd5 live at TGCR addresses (set by earlier SYS_TR_ACC commands),
  // which a single descriptor does not carry: left out, see docs/registers.md.
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_smm(bytes d) noexcept {
  Cv cv;
  std::uint64_t lrow = field<T, "opd0_n">(d);
  std::uint64_t lcol = field<T, "opd0_w">(d) * (field<T, "opd0_c">(d) - 1) + field<T, "opd1_w">(d);
  const std::uint64_t rcol = field<T, "res0_c">(d) * field<T, "res0_w">(d);
  const auto prec0 = field<T, "opt_opd0_prec">(d);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = dtype_from_prec(prec0, field<T, "opt_opd0_sign">(d));
  o0.set_shape({lrow, lcol});
  o0.lay = layout::matrix;
  o0.w = static_cast<std::uint32_t>(field<T, "opd0_w">(d));
  o0.is_const = field<T, "opt_opd0_const">(d) != 0;
  if (field<T, "opt_left_tran">(d)) std::swap(lrow, lcol);
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = dtype_from_prec(field<T, "opt_res0_prec">(d), 1);
  r0.set_shape({lrow, rcol});
  r0.lay = layout::matrix;
  r0.w = static_cast<std::uint32_t>(field<T, "res0_w">(d));
  opd o1;
  o1.address = field<T, "opd1_addr">(d);
  o1.type = dtype_from_prec(prec0, field<T, "opt_opd1_sign">(d));
  o1.set_shape({lcol, rcol});
  o1.lay = layout::matrix;
  o1.w = r0.w;
  opd o2;
  o2.address = field<T, "opd2_addr">(d);
  o2.is_const = field<T, "opt_opd2_const">(d) != 0;
  o2.set_shape({1, rcol});
  o2.lay = layout::matrix;
  o2.w = r0.w;
  o2.type = prec0 == 2 ? o0.type : dtype::si8;
  cv.add_op(o0);
  cv.add_op(o1);
  cv.add_op(o2);
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_smm2(bytes d, unsigned eu) noexcept {
  Cv cv;
  std::uint64_t lrow = field<T, "res0_c">(d), lcol = field<T, "opd1_c">(d);
  if (eu == 5) {
    lcol = field<T, "opd1_w">(d);
  } else if (eu == 6) {
    lrow = field<T, "opd1_w">(d);
    lcol = field<T, "res0_c">(d);
  }
  const auto prec0 = field<T, "opt_opd0_prec">(d);
  const auto rw = field<T, "res0_w">(d);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = dtype_from_prec(prec0, field<T, "opt_opd0_sign">(d));
  o0.set_shape({lrow, lcol});
  o0.lay = layout::matrix2;
  o0.is_const = field<T, "opt_opd0_const">(d) != 0;
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = dtype_from_prec(field<T, "opt_res0_prec">(d), 1);
  r0.set_shape({field<T, "res0_c">(d), rw});
  r0.lay = layout::matrix2;
  opd o1;
  o1.address = field<T, "opd1_addr">(d);
  o1.type = dtype_from_prec(prec0, field<T, "opt_opd1_sign">(d));
  o1.set_shape({field<T, "opd1_c">(d), field<T, "opd1_w">(d)});
  o1.lay = layout::matrix2;
  opd o2;
  o2.address = field<T, "opd2_addr">(d);
  o2.is_const = field<T, "opt_opd2_const">(d) != 0;
  if (eu == 4 || eu == 5) {
    o2.set_shape({1, static_cast<std::uint64_t>(npu_num), 1, rw});
    o2.lay = layout::align_eu;
  } else {
    o2.set_shape({1, rw, 1, 1});
    o2.lay = layout::compact;
  }
  cv.add_op(o0);
  cv.add_op(o1);
  if (prec0 == 0 || prec0 == 6) {
    o2.type = dtype_from_prec(4, field<T, "opt_opd2_sign">(d));
    // opd4/opd5 (zero point, requant) are TGCR-addressed: left out.
  } else {
    o2.type = dtype::f32;
  }
  cv.add_op(o2);
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_scmp(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = field<T, "res0_n">(d), c = field<T, "res0_c">(d), h = field<T, "res0_h">(d),
             w = field<T, "res0_w">(d);
  const dtype t0 = dtype_from_prec(field<T, "opt_opd0_prec">(d), field<T, "opt_opd0_sign">(d));
  const dtype t2 = dtype_from_code(field<T, "opt_opd2_prec">(d));
  auto mk = [&](std::uint64_t addr, dtype t, layout l, bool is_const) {
    opd o;
    o.address = addr;
    o.type = t;
    o.set_shape({n, c, h, w});
    o.lay = l;
    o.is_const = is_const;
    if (l == layout::stride) o.set_stride({0, 0, 0, 0});
    return o;
  };
  const opd o0 = mk(field<T, "opd0_addr">(d), t0, layout_from_code(field<T, "short_opd0_str">(d)),
                    field<T, "opt_opd0_const">(d) != 0);
  const opd o1 = mk(field<T, "opd1_addr">(d), t0, layout_from_code(field<T, "short_opd1_str">(d)),
                    field<T, "opt_opd1_const">(d) != 0);
  const opd o2 =
      mk(field<T, "opd2_addr">(d), t2, layout::align_eu, field<T, "opt_opd2_const">(d) != 0);
  const opd o3 =
      mk(field<T, "opd3_addr">(d), t2, layout::align_eu, field<T, "opt_opd3_const">(d) != 0);
  opd r0 = mk(field<T, "res0_addr">(d), t0, layout::align_eu, false);
  const opd r1 = mk(field<T, "res1_addr">(d), t2, layout::align_eu, false);
  cv.add_op(o0);
  cv.add_op(o1);
  cv.add_op(o2);
  cv.add_op(o3);
  if (eu == 23 || eu == 24 || eu == 26) {
    r0.type = t2;
    cv.add_res(r0);
  } else {
    cv.add_res(r0);
    cv.add_res(r1);
  }
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_ssfu(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = field<T, "res0_n">(d), c = field<T, "res0_c">(d), h = field<T, "res0_h">(d),
             w = field<T, "res0_w">(d);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = dtype_from_prec(field<T, "opt_opd0_prec">(d), 1);
  o0.set_shape({n, c, h, w});
  o0.lay = layout::align_eu;
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = dtype_from_prec(field<T, "opt_res0_prec">(d), 1);
  r0.set_shape({n, c, h, w});
  r0.lay = layout::align_eu;
  cv.add_op(o0);
  if (eu == 12 || eu == 13) {
    opd o1;
    o1.address = field<T, "opd1_addr">(d);
    o1.type = o0.type;
    const auto tl = field<T, "opd1_n">(d);
    o1.set_shape({1, c < 64 ? c : 64, 1, tl});
    o1.set_stride({0, 0, static_cast<std::int64_t>(tl), 1});
    o1.lay = layout::stride;
    cv.add_op(o1);
  }
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_slin(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = field<T, "res0_n">(d), c = field<T, "res0_c">(d), h = field<T, "res0_h">(d),
             w = field<T, "res0_w">(d);
  const dtype t = dtype_from_prec(field<T, "opt_res0_prec">(d), 1);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = t;
  o0.set_shape({n, c, h, w});
  o0.lay = layout::align_eu;
  opd r0 = o0;
  r0.address = field<T, "res0_addr">(d);
  opd o1;
  o1.address = field<T, "opd1_addr">(d);
  o1.type = t;
  o1.set_shape({1, c, 1, 1});
  o1.lay = layout::compact;
  o1.is_const = field<T, "opt_opd1_const">(d) != 0;
  opd o2 = o1;
  o2.address = field<T, "opd2_addr">(d);
  o2.is_const = field<T, "opt_opd2_const">(d) != 0;
  cv.add_op(o0);
  cv.add_op(o1);
  if (eu == 1) cv.add_op(o2);
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_svc(bytes d) noexcept {
  Cv cv;
  const auto c0 = field<T, "opd0_c">(d), w0 = field<T, "opd0_w">(d);
  const auto rows = (c0 - 1) * w0 + field<T, "opd1_w">(d);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = dtype_from_prec(field<T, "opt_opd0_prec">(d), field<T, "opt_opd0_sign">(d));
  o0.set_shape({1, c0, 1, w0});
  o0.lay = layout::align_eu;
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = dtype_from_prec(field<T, "opt_res0_prec">(d), 1);
  r0.set_shape({rows, field<T, "res0_c">(d), 1, field<T, "res0_w">(d)});
  r0.lay = layout::align_eu;
  opd o1;
  o1.address = field<T, "opd1_addr">(d);
  o1.type = dtype_from_prec(field<T, "opt_opd1_prec">(d), field<T, "opt_opd1_sign">(d));
  o1.set_shape({1, field<T, "res0_c">(d), 1, field<T, "res0_w">(d)});
  o1.lay = layout::align_eu;
  cv.add_op(o0);
  cv.add_op(o1);
  cv.add_res(r0);
  return cv;
}

/// restore_org_shape: a dimension with stride 0 in a stride layout has size 1.
constexpr void restore_org_shape(opd& o) noexcept {
  if (o.lay != layout::stride) return;
  for (unsigned i = 0; i < o.rank && i < o.srank; ++i)
    if (o.stride[i] == 0) o.shape[i] = 1;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_sar(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = field<T, "res0_n">(d), c = field<T, "res0_c">(d), h = field<T, "res0_h">(d),
             w = field<T, "res0_w">(d);
  const auto s0 = field<T, "opt_opd0_sign">(d), s1 = field<T, "opt_opd1_sign">(d);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = dtype_from_prec(field<T, "opt_opd0_prec">(d), s0);
  o0.set_shape({n, c, h, w});
  set4(o0, strides_of_opd0<T>(d));
  o0.lay = layout_from_code(field<T, "short_opd0_str">(d));
  o0.is_const = field<T, "opt_opd0_const">(d) != 0;
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = dtype_from_prec(field<T, "opt_res0_prec">(d),
                            eu == 14 ? field<T, "opt_opd2_sign">(d) : (s0 ? s0 : s1));
  r0.set_shape({n, c, h, w});
  set4(r0, strides_of_res0<T>(d));
  r0.lay = layout_from_code(field<T, "short_res0_str">(d));
  opd o1;
  o1.address = field<T, "opd1_addr">(d);
  o1.type = dtype_from_prec(field<T, "opt_opd1_prec">(d), s1);
  o1.set_shape({n, c, h, w});
  set4(o1, strides_of_opd1<T>(d));
  o1.lay = layout_from_code(field<T, "short_opd1_str">(d));
  o1.is_const = field<T, "opt_opd1_const">(d) != 0;
  opd o2;
  o2.address = field<T, "opd2_addr">(d);
  o2.type = dtype_from_prec(field<T, "opt_opd2_prec">(d), field<T, "opt_opd2_sign">(d));
  o2.set_shape({1, c, 1, 1});
  o2.lay = layout::compact;
  o2.is_const = field<T, "opt_opd2_const">(d) != 0;
  restore_org_shape(o0);
  restore_org_shape(o1);
  const auto num = field<T, "tsk_opd_num">(d);
  if (num >= 1) cv.add_op(o0);
  if (num >= 2) cv.add_op(o1);
  if (num >= 3) cv.add_op(o2);
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_spord(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = field<T, "res0_n">(d), c = field<T, "res0_c">(d), h = field<T, "res0_h">(d),
             w = field<T, "res0_w">(d);
  const auto prec0 = field<T, "opt_opd0_prec">(d), s0 = field<T, "opt_opd0_sign">(d);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = dtype_from_prec(prec0, s0);
  o0.set_shape({n, c, field<T, "opd0_h">(d), field<T, "opd0_w">(d)});
  o0.lay = layout::align_eu;
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = dtype_from_prec(field<T, "opt_res0_prec">(d), s0);
  r0.set_shape({n, c, h, w});
  r0.lay = layout::align_eu;
  opd o1;
  o1.address = field<T, "opd1_addr">(d);
  o1.type = dtype_from_prec(prec0, field<T, "opt_opd1_sign">(d));
  o1.set_shape({1, c, field<T, "opd1_h">(d), field<T, "opd1_w">(d)});
  o1.lay = layout::compact;
  o1.is_const = field<T, "opt_opd1_const">(d) != 0;
  opd o2;
  o2.address = field<T, "opd2_addr">(d);
  o2.type = dtype_from_prec(prec0, field<T, "opt_opd2_sign">(d));
  o2.set_shape({1, c, 1, 1});
  o2.lay = layout::compact;
  o2.is_const = field<T, "opt_opd2_const">(d) != 0;
  opd o3;
  o3.address = field<T, "opd3_addr">(d);
  o3.type = o0.type;
  o3.set_shape({1, c, 1, 2});
  o3.lay = layout::compact;
  o3.is_const = field<T, "opt_opd3_const">(d) != 0;
  // opd5 (requant) is TGCR-addressed: left out.
  cv.add_op(o0);
  if (eu == 0) {
    cv.add_op(o1);
    cv.add_op(o2);
  } else if (eu == 1) {
    cv.add_op(o1);
  } else if (eu == 5 || eu == 6) {
    cv.add_op(o1);
    cv.add_op(o2);
  } else if (eu != 3 && eu != 4) {
    cv.add_op(o2);
  }
  if (eu != 0 && eu != 1 && eu != 3 && eu != 4) {
    o3.set_shape({1, c, 1, 4});
    o3.type = dtype::ui16;
  }
  cv.add_op(o3);
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_scw_sbc(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = field<T, "res0_n">(d), c = field<T, "res0_c">(d), h = field<T, "res0_h">(d),
             w = field<T, "res0_w">(d);
  const dtype t = dtype_from_code(field<T, "opt_res0_prec">(d));
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = t;
  o0.lay = layout::align_eu;
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = t;
  r0.set_shape({n, c, h, w});
  r0.lay = layout::align_eu;
  if (eu == 0 || eu == 1) {
    o0.set_shape({n, w, h, c});
    if (eu == 0) o0.lay = layout::align_line;
  } else {
    o0.set_shape({n, eu == 3 ? 1 : c, h, w});
    if (eu == 4) r0.set_shape({1, c, 1, w});
    if (eu == 5) {
      r0.set_shape({1, c, 1, 1});
      r0.lay = layout::compact;
    }
  }
  cv.add_op(o0);
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_srqdq(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = field<T, "res0_n">(d), c = field<T, "res0_c">(d), h = field<T, "res0_h">(d),
             w = field<T, "res0_w">(d);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = dtype_from_prec(field<T, "opt_opd0_prec">(d), field<T, "opt_opd0_sign">(d));
  o0.set_shape({n, c, h, w});
  o0.lay = layout::align_eu;
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = dtype_from_prec(field<T, "opt_res0_prec">(d), field<T, "opt_opd2_sign">(d));
  r0.set_shape({n, c, h, w});
  r0.lay = layout::align_eu;
  opd o1;
  o1.address = field<T, "opd1_addr">(d);
  o1.is_const = field<T, "opt_opd1_const">(d) != 0;
  o1.lay = layout::compact;
  o1.set_shape({1, c, 1, 1});
  const auto a2 = field<T, "opd2_addr">(d);
  cv.add_op(o0);
  opd o2 = o1, o3 = o1;
  o2.address = o1.address + 4;
  switch (eu) {
    case 0:  // rq_0
      o1.type = o2.type = dtype::f32;
      if (o1.is_const) o2.address = a2;
      cv.add_op(o1);
      cv.add_op(o2);
      break;
    case 1:  // rq_1
      o1.type = o2.type = o3.type = dtype::si32;
      o3.address = o2.address + 4;
      if (o1.is_const) {
        o2.address = a2;
        o2.type = dtype::si8;
        o3.address = a2 >> 8;
        o3.type = dtype::si16;
      }
      cv.add_op(o1);
      cv.add_op(o2);
      cv.add_op(o3);
      break;
    case 3:  // dq_0
      o1.type = dtype::si16;
      o2.type = dtype::f32;
      if (o1.is_const) o2.address = a2;
      cv.add_op(o1);
      cv.add_op(o2);
      break;
    case 4:  // dq_1
      o1.type = dtype::si32;
      o2.type = o3.type = dtype::si8;
      o3.address = o2.address + 4;
      if (o1.is_const) {
        o1.type = dtype_from_prec(3, field<T, "opt_opd0_sign">(d));
        o2.address = a2 >> 16;
        o2.type = dtype::si16;
        o3.address = a2;
        o3.type = dtype::si8;
        cv.add_op(o1);
        cv.add_op(o3);
        cv.add_op(o2);
      } else {
        cv.add_op(o1);
        cv.add_op(o2);
        cv.add_op(o3);
      }
      break;
    default:
      cv.supported = false;
      break;
  }
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_ssg(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = field<T, "res0_n">(d), c = field<T, "res0_c">(d), h = field<T, "res0_h">(d),
             w = field<T, "res0_w">(d);
  const auto str0 = field<T, "short_opd0_str">(d);
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = dtype_from_code(field<T, "opt_opd0_prec">(d));
  o0.lay = layout_from_code(str0);
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = dtype_from_code(field<T, "opt_res0_prec">(d));
  r0.set_shape({n, c, h, w});
  r0.lay = layout::align_eu;
  opd o1;
  o1.address = field<T, "opd0_addr">(d);  // the vendor reads the index address from opd0_addr
  o1.type = dtype_from_prec(field<T, "opt_opd1_prec">(d), 0);
  o1.lay = layout::align_eu;
  opd r1;
  r1.address = field<T, "res1_addr">(d);
  r1.type = dtype::si16;
  r1.set_shape({n, c, 1, 1});
  r1.lay = layout::compact;
  const auto w0 = field<T, "opd0_w">(d), h0 = field<T, "opd0_h">(d);
  bool two_ops = true, two_res = false;
  switch (eu) {
    case 0:
    case 3:
      o0.set_shape({n, c, 1, w0});
      o1.set_shape({1, field<T, "opd1_c">(d), 1, 1});
      o1.lay = layout::compact;
      break;
    case 1:
    case 4:
      o0.set_shape({n, c, h0, w0});
      o1.set_shape({1, field<T, "opd1_c">(d), 1, 1});
      o1.lay = layout::compact;
      break;
    case 5:
    case 6:
    case 13:
    case 14:
      o0.set_shape({1, c, h0, w0});
      if (str0 != 0) o0.lay = layout::t4;
      o1.set_shape({n, c, 1, field<T, "opd1_w">(d)});
      break;
    case 8:
    case 15:
      o0.set_shape({1, c, 1, w0});
      if (str0 != 0) o0.lay = layout::t4;
      o1.set_shape({n, c, 1, field<T, "opd1_w">(d)});
      two_res = true;
      break;
    case 9:
    case 16:
      o0.set_shape({n, c, 1, w0});
      two_ops = false;
      two_res = true;
      break;
    default:
      cv.supported = false;
      return cv;
  }
  cv.add_op(o0);
  if (two_ops) cv.add_op(o1);
  cv.add_res(r0);
  if (two_res) cv.add_res(r1);
  return cv;
}

template <const reg_table& T, class Cv = converted>
constexpr Cv conv_ssgl(bytes d, unsigned eu) noexcept {
  Cv cv;
  const auto n = field<T, "res0_n">(d), c = field<T, "res0_c">(d), h = field<T, "res0_h">(d),
             w = field<T, "res0_w">(d);
  const dtype t = dtype_from_code(field<T, "opt_res0_prec">(d));
  opd o0;
  o0.address = field<T, "opd0_addr">(d);
  o0.type = t;
  o0.set_shape({1, c, field<T, "opd0_h">(d), w});
  // The vendor tests `short_short_opd0_str`, a field no form has (it raises):
  // the form's short_opd0_str is read instead.
  o0.lay = field<T, "short_opd0_str">(d) == 3 ? layout::align_line : layout::t4;
  opd r0;
  r0.address = field<T, "res0_addr">(d);
  r0.type = t;
  r0.set_shape({n, c, h, w});
  r0.lay = layout::align_line;
  opd o1;
  o1.address = field<T, "opd0_addr">(d);
  o1.type = dtype_from_prec(field<T, "opt_opd1_prec">(d), 0);
  o1.lay = layout::compact;
  o1.set_shape({n, c, eu == 17 ? h : field<T, "opd0_h">(d), 1});
  cv.add_op(o0);
  cv.add_op(o1);
  cv.add_res(r0);
  return cv;
}

// ---------------------------------------------------------------- DMA converters

constexpr std::uint64_t dma_addr(std::uint64_t h, std::uint64_t l) noexcept {
  std::uint64_t a = (h << 32) + l;
  if (((a >> 40) & 0x1F) == 0) a |= std::uint64_t{1} << 40;  // the vendor's workaround
  return a;
}

template <const reg_table& T>
constexpr opd dma_const(bytes d) noexcept {
  opd o;
  o.is_const = true;
  o.dma = true;
  o.address = field<T, "constant_value">(d);
  o.type = dtype_from_code(field<T, "src_data_format">(d));
  return o;
}

template <const reg_table& T>
constexpr std::uint64_t lane_mask(bytes d) noexcept {
  return field<T, "localmem_mask_h32">(d) << 32 | field<T, "localmem_mask_l32">(d);
}

/// dma_reg_fmt_base: source and destination tensors of DMA_tensor / DMA_matrix.
template <const reg_table& T>
constexpr std::pair<opd, opd> dma_base(bytes d) noexcept {
  const dtype t = dtype_from_code(field<T, "src_data_format">(d));
  const auto mask = lane_mask<T>(d);
  opd o0;
  o0.dma = true;
  o0.address = dma_addr(field<T, "src_start_addr_h13">(d), field<T, "src_start_addr_l32">(d));
  o0.type = t;
  o0.set_shape({field<T, "src_nsize">(d), field<T, "src_csize">(d), field<T, "src_hsize">(d),
                field<T, "src_wsize">(d)});
  o0.set_stride({static_cast<std::int64_t>(field<T, "src_nstride">(d)),
                 static_cast<std::int64_t>(field<T, "src_cstride">(d)),
                 static_cast<std::int64_t>(field<T, "src_hstride">(d)),
                 static_cast<std::int64_t>(field<T, "src_wstride">(d))});
  o0.lay = layout::dma_stride;
  o0.mask = mask;
  opd r0;
  r0.dma = true;
  r0.address = dma_addr(field<T, "dst_start_addr_h13">(d), field<T, "dst_start_addr_l32">(d));
  r0.type = t;
  r0.set_shape({field<T, "dst_nsize">(d), field<T, "dst_csize">(d), field<T, "dst_hsize">(d),
                field<T, "dst_wsize">(d)});
  r0.set_stride({static_cast<std::int64_t>(field<T, "dst_nstride">(d)),
                 static_cast<std::int64_t>(field<T, "dst_cstride">(d)),
                 static_cast<std::int64_t>(field<T, "dst_hstride">(d)),
                 static_cast<std::int64_t>(field<T, "dst_wstride">(d))});
  r0.lay = layout::dma_stride;
  r0.mask = mask;
  if (field<T, "nchw_copy">(d)) {
    r0.shape = o0.shape;
    r0.rank = o0.rank;
  }
  if (field<T, "fill_constant_en">(d)) o0 = dma_const<T>(d);
  return {o0, r0};
}

template <const reg_table& T>
constexpr converted conv_dma_tensor(bytes d, unsigned sf) noexcept {
  converted cv;
  auto [o0, r0] = dma_base<T>(d);
  if (sf == 3) {  // broadcast
    r0.shape[1] = field<T, "src_csize">(d);
  } else if (sf == 1 && !o0.is_const) {  // transpose
    r0.set_shape({o0.shape[1], o0.shape[0], o0.shape[2], o0.shape[3]});
  }
  if (sf != 0) {
    if (!o0.is_const) o0.stride[3] = 1;
    r0.stride[3] = 1;
  }
  if (sf == 3) {
    if (!o0.is_const) o0.lay = layout::stride;
    r0.lay = layout::stride;
  }
  cv.add_op(o0);
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T>
constexpr converted conv_dma_matrix(bytes d, unsigned sf) noexcept {
  converted cv;
  auto [o0, r0] = dma_base<T>(d);
  const bool trans = sf == 1;
  const bool src_local = !o0.is_const && dma_kind_of(o0.address) == mem_kind::local &&
                         field<T, "fill_constant_en">(d) == 0;
  if (src_local) {
    const auto H = r0.shape[2], W = r0.shape[3];
    r0.set_shape({1, 1, H, W});
    r0.set_stride({0, 0, r0.stride[2], 1});
    if (trans)
      o0.set_shape({W, H});
    else
      o0.set_shape({H, W});
    o0.lay = layout::dma_matrix;
    o0.w = static_cast<std::uint32_t>(field<T, "src_wsize">(d));
    o0.set_stride({o0.stride[0], o0.stride[1], 0, 1});
  } else {
    if (!o0.is_const) {
      const auto H = o0.shape[2], W = o0.shape[3];
      o0.set_shape({1, 1, H, W});
      o0.set_stride({0, 0, o0.stride[2], 1});
      if (trans)
        r0.set_shape({W, H});
      else
        r0.set_shape({H, W});
    }
    r0.set_stride({r0.stride[0], r0.stride[1], 0, 1});
    r0.lay = layout::dma_matrix;
    r0.w = static_cast<std::uint32_t>(field<T, "dst_wsize">(d));
  }
  cv.add_op(o0);
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T>
constexpr converted conv_dma_general(bytes d, unsigned sf) noexcept {
  converted cv;
  const dtype t = dtype_from_code(field<T, "src_data_format">(d));
  const auto len = field_or<T, "src_cstride(move length)", "src_cstride">(d);
  opd o0;
  o0.dma = true;
  o0.address = dma_addr(field<T, "src_start_addr_h13">(d), field<T, "src_start_addr_l32">(d));
  o0.type = t;
  o0.set_shape({len});
  o0.set_stride({1});
  o0.lay = layout::dma_linear;
  opd r0 = o0;
  r0.address = dma_addr(field<T, "dst_start_addr_h13">(d), field<T, "dst_start_addr_l32">(d));
  if (field<T, "fill_constant_en">(d)) o0 = dma_const<T>(d);
  if (sf == 1) {
    r0.set_shape({field<T, "dst_csize">(d), len});
    r0.set_stride({lane_size, 1});
  }
  cv.add_op(o0);
  cv.add_res(r0);
  return cv;
}

/// Masked select, nonzero, reverse, cw transpose: plain source and destination.
template <const reg_table& T>
constexpr converted conv_dma_nchw(bytes d, unsigned type) noexcept {
  converted cv;
  const dtype t = dtype_from_code(field<T, "src_data_format">(d));
  const auto n = field<T, "src_nsize">(d), c = field<T, "src_csize">(d),
             h = field_or<T, "src_hsize", "src_hsize/src_wsize_high">(d),
             w = field<T, "src_wsize">(d);
  opd o0;
  o0.dma = true;
  o0.address = dma_addr(field<T, "src_start_addr_h13">(d), field<T, "src_start_addr_l32">(d));
  o0.type = t;
  o0.set_shape({n, c, h, w});
  opd r0 = o0;
  r0.address = dma_addr(field<T, "dst_start_addr_h13">(d), field<T, "dst_start_addr_l32">(d));
  const auto chw = static_cast<std::int64_t>(c * h * w), hw = static_cast<std::int64_t>(h * w);
  switch (type) {
    case 2: {  // masked select
      o0.lay = layout::align_eu;
      r0.lay = layout::none;
      r0.set_stride({chw, hw, static_cast<std::int64_t>(w)});
      opd o1 = o0;
      o1.address = dma_addr(field<T, "mask_start_addr_h8">(d), field<T, "mask_start_addr_l32">(d));
      o1.type = dtype_from_code(field<T, "mask_data_format">(d));
      cv.add_op(o0);
      cv.add_op(o1);
      cv.add_res(r0);
      return cv;
    }
    case 4: {  // cw transpose
      o0.lay = r0.lay = layout::dma_stride;
      o0.mask = r0.mask = lane_mask<T>(d);
      o0.set_stride({static_cast<std::int64_t>(field<T, "src_nstride">(d)),
                     static_cast<std::int64_t>(field<T, "src_cstride">(d)),
                     static_cast<std::int64_t>(field<T, "src_hstride">(d)), 1});
      r0.set_shape({n, w, h, c});
      r0.set_stride({static_cast<std::int64_t>(field<T, "dst_nstride">(d)),
                     static_cast<std::int64_t>(field<T, "dst_cstride">(d)),
                     static_cast<std::int64_t>(field<T, "dst_hstride">(d)), 1});
      if (field<T, "fill_constant_en">(d)) o0 = dma_const<T>(d);
      break;
    }
    default:  // nonzero, reverse
      o0.lay = r0.lay = layout::align_eu;
      o0.set_stride({chw, hw, static_cast<std::int64_t>(w), 1});
      r0.set_stride({chw, hw, static_cast<std::int64_t>(w), 1});
      r0.set_shape({n, h, w, c});
      break;
  }
  cv.add_op(o0);
  cv.add_res(r0);
  return cv;
}

template <const reg_table& T>
constexpr converted conv_dma_gather(bytes d) noexcept {
  converted cv;
  const dtype t = dtype_from_code(field<T, "src_data_format">(d));
  const auto c = field<T, "src_csize">(d), h = field<T, "src_hsize">(d),
             w = field<T, "src_wsize">(d);
  const auto dh = field<T, "nchw_copy">(d) ? h : field<T, "dst_hsize">(d);
  const auto ic = field<T, "index_csize">(d);
  opd o0;
  o0.dma = true;
  o0.address = dma_addr(field<T, "src_start_addr_h13">(d), field<T, "src_start_addr_l32">(d));
  o0.type = t;
  o0.set_shape({1, c, h, w});
  o0.set_stride({0, static_cast<std::int64_t>(field<T, "src_cstride">(d)),
                 static_cast<std::int64_t>(field<T, "src_hstride">(d)), 1});
  o0.lay = layout::stride;
  opd r0;
  r0.dma = true;
  r0.address = dma_addr(field<T, "dst_start_addr_h13">(d), field<T, "dst_start_addr_l32">(d));
  r0.type = t;
  r0.set_shape({1, c > ic ? c : ic, dh, w});
  r0.set_stride({0, static_cast<std::int64_t>(field<T, "dst_cstride">(d)),
                 static_cast<std::int64_t>(field<T, "dst_hstride">(d)), 1});
  r0.lay = layout::dma_stride;
  r0.mask = lane_mask<T>(d);
  opd o1;
  o1.dma = true;
  o1.address = dma_addr(field<T, "index_start_addr_h13">(d), field<T, "index_start_addr_l32">(d));
  o1.type = dtype::ui32;
  o1.set_shape({1, ic, dh, 1});
  o1.set_stride({0, static_cast<std::int64_t>(field<T, "index_cstride">(d)), 1, 1});
  o1.lay = layout::stride;
  cv.add_op(o0);
  cv.add_op(o1);
  cv.add_res(r0);
  return cv;
}

// ---------------------------------------------------------------- values and memory

/// tpu-mlir MemRef: memory kind from the address; local operands get their
/// stride from the layout (memmap.local_layout_to_stride).
inline tensor_ref make_value(const opd& o) {
  tensor_ref t;
  t.type = o.type;
  if (o.is_const) {
    t.kind = mem_kind::constant;
    t.address = o.address;
    return t;
  }
  t.address = o.address;
  t.kind = o.dma ? dma_kind_of(o.address) : mem_kind::local;
  t.lay = o.lay;
  t.rank = o.rank;
  t.shape = o.shape;
  t.stride_rank = o.srank;
  t.stride = o.stride;
  t.lane_mask = o.mask;
  t.layout_w = o.w;
  if (t.kind != mem_kind::local || t.lay == layout::stride) return t;
  const i128 bits = bit_size(t.type);
  const i128 off = static_cast<i128>(t.address & 0x3FFFFFF) / lane_size;
  const bool four = t.rank == 4;
  const i128 c = t.shape[1], h = t.shape[2], w = t.shape[3];
  const i128 eu = bits > 0 ? eu_base * 8 / bits : 0;
  auto set = [&](i128 a, i128 b, i128 cc, i128 dd) {
    t.stride_rank = 4;
    t.stride = {sat64(a), sat64(b), sat64(cc), sat64(dd)};
  };
  switch (t.lay) {
    case layout::align_eu:
      if (four && eu) {
        const i128 cs = align_up(w * h, eu);
        set(div_up(c + off, npu_num) * cs, cs, w, 1);
      }
      break;
    case layout::compact:
      if (four) set(div_up(c + off, npu_num) * w * h, w * h, w, 1);
      break;
    case layout::offset:
      set(0, 1, 0, 0);
      break;
    case layout::align_line:
      if (four && eu) {
        const i128 hs = align_up(w, eu);
        set(h * hs * div_up(c + off, npu_num), h * hs, hs, 1);
      }
      break;
    case layout::t4:
      if (four && eu) set(0, 0, align_up(w, eu), 1);
      break;
    case layout::t5:
      if (four && eu && bits) set(lane_size / bits, align_up(w, eu), w, 1);
      break;
    case layout::dma_stride:
      if (t.lane_mask == ~std::uint64_t{0}) t.lay = layout::stride;
      break;
    default:
      break;
  }
  return t;
}

/// One memory range: device address and covered size outside local memory;
/// inside local memory the offset in one lane and the size covered in that
/// lane (channels per lane = ceil((c + first lane) / 64)), as for BM1684X.
inline mem_operand mem_record(const tensor_ref& t, bool write, std::uint8_t index) {
  mem_operand m;
  m.kind = t.kind;
  m.write = write;
  m.index = index;
  const i128 bits = bit_size(t.type);
  auto bytes_of = [&](i128 elems) { return clamp_size((elems * bits + 7) / 8); };
  i128 elems = 1;
  if (t.stride_rank) {
    for (unsigned i = 0; i < t.rank && i < t.stride_rank; ++i)
      elems += (static_cast<i128>(t.shape[i]) - 1) * static_cast<i128>(t.stride[i]);
  } else {
    for (unsigned i = 0; i < t.rank; ++i) elems *= static_cast<i128>(t.shape[i]);
  }
  m.data_size = bytes_of(elems);
  if (t.kind != mem_kind::local) {
    m.address = t.address;
    m.size = m.data_size;
    return m;
  }
  const i128 raddr = static_cast<i128>(t.address & 0x3FFFFFF);
  m.address = static_cast<std::uint64_t>(raddr % lane_size);
  const i128 off = raddr / lane_size;
  std::array<i128, 4> dd{1, 1, 1, 1};
  for (unsigned i = 0; i < t.rank && i < 4; ++i) dd[i] = static_cast<i128>(t.shape[i]);
  const i128 n = dd[0], c = dd[1], h = dd[2], w = dd[3];
  auto cnum = [&](i128 x) { return div_up(x + off, npu_num); };
  const i128 eu = bits > 0 ? eu_base * 8 / bits : 1;
  std::array<i128, 4> ls{n, cnum(c), h, w}, lst{};
  unsigned lsrank = 4;
  auto eu_stride = [&](i128 cc, i128 hh, i128 ww) {
    const i128 cs = align_up(ww * hh, eu);
    lst = {cnum(cc) * cs, cs, ww, 1};
  };
  switch (t.lay) {
    case layout::align_ic: {
      const i128 cube = cube_num(t.type, family::aks);
      ls = {1, cnum(n < npu_num ? n : npu_num), 1, div_up(n, npu_num) * h * w * align_up(c, cube)};
      eu_stride(n < npu_num ? n : npu_num, 1, ls[3]);
      break;
    }
    case layout::matrix: {
      const i128 mw = t.layout_w, cols = mw > 0 ? div_up(c, mw) : 0;
      ls = {n, cnum(cols), 1, mw};
      eu_stride(cols, 1, mw);
      break;
    }
    case layout::matrix2:
      ls = {1, cnum(n), 1, c};
      eu_stride(n, 1, c);
      break;
    case layout::dma_matrix: {
      const i128 mw = t.layout_w;
      ls = {n, cnum(mw > 0 ? div_up(c, mw) : 0), 1, mw};
      lsrank = t.stride_rank;
      for (unsigned i = 0; i < 4; ++i) lst[i] = t.stride[i];
      break;
    }
    case layout::dma_linear:
      m.size = m.data_size;
      return m;
    default:
      lsrank = t.stride_rank;
      for (unsigned i = 0; i < 4; ++i) lst[i] = t.stride[i];
      break;
  }
  if (lsrank == 0) {
    m.size = m.data_size;
    return m;
  }
  i128 s = 1;
  for (unsigned i = 0; i < 4 && i < lsrank; ++i) s += (ls[i] - 1) * lst[i];
  m.size = bytes_of(s);
  return m;
}

// ---------------------------------------------------------------- ops (opdef.py)

/// Converted operands (`converted` or `op_summary`) plus the register scalars
/// the ops formulas read.
template <class Cv = converted>
struct tiu_facts {
  Cv cv;
  std::uint64_t kh = 0, kw = 0;  ///< kernel (MM: k and n; MM2: opd1_w and opd1_c)
  std::uint64_t aux = 0;         ///< MM: m; SFU: opd1_n (table length)
  std::uint64_t rc = 0, rw = 0;  ///< res0_c, res0_w (MM, MM2)
};

/// Alg (arch = false) or arch ops of a TIU command (opdef.py); nullopt where
/// the vendor raises or has no value.
template <class Cv>
std::optional<std::int64_t> tiu_ops(family f, unsigned type, unsigned eu, const tiu_facts<Cv>& tf,
                                    bool arch) {
  const Cv& cv = tf.cv;
  switch (type) {
    case 12:
    case 15:
      return 1;  // SYS_TR_ACC, SYS
    case 7:
    case 8:
      return 0;  // LAR, RAND: the vendor returns 0
    case 0:
      if (eu == 1 || eu == 4) return 0;  // CONV_BW: 0 in the vendor
      break;
    default:
      break;
  }
  if (!cv.supported || cv.nres == 0) return std::nullopt;
  const auto& res = cv.res[0];
  auto s = [](const auto& t, unsigned i) -> i128 {
    return i < t.rank ? static_cast<i128>(t.shape[i]) : 0;
  };
  const i128 n = s(res, 0), c = s(res, 1), h = s(res, 2), w = s(res, 3);
  const i128 kh = static_cast<i128>(tf.kh), kw = static_cast<i128>(tf.kw);
  // Operand 0's dtype decides the EU count (the vendor raises without operands).
  const bool need_op0 = arch || type == 0 || type == 9;
  if (need_op0 && cv.nops == 0) return std::nullopt;
  const dtype t0 = cv.nops ? cv.ops[0].type : dtype::unknown;
  const i128 eun = eu_num(t0, f);
  if (arch && eun == 0 && type != 2 && type != 14) return std::nullopt;
  i128 v = 0;
  switch (type) {
    case 0: {  // CONV: biasLat from opt_opd2_const
      const i128 bias = cv.nops > 2 && cv.ops[2].is_const ? 1 : 0;
      i128 ic = s(cv.ops[0], 1), oc = c, oh = h, ow = w;
      if (arch) {
        i128 act = cube_ohow_align;
        if (t0 == dtype::f32) {
          act = eun;
        } else {
          const i128 cube = cube_num(t0, f);
          if (cube == 0) return std::nullopt;
          ic = align_up(ic, cube);
        }
        ow = align_up(oh * ow, act);
        oh = 1;
        oc = align_up(oc, npu_num);
      }
      v = n * oc * oh * ow * (2 * ic * kh * kw - 1 + bias);
      break;
    }
    case 1: {  // PorD: avg/max/depthwise x2; everything else counts as roi (x7, 1x1)
      i128 kkh = kh, kkw = kw, factor = 2;
      if (eu != 0 && eu != 1 && eu != 4) {
        kkh = kkw = 1;
        factor = 7;
      }
      i128 cc = c, hh = h, ww = w;
      if (arch) {
        cc = align_up(c, npu_num);
        ww = align_up(h * w, eun);
        hh = 1;
      }
      v = n * cc * hh * ww * (factor * kkh * kkw - 1);
      break;
    }
    case 2: {
      if (eu == 1) {  // MM: has_bias is always true (three operands)
        i128 nn = kw;
        if (arch) {
          if (eun == 0) return std::nullopt;
          nn =
              align_up(static_cast<i128>(tf.rc), npu_num) * align_up(static_cast<i128>(tf.rw), eun);
        }
        v = static_cast<i128>(tf.aux) * nn * (2 * kh - 1 + (cv.nops > 2 ? 1 : 0));
        break;
      }
      // MM2: m = res0_c, k = opd1_w, n = opd1_c; tt takes (k, m, k) as the vendor does
      i128 m = static_cast<i128>(tf.rc), k = kh, nn = kw;
      if (eu == 5) {
        std::swap(k, nn);
      } else if (eu == 6) {
        const i128 om = m, ok = k;
        m = ok;
        k = om;
        nn = ok;
      }
      if (arch) {
        const i128 ch = eu_num(res.type, f);
        if (ch == 0) return std::nullopt;
        k = align_up(k, cube_ohow_align);
        m = align_up(m, npu_num);
        nn = align_up(nn, ch);
      }
      v = m * nn * k * 2;
      break;
    }
    case 3:
    case 4:
    case 13: {  // AR (div x5), RQ/DQ (x3), CMP (x2): n * c * (h*w)
      const i128 factor = type == 4 ? 3 : type == 13 ? 2 : (eu == 12 ? 5 : 1);
      i128 cc = c, hw = h * w;
      if (arch) {
        cc = align_up(c, npu_num);
        hw = align_up(h * w, eun);
      }
      v = n * cc * hw * factor;
      break;
    }
    case 5: {  // CW&BC
      i128 cc = c, hw = h * w;
      if (arch) {
        cc = align_up(c, npu_num);
        hw = eu >= 2 ? align_up(h * w, eun) : h * align_up(w, eun);
      }
      v = n * cc * hw;
      break;
    }
    case 6:
    case 10: {  // SG/SGL (x1), LIN (x2): w aligned alone
      const i128 factor = type == 10 ? 2 : 1;
      i128 cc = c, ww = w;
      if (arch) {
        cc = align_up(c, npu_num);
        ww = align_up(w, eun);
      }
      v = n * cc * h * ww * factor;
      break;
    }
    case 9: {  // SFU: shape of operand 0
      const auto& o0 = cv.ops[0];
      const i128 on = s(o0, 0), oc = s(o0, 1), oh = s(o0, 2), ow = s(o0, 3);
      i128 factor = 1;
      if (eu == 12 || eu == 13)
        factor = 2 * static_cast<i128>(tf.aux) - 1;
      else if (eu == 17)
        factor = 30;
      i128 cc = oc, hw = oh * ow;
      if (arch) {
        cc = align_up(oc, npu_num);
        hw = align_up(oh * ow, eun);
      }
      v = static_cast<i128>(cv.nres) * on * cc * hw * factor;
      break;
    }
    case 14: {  // VC: EUs per lane over the widest of opd0, opd1, res0
      i128 cc = c, ww = w;
      if (arch) {
        if (cv.nops < 2) return std::nullopt;
        i128 maxb = 0;
        for (dtype t : {cv.ops[0].type, cv.ops[1].type, res.type}) {
          const i128 b = (bit_size(t) + 7) / 8;
          if (b == 0) return std::nullopt;
          maxb = b > maxb ? b : maxb;
        }
        cc = align_up(c, npu_num);
        ww = align_up(w, per_lane_eu / maxb);
      }
      v = n * cc * h * ww;
      break;
    }
    default:
      return std::nullopt;
  }
  return sat64(v);
}

// ---------------------------------------------------------------- dispatch

/// The TIU form of a header for a family; nullptr when there is none.
constexpr const reg_table* tiu_table(family f, unsigned type, unsigned eu,
                                     bool short_form) noexcept {
  if (f == family::aks) {
    namespace R = regs::aks;
    switch (type) {
      case 0:
        if (eu == 1 || eu == 4) return short_form ? &R::s_conv_bw : &R::conv_bw;
        return short_form ? &R::s_conv : &R::conv;
      case 1:
        return short_form ? &R::s_pord : &R::pord;
      case 2:
        if (eu >= 4) return short_form ? &R::s_mm2 : &R::mm2;
        return short_form ? &R::s_mm : &R::mm;
      case 3:
        return short_form ? &R::s_ar : &R::ar;
      case 4:
        return short_form ? &R::s_rq_sdq : &R::rq_dq;
      case 5:
        return short_form ? &R::s_cw_sbc : &R::cw_bc;
      case 6:
        if (eu >= 17) return short_form ? &R::s_sgl : &R::sgl;
        return short_form ? &R::s_sg : &R::sg;
      case 7:
        return &R::lar;
      case 8:
        return &R::rand;
      case 9:
        return short_form ? &R::s_sfu : &R::sfu;
      case 10:
        return short_form ? &R::s_lin : &R::lin;
      case 12:
        return &R::sys_tr_acc;
      case 13:
        return short_form ? &R::s_cmp : &R::cmp;
      case 14:
        return short_form ? &R::s_vc : &R::vc;
      case 15:
        return &R::sys;
      default:
        return nullptr;
    }
  }
  namespace V = regs::aksv;
  if (!short_form && type != 8 && type != 12 && type != 15) return nullptr;
  switch (type) {
    case 0:
      return eu == 1 || eu == 4 ? &V::s_conv_bw : &V::s_conv;
    case 1:
      return eu >= 5 ? &V::s_pord_roi : &V::s_pord;
    case 2:
      return eu >= 4 ? &V::s_mm2 : &V::s_mm;
    case 3:
      return eu == 14 ? &V::s_ar_cvt : &V::s_ar;
    case 4:
      return &V::s_rqdq;
    case 5:
      return &V::s_bc_cwt;
    case 6:
      return eu >= 17 ? &V::s_sgl : &V::s_sg;
    case 8:
      return &V::s_rand;
    case 9:
      return &V::s_sfu;
    case 10:
      return &V::s_lin;
    case 12:
      return &V::sys_tr_wr;
    case 13:
      return &V::s_cmp;
    case 14:
      return &V::s_vc;
    case 15:
      return &V::s_sys;
    default:
      return nullptr;
  }
}

constexpr const reg_table* dma_table(family f, unsigned type) noexcept {
  if (f == family::aks) {
    namespace R = regs::aks;
    switch (type) {
      case 0:
        return &R::dma_tensor;
      case 1:
        return &R::dma_matrix;
      case 2:
        return &R::dma_masked_select;
      case 3:
        return &R::dma_general;
      case 4:
        return &R::dma_cw_transpose;
      case 5:
        return &R::dma_nonzero;
      case 6:
        return &R::s_dma_sys;
      case 7:
        return &R::dma_gather;
      case 8:
        return &R::dma_scatter;
      case 9:
        return &R::dma_reverse;
      case 10:
        return &R::dma_compress;
      case 11:
        return &R::dma_decompress;
      case 12:
        return &R::dma_lossy_compress;
      case 13:
        return &R::dma_lossy_decompress;
      case 15:
        return &R::dma_randmask;
      case 16:
        return &R::dma_tansfer;
      default:
        return nullptr;
    }
  }
  namespace V = regs::aksv;
  switch (type) {
    case 0:
      return &V::dma_tensor;
    case 1:
      return &V::dma_matrix;
    case 2:
      return &V::dma_mask_select;
    case 3:
      return &V::dma_general;
    case 5:
      return &V::dma_nonzero;
    case 6:
      return &V::dma_sys;
    case 7:
    case 8:
      return &V::dma_gather_scatter;
    case 9:
      return &V::dma_reverse;
    case 12:
      return &V::dma_lossy_compress;
    default:
      return nullptr;
  }
}

/// Runs the converter of form T (short TIU forms' converters serve the long
/// forms too, which the vendor leaves without one).
template <const reg_table& T, class Cv>
constexpr Cv convert_tiu_form(unsigned type, unsigned eu, bytes d) noexcept {
  switch (type) {
    case 0:
      return conv_sconv<T, Cv>(d, eu);
    case 1:
      return conv_spord<T, Cv>(d, eu);
    case 2:
      return eu >= 4 ? conv_smm2<T, Cv>(d, eu) : conv_smm<T, Cv>(d);
    case 3:
      return conv_sar<T, Cv>(d, eu);
    case 4:
      return conv_srqdq<T, Cv>(d, eu);
    case 5:
      return conv_scw_sbc<T, Cv>(d, eu);
    case 6:
      return eu >= 17 ? conv_ssgl<T, Cv>(d, eu) : conv_ssg<T, Cv>(d, eu);
    case 9:
      return conv_ssfu<T, Cv>(d, eu);
    case 10:
      return conv_slin<T, Cv>(d, eu);
    case 13:
      return conv_scmp<T, Cv>(d, eu);
    case 14:
      return conv_svc<T, Cv>(d);
    default:
      return Cv{};  // SYS, SYS_TR_ACC, LAR, RAND: no operands
  }
}

template <const reg_table& T, class Cv>
constexpr tiu_facts<Cv> tiu_facts_of(unsigned type, unsigned eu, bytes d) noexcept {
  tiu_facts<Cv> t{convert_tiu_form<T, Cv>(type, eu, d)};
  if (type == 2 && eu == 1) {  // MM: k and n from the registers, m = opd0_n
    std::uint64_t m = field<T, "opd0_n">(d);
    std::uint64_t k = field<T, "opd0_w">(d) * (field<T, "opd0_c">(d) - 1) + field<T, "opd0_w">(d);
    if (field<T, "opt_left_tran">(d)) std::swap(k, m);
    t.aux = m;
    t.kh = k;
    t.kw = field<T, "res0_w">(d) * (field<T, "res0_c">(d) - 1) + field<T, "res0_w">(d);
    t.rc = field<T, "res0_c">(d);
    t.rw = field<T, "res0_w">(d);
  } else if (type == 2) {  // MM2: k = opd1_w, n = opd1_c
    t.kh = field<T, "opd1_w">(d);
    t.kw = field<T, "opd1_c">(d);
    t.rc = field<T, "res0_c">(d);
    t.rw = field<T, "res0_w">(d);
  } else {
    t.kh = field<T, "opd1_h">(d);
    t.kw = field<T, "opd1_w">(d);
    t.aux = field<T, "opd1_n">(d);
  }
  return t;
}

#define TPUPROF_AKS_FORM(ns, name) \
  if (table == &ns::name) return fn.template operator()<ns::name>();

/// Calls `fn.template operator()<T>()` with the TIU form `table` points to, so
/// every form gets its own compile-time field offsets (and its own, well
/// predicted, branches); `fallback()` for forms without operands (SYS,
/// SYS_TR_ACC, LAR, RAND).
template <class Fn, class Fallback>
decltype(auto) with_tiu_form(const reg_table* table, Fn&& fn, Fallback&& fallback) {
  namespace R = regs::aks;
  namespace V = regs::aksv;
  TPUPROF_AKS_FORM(R, s_conv)
  TPUPROF_AKS_FORM(R, conv)
  TPUPROF_AKS_FORM(R, s_conv_bw)
  TPUPROF_AKS_FORM(R, conv_bw)
  TPUPROF_AKS_FORM(R, s_pord)
  TPUPROF_AKS_FORM(R, pord)
  TPUPROF_AKS_FORM(R, s_mm)
  TPUPROF_AKS_FORM(R, mm)
  TPUPROF_AKS_FORM(R, s_mm2)
  TPUPROF_AKS_FORM(R, mm2)
  TPUPROF_AKS_FORM(R, s_ar)
  TPUPROF_AKS_FORM(R, ar)
  TPUPROF_AKS_FORM(R, s_rq_sdq)
  TPUPROF_AKS_FORM(R, rq_dq)
  TPUPROF_AKS_FORM(R, s_cw_sbc)
  TPUPROF_AKS_FORM(R, cw_bc)
  TPUPROF_AKS_FORM(R, s_sg)
  TPUPROF_AKS_FORM(R, sg)
  TPUPROF_AKS_FORM(R, s_sgl)
  TPUPROF_AKS_FORM(R, sgl)
  TPUPROF_AKS_FORM(R, s_sfu)
  TPUPROF_AKS_FORM(R, sfu)
  TPUPROF_AKS_FORM(R, s_lin)
  TPUPROF_AKS_FORM(R, lin)
  TPUPROF_AKS_FORM(R, s_cmp)
  TPUPROF_AKS_FORM(R, cmp)
  TPUPROF_AKS_FORM(R, s_vc)
  TPUPROF_AKS_FORM(R, vc)
  TPUPROF_AKS_FORM(V, s_conv)
  TPUPROF_AKS_FORM(V, s_conv_bw)
  TPUPROF_AKS_FORM(V, s_pord)
  TPUPROF_AKS_FORM(V, s_pord_roi)
  TPUPROF_AKS_FORM(V, s_mm)
  TPUPROF_AKS_FORM(V, s_mm2)
  TPUPROF_AKS_FORM(V, s_ar)
  TPUPROF_AKS_FORM(V, s_ar_cvt)
  TPUPROF_AKS_FORM(V, s_rqdq)
  TPUPROF_AKS_FORM(V, s_bc_cwt)
  TPUPROF_AKS_FORM(V, s_sg)
  TPUPROF_AKS_FORM(V, s_sgl)
  TPUPROF_AKS_FORM(V, s_sfu)
  TPUPROF_AKS_FORM(V, s_lin)
  TPUPROF_AKS_FORM(V, s_cmp)
  TPUPROF_AKS_FORM(V, s_vc)
  return fallback();
}
#undef TPUPROF_AKS_FORM

template <class Cv>
tiu_facts<Cv> tiu_facts_for(const reg_table* table, unsigned type, unsigned eu, bytes d) {
  return with_tiu_form(
      table, [&]<const reg_table & T>() { return tiu_facts_of<T, Cv>(type, eu, d); },
      [] { return tiu_facts<Cv>{}; });
}

template <const reg_table& T>
constexpr converted convert_dma_form(unsigned type, unsigned sf, bytes d) noexcept {
  switch (type) {
    case 0:
      return conv_dma_tensor<T>(d, sf);
    case 1:
      return conv_dma_matrix<T>(d, sf);
    case 3:
      return conv_dma_general<T>(d, sf);
    case 2:
    case 4:
    case 5:
    case 9:
      return conv_dma_nchw<T>(d, type);
    case 7:
    case 8:
      return conv_dma_gather<T>(d);
    default: {
      converted cv;  // sys: no operands; compress, randmask, transfer: no converter
      cv.supported = type == 6;
      return cv;
    }
  }
}

inline converted dma_convert_for(const reg_table* table, unsigned type, unsigned sf, bytes d) {
  namespace R = regs::aks;
  namespace V = regs::aksv;
  if (table == &R::dma_tensor) return convert_dma_form<R::dma_tensor>(type, sf, d);
  if (table == &R::dma_matrix) return convert_dma_form<R::dma_matrix>(type, sf, d);
  if (table == &R::dma_masked_select) return convert_dma_form<R::dma_masked_select>(type, sf, d);
  if (table == &R::dma_general) return convert_dma_form<R::dma_general>(type, sf, d);
  if (table == &R::dma_cw_transpose) return convert_dma_form<R::dma_cw_transpose>(type, sf, d);
  if (table == &R::dma_nonzero) return convert_dma_form<R::dma_nonzero>(type, sf, d);
  if (table == &R::dma_gather) return convert_dma_form<R::dma_gather>(type, sf, d);
  if (table == &R::dma_scatter) return convert_dma_form<R::dma_scatter>(type, sf, d);
  if (table == &R::dma_reverse) return convert_dma_form<R::dma_reverse>(type, sf, d);
  if (table == &V::dma_tensor) return convert_dma_form<V::dma_tensor>(type, sf, d);
  if (table == &V::dma_matrix) return convert_dma_form<V::dma_matrix>(type, sf, d);
  if (table == &V::dma_mask_select) return convert_dma_form<V::dma_mask_select>(type, sf, d);
  if (table == &V::dma_general) return convert_dma_form<V::dma_general>(type, sf, d);
  if (table == &V::dma_nonzero) return convert_dma_form<V::dma_nonzero>(type, sf, d);
  if (table == &V::dma_gather_scatter) return convert_dma_form<V::dma_gather_scatter>(type, sf, d);
  if (table == &V::dma_reverse) return convert_dma_form<V::dma_reverse>(type, sf, d);
  converted cv;
  cv.supported = type == 6;
  return cv;
}

/// Header fields of a command: engine-specific positions (TIU tsk_typ 41..44,
/// eu 45..49, or 45..47 for SYS_TR_ACC; DMA cmd_type 32..36, special function
/// 37..39; short flag bit 0 / bit 3).
struct header {
  unsigned type = 0, eu = 0;
  bool short_form = false;
};
constexpr header read_header(engine eng, bytes d) noexcept {
  header h;
  if (eng == engine::tiu) {
    h.type = static_cast<unsigned>(read_bits(d, 41, 4));
    h.eu = static_cast<unsigned>(read_bits(d, 45, h.type == 12 ? 3 : 5));
    h.short_form = read_bits(d, 0, 1) != 0;
  } else {
    h.type = static_cast<unsigned>(read_bits(d, 32, 5));
    h.eu = static_cast<unsigned>(read_bits(d, 37, 3));
    h.short_form = read_bits(d, 3, 1) != 0;
  }
  return h;
}

}  // namespace detail

/// Alg and arch ops of a TIU command, without building an instruction (the
/// per-event path of the CDM decoder). Both nullopt when unknown.
struct ops_result {
  decode_status status = decode_status::unknown_opcode;
  std::optional<std::int64_t> alg, arch;
  /// alg / arch; NaN when unknown or arch is 0.
  float uarch_rate() const noexcept { return regs::detail::ops_ratio(alg, arch); }
};

namespace detail {
template <class Cv>
ops_result ops_of_facts(family f, unsigned type, unsigned eu, const tiu_facts<Cv>& facts) {
  ops_result r;
  r.alg = tiu_ops(f, type, eu, facts, false);
  r.arch = tiu_ops(f, type, eu, facts, true);
  r.status = facts.cv.supported && r.alg && r.arch ? decode_status::ok : decode_status::unsupported;
  return r;
}
}  // namespace detail

/// Ops of the TIU command at the start of `data` (its framed bytes; fields past
/// the end read 0). Never reads past `data`; never throws.
inline ops_result tiu_ops(family f, std::span<const std::byte> data) {
  ops_result r;
  if (data.size() < 16) {
    r.status = decode_status::truncated;
    return r;
  }
  const auto h = detail::read_header(engine::tiu, data);
  const reg_table* table = detail::tiu_table(f, h.type, h.eu, h.short_form);
  if (!table) return r;
  return detail::ops_of_facts(f, h.type, h.eu,
                              detail::tiu_facts_for<detail::op_summary>(table, h.type, h.eu, data));
}

/// Decodes one command at the start of `data` (`eng` = tiu, gdma or sdma) into
/// `out`: form, op fields, operands, memory ranges, TIU ops, DMA direction and
/// bytes. Fields past the end of `data` read 0 (the CDM framing may be shorter
/// than a vendor form, see docs/registers.md). Never throws for bad input.
inline decode_status decode(family f, engine eng, std::span<const std::byte> data,
                            instruction& out) {
  out = instruction{};
  out.eng = eng;
  if (data.size() < 16) return decode_status::truncated;
  const auto h = detail::read_header(eng, data);
  out.type = h.type;
  out.eu = h.eu;
  out.short_form = h.short_form;
  const bool tiu = eng == engine::tiu;
  const reg_table* table =
      tiu ? detail::tiu_table(f, h.type, h.eu, h.short_form) : detail::dma_table(f, h.type);
  if (!table) return decode_status::unknown_opcode;
  out.table = table;
  out.length =
      static_cast<std::uint32_t>(data.size() < table->bytes() ? data.size() : table->bytes());
  const reg_view rv(table, data.first(out.length));
  out.dep_id = static_cast<std::uint32_t>(rv.get("cmd_id_dep") & 0xFFFFF);
  detail::tiu_facts<> facts;
  if (tiu)
    facts = detail::tiu_facts_for<detail::converted>(table, h.type, h.eu, data);
  else
    facts.cv = detail::dma_convert_for(table, h.type, h.eu, data);
  const auto& cv = facts.cv;
  for (unsigned i = 0; i < cv.nops; ++i) out.operands.push_back(detail::make_value(cv.ops[i]));
  for (unsigned i = 0; i < cv.nres; ++i) out.results.push_back(detail::make_value(cv.res[i]));
  for (std::size_t i = 0; i < out.operands.size(); ++i)
    if (!out.operands[i].is_const())
      out.memory.push_back(
          detail::mem_record(out.operands[i], false, static_cast<std::uint8_t>(i)));
  for (std::size_t i = 0; i < out.results.size(); ++i)
    if (!out.results[i].is_const())
      out.memory.push_back(detail::mem_record(out.results[i], true, static_cast<std::uint8_t>(i)));
  if (tiu) {
    out.alg_ops = detail::tiu_ops(f, h.type, h.eu, facts, false);
    out.arch_ops = detail::tiu_ops(f, h.type, h.eu, facts, true);
    if (!out.alg_ops || !out.arch_ops) out.alg_ops = out.arch_ops = std::nullopt;
  } else if (!out.operands.empty() && !out.results.empty()) {
    out.dir = direction_of(out.operands[0].kind, out.results[0].kind);
    const auto& d = out.results[0];
    out.bytes =
        detail::clamp_size((static_cast<detail::i128>(d.elements()) * bit_size(d.type)) / 8);
  }
  const bool ok = cv.supported && (!tiu || out.alg_ops.has_value());
  return ok ? decode_status::ok : decode_status::unsupported;
}

}  // namespace tpuprof::regs::aks_isa
