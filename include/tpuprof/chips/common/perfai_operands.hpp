/// Operands of BM1688 / CV184X descriptors as tpu-mlir's debugger/target_1688 and target_cv184x
/// build them (memmap.py MemRef, context.py get_memory_type): the address map of each chip, the
/// converter's operand dict (`opd`), and how an operand becomes a tensor and a memory record.
/// The per-class converters are in perfai_convert.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>

#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/regs/ops_math.hpp>

namespace tpuprof::chips::perfai {

/// What the operand converters need of a chip (the compiler header's constants).
struct mem_consts {
  unsigned npu = 32;                  ///< lanes (NPU_NUM)
  std::uint64_t lane_size = 1 << 17;  ///< local memory per lane, bytes (LMEM_BYTES)
  unsigned eu_base = 16;              ///< EUs for 1-byte data (tpu_eu_num(1))
  bool tag40 = false;            ///< CV184X: 5-bit tag at bit 40 (0, 31 local); BM1688: GMEM bit 39
  unsigned conv_small_prec = 6;  ///< conv precision whose opd3 is (1,c,1,1) i8: INT4 / CV184X INT8
};

/// Where a register address points (context.py get_memory_type).
constexpr regs::mem_kind kind_of(const mem_consts& k, std::uint64_t a) noexcept {
  if (k.tag40) {
    const auto tag = (a >> 40) & 0x1F;
    return tag == 0 || tag == 31 ? regs::mem_kind::local : regs::mem_kind::ddr;
  }
  if ((a >> 39) & 1) return regs::mem_kind::ddr;
  return (a >> 23) & 1 ? regs::mem_kind::static_mem : regs::mem_kind::local;
}

/// Offset of a local address in the whole local memory (MemRef.r_addr).
constexpr std::uint64_t local_addr(const mem_consts& k, std::uint64_t a) noexcept {
  return k.tag40 ? a & 0xFFFFFFFFFFull : a & 0x7FFFFFull;
}

/// The vendor's DType(code): 6 is int4 on these chips.
constexpr regs::dtype dtype_of(std::uint64_t code) noexcept {
  using regs::dtype;
  switch (code) {
    case 6:
      return dtype::i4;
    case 7:
      return dtype::f8;
    case 14:
      return dtype::ui4;
    case 15:
      return dtype::f8e5m2;
    case 22:
      return dtype::si4;
    case 23:
      return dtype::f8e4m3;
    default:
      return regs::dtype_from_code(code);
  }
}

/// tpu-mlir get_dtype(prec, sign): floats as they are, integers signed when sign == 1.
constexpr regs::dtype dtype_of(std::uint64_t prec, std::uint64_t sign) noexcept {
  if (prec == 1 || prec == 2 || prec == 5) return dtype_of(prec);
  if (prec > 7) return regs::dtype::unknown;
  return dtype_of(prec + 8 + (sign == 1 ? 8 : 0));
}

/// Layout codes of the `short_*_str` fields (op_support.Layout 0-3).
constexpr regs::layout layout_of(std::uint64_t code) noexcept {
  using regs::layout;
  constexpr std::array<layout, 4> l{layout::align_eu, layout::compact, layout::offset,
                                    layout::stride};
  return code < l.size() ? l[code] : layout::none;
}

/// An operand before get_value(): the converter's dict.
struct opd {
  std::uint64_t address = 0;
  regs::dtype type = regs::dtype::unknown;
  regs::layout lay = regs::layout::none;
  bool is_const = false;
  std::uint8_t rank = 0, srank = 0;
  std::array<std::uint64_t, 4> shape{};
  std::array<std::int64_t, 4> stride{};
  std::uint32_t w = 0;  ///< DMAmatrix row width

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

namespace detail {
using regs::detail::align_up;
using regs::detail::clamp_size;
using regs::detail::div_up;
using regs::detail::i128;
using regs::detail::sat64;

/// EUs per lane for a dtype (BM1688Info.EU_NUM): eu_base * 8 / bits; 0 for unknown.
constexpr i128 eu_num(const mem_consts& k, regs::dtype t) noexcept {
  const unsigned b = regs::bit_size(t);
  return b ? static_cast<i128>(k.eu_base) * 8 / b : 0;
}
}  // namespace detail

/// MemRef: local operands get their stride from the layout (memmap.py local_layout_to_stride).
/// The tensor's address is the register value (GMEM tag included; local: the lane offset
/// r_addr).
inline regs::tensor_ref make_value(const mem_consts& k, const opd& o) {
  using namespace detail;
  regs::tensor_ref t;
  t.type = o.type;
  if (o.is_const) {
    t.kind = regs::mem_kind::constant;
    t.address = o.address;
    return t;
  }
  t.kind = kind_of(k, o.address);
  t.address = t.kind == regs::mem_kind::local ? local_addr(k, o.address) : o.address;
  t.lay = o.lay;
  t.rank = o.rank;
  t.shape = o.shape;
  t.stride_rank = o.srank;
  t.stride = o.stride;
  t.layout_w = o.w;
  if (t.kind != regs::mem_kind::local || t.lay == regs::layout::stride) return t;
  const i128 eu = eu_num(k, t.type);
  const i128 off = static_cast<i128>(t.address / k.lane_size), npu = k.npu;
  const i128 c = t.shape[1], h = t.shape[2], w = t.shape[3];
  const bool four = t.rank == 4;
  auto set4 = [&](i128 a, i128 b, i128 cc, i128 d) {
    t.stride_rank = 4;
    t.stride = {sat64(a), sat64(b), sat64(cc), sat64(d)};
  };
  using L = regs::layout;
  switch (t.lay) {
    case L::align_eu:
      if (four && eu) set4(div_up(c + off, npu) * align_up(w * h, eu), align_up(w * h, eu), w, 1);
      break;
    case L::compact:
      if (four) set4(div_up(c + off, npu) * w * h, w * h, w, 1);
      break;
    case L::offset:
      set4(0, 1, 0, 0);
      break;
    case L::align_line:
      if (four && eu) {
        const i128 hs = align_up(w, eu);
        set4(h * hs * div_up(c + off, npu), h * hs, hs, 1);
      }
      break;
    case L::t4:
      if (four && eu) set4(0, 0, align_up(w, eu), 1);
      break;
    case L::t5:
      if (four && eu && bit_size(t.type))
        set4(static_cast<i128>(k.lane_size) / bit_size(t.type), align_up(w, eu), w, 1);
      break;
    default:
      break;
  }
  return t;
}

/// One memory record: global operands cover sum((shape-1)*stride)+1 elements (the element
/// count without strides); local operands the same inside one lane, with the channels a
/// lane holds (ceil((c + lane offset) / lanes)), at the lane offset.
inline regs::mem_operand mem_record(const mem_consts& k, const regs::tensor_ref& t, bool write,
                                    std::uint8_t index) {
  using namespace detail;
  regs::mem_operand m;
  m.kind = t.kind;
  m.write = write;
  m.index = index;
  const i128 bits = regs::bit_size(t.type);
  auto bytes = [&](i128 elems) { return clamp_size((elems * bits + 7) / 8); };
  i128 n = 1;
  for (unsigned i = 0; i < t.rank; ++i) n *= static_cast<i128>(t.shape[i]);
  m.data_size = bytes(n);
  std::array<i128, 4> s{1, 1, 1, 1};
  for (unsigned i = 0; i < t.rank && i < 4; ++i) s[i] = static_cast<i128>(t.shape[i]);
  if (t.kind != regs::mem_kind::local) {
    m.address = t.address;
    i128 e = 1;
    for (unsigned i = 0; i < t.rank && i < t.stride_rank; ++i)
      e += (s[i] - 1) * static_cast<i128>(t.stride[i]);
    m.size = t.stride_rank ? bytes(e) : m.data_size;
    return m;
  }
  m.address = t.address % k.lane_size;
  const i128 off = static_cast<i128>(t.address / k.lane_size), npu = k.npu;
  auto cnum = [&](i128 x) { return div_up(x + off, npu); };
  using L = regs::layout;
  if (t.lay == L::align_ic) {  // (1, min(n, NPU), 1, ceil(n / NPU) * h * w * align(c, EU))
    const i128 eu = eu_num(k, t.type);
    m.size = bytes(div_up(s[0], npu) * s[2] * s[3] * (eu ? align_up(s[1], eu) : s[1]));
    return m;
  }
  std::array<i128, 4> ls{s[0], cnum(s[1]), s[2], s[3]};
  if (t.lay == L::dma_matrix && t.rank == 2) {  // (H, W) as (n, ceil(W / w), 1, w)
    const i128 mw = t.layout_w ? t.layout_w : 1;
    ls = {s[0], cnum(div_up(s[1], mw)), 1, mw};
  }
  if (!t.stride_rank) {
    m.size = m.data_size;
    return m;
  }
  i128 e = 1;
  for (unsigned i = 0; i < 4 && i < t.stride_rank; ++i)
    e += (ls[i] - 1) * static_cast<i128>(t.stride[i]);
  m.size = bytes(e);
  return m;
}

}  // namespace tpuprof::chips::perfai
