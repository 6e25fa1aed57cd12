/// BM1684X descriptor operands: the address map, tpu-mlir's operand dict (`opd`), and how an
/// operand becomes a tensor and a memory record (bm1684x_defs.py). The converters that fill
/// `opd`s per command class are in isa_tiu_*.hpp and isa_dma.hpp; isa.hpp decodes a command.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/regs/ops_math.hpp>

namespace tpuprof::regs::bm1684x_isa {

inline constexpr std::uint64_t npu_num = 64;
inline constexpr std::uint64_t bank_size = std::uint64_t{1} << 14;
inline constexpr std::uint64_t lane_size = bank_size * 16;       ///< local memory per lane, 256 KiB
inline constexpr std::uint64_t lmem_size = lane_size * npu_num;  ///< 16 MiB
/// Device address map (TPU1686 memmap.h as tpu-mlir restates it).
inline constexpr std::uint64_t lmem_base = 0x8000000, lmem_end = 0x9000000;
inline constexpr std::uint64_t static_base = 0x9000000, static_end = 0x9004000;
inline constexpr std::uint64_t l2_base = 0x10000000, l2_end = 0x10200000;
inline constexpr std::uint64_t ddr_base = 0x100000000, ddr_end = 0xF00000000;

constexpr mem_kind kind_of(std::uint64_t addr) noexcept {
  if (addr >= lmem_base && addr < lmem_end) return mem_kind::local;
  if (addr >= static_base && addr < static_end) return mem_kind::static_mem;
  if (addr >= l2_base && addr < l2_end) return mem_kind::l2;
  if (addr >= ddr_base && addr < ddr_end) return mem_kind::ddr;
  return mem_kind::unknown;
}

/// Execution units per lane for a dtype: 16 for 32-bit, 32 for 16-bit, 64 for
/// 8-bit types; 0 when the vendor has no entry (i64, unknown).
constexpr std::int64_t eu_num(dtype t) noexcept {
  switch (item_size(t)) {
    case 4:
      return 16;
    case 2:
      return 32;
    case 1:
      return 64;
    default:
      return 0;
  }
}

namespace detail {

using regs::detail::align_up;
using regs::detail::clamp_size;
using regs::detail::div_up;
using regs::detail::i128;
using regs::detail::sat64;
/// Python floor division for the few places the vendor divides signed values.
constexpr i128 floordiv(i128 x, i128 a) noexcept {
  if (a == 0) return 0;
  i128 q = x / a;
  if ((x % a != 0) && ((x < 0) != (a < 0))) --q;
  return q;
}

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
    case 10:
      return layout::matrix;
    case 11:
      return layout::matrix2;
    case 20:
      return layout::ic64;
    case 21:
      return layout::ic32;
    case 22:
      return layout::ic1;
    case 30:
      return layout::t3;
    case 31:
      return layout::t4;
    case 32:
      return layout::t5;
    case 40:
      return layout::dma_stride;
    case 41:
      return layout::dma_4bank;
    case 42:
      return layout::dma_matrix;
    case 43:
      return layout::dma_linear;
    default:
      return layout::none;
  }
}

/// An operand before get_value(): the converter's dict.
struct opd {
  std::uint64_t address = 0;
  dtype type = dtype::unknown;
  layout lay = layout::none;
  bool is_const = false;
  std::uint8_t rank = 0, srank = 0;
  std::array<std::uint64_t, 4> shape{};
  std::array<std::int64_t, 4> stride{};
  std::uint64_t mask = ~std::uint64_t{0};
  std::uint32_t w = 0;

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

/// tpu-mlir MemRef: local operands get their stride from the layout.
inline tensor_ref make_value(const opd& o) {
  tensor_ref t;
  t.type = o.type;
  if (o.is_const) {
    t.kind = mem_kind::constant;
    t.address = o.address;
    return t;
  }
  t.address = o.address < lmem_size ? o.address + lmem_base : o.address;
  t.kind = kind_of(t.address);
  t.lay = o.lay;
  t.rank = o.rank;
  t.shape = o.shape;
  t.stride_rank = o.srank;
  t.stride = o.stride;
  t.lane_mask = o.mask;
  t.layout_w = o.w;
  if (t.kind != mem_kind::local) return t;
  // local_layout_to_stride
  const i128 isz = item_size(t.type);
  const i128 off = static_cast<i128>((t.address - lmem_base) / lane_size);
  const bool four = t.rank == 4;
  const i128 c = t.shape[1], h = t.shape[2], w = t.shape[3];
  auto set4 = [&](i128 a, i128 b, i128 cc, i128 d) {
    t.stride_rank = 4;
    t.stride = {sat64(a), sat64(b), sat64(cc), sat64(d)};
  };
  const i128 eu = isz > 0 ? 64 / isz : 0;
  switch (t.lay) {
    case layout::align_eu:
      if (four && eu) {
        const i128 cs = align_up(w * h, eu);
        set4(div_up(c + off, 64) * cs, cs, w, 1);
      }
      break;
    case layout::compact:
      if (four) set4(div_up(c + off, 64) * w * h, w * h, w, 1);
      break;
    case layout::offset:
      set4(0, 1, 0, 0);
      break;
    case layout::stride:
      if (t.stride_rank == 0) set4(0, 0, 0, 0);
      break;
    case layout::t3:  // the vendor divides with '/', so h_stride is w + eu - 1 unrounded
      if (four && eu) {
        const i128 hs = w + eu - 1;
        set4(floordiv(h * hs * (c + off + 63), 64), h * hs, hs, 1);
      }
      break;
    case layout::t4:
      if (four && eu) set4(0, 0, w + eu - 1, 1);
      break;
    case layout::t5:
      if (four && eu && isz) set4(static_cast<i128>(lane_size) / 8 / isz, w + eu - 1, w, 1);
      break;
    case layout::dma_stride:
      if (t.lane_mask == ~std::uint64_t{0}) t.lay = layout::stride;
      break;
    default:
      break;
  }
  return t;
}

/// sum((shape-1)*stride) + 1 over the common dimensions (bmprofile _get_size).
constexpr i128 span_elems(const std::uint64_t* shape, unsigned rank, const std::int64_t* stride,
                          unsigned srank) noexcept {
  i128 s = 1;
  for (unsigned i = 0; i < rank && i < srank; ++i)
    s += (static_cast<i128>(shape[i]) - 1) * static_cast<i128>(stride[i]);
  return s;
}

/// One memory record as bm1684x_defs.__get_mem_records builds it.
inline mem_operand mem_record(const tensor_ref& t, bool write, std::uint8_t index) {
  mem_operand m;
  m.kind = t.kind;
  m.write = write;
  m.index = index;
  const i128 isz = item_size(t.type);
  auto data_elems = [&]() -> i128 {
    if (t.stride_rank) return span_elems(t.shape.data(), t.rank, t.stride.data(), t.stride_rank);
    i128 n = 1;
    for (unsigned i = 0; i < t.rank; ++i) n *= static_cast<i128>(t.shape[i]);
    return n;
  };
  m.data_size = clamp_size(data_elems() * isz);
  if (t.kind != mem_kind::local) {
    m.address = t.address;
    m.size = m.data_size;
    return m;
  }
  m.address = (t.address - lmem_base) % lane_size;
  // local_shape / local_stride
  const i128 off = static_cast<i128>((t.address - lmem_base) / lane_size);
  std::array<i128, 4> d{1, 1, 1, 1};
  for (unsigned i = 0; i < t.rank && i < 4; ++i) d[i] = static_cast<i128>(t.shape[i]);
  const i128 n = d[0], c = d[1], h = d[2], w = d[3];
  auto cnum = [&](i128 x) { return div_up(x + off, static_cast<i128>(npu_num)); };
  std::array<i128, 4> ls{}, lst{};
  i128 lanes = c;  // the dimension cnum() spreads over the lanes
  unsigned lrank = 4, lsrank = 4;
  auto eu_stride = [&](i128 cc, i128 hh, i128 ww) {
    const i128 al = isz > 0 ? 64 / isz : 1;
    const i128 cs = align_up(ww * hh, al);
    lst = {cnum(cc) * cs, cs, ww, 1};
  };
  bool own_stride = false;
  switch (t.lay) {
    case layout::ic64:
      lanes = n;
      ls = {(c + 63) / 64, cnum(n), h, w * 64};
      lst = {64 * h * w, (c + 63) / 64 * 64 * h * w, 64 * w, 1};
      own_stride = true;
      break;
    case layout::ic32:  // (c + 32) / 32 as the vendor writes it
      lanes = n;
      ls = {(c + 32) / 32, cnum(n), h, w * 32};
      lst = {32 * h * w, (c + 32) / 32 * 32 * h * w, 32 * w, 1};
      own_stride = true;
      break;
    case layout::ic1:
      lanes = n;
      ls = {c, cnum(n), h, w};
      lst = {h * w, c * h * w, w, 1};
      own_stride = true;
      break;
    case layout::matrix: {
      const i128 mw = t.layout_w;
      const i128 cols = mw > 0 ? div_up(c, mw) : 0;
      lanes = cols;
      ls = {n, cnum(cols), 1, mw};
      eu_stride(cols, 1, mw);
      own_stride = true;
      break;
    }
    case layout::matrix2:
      lanes = n;
      ls = {1, cnum(n), 1, c};
      eu_stride(n, 1, c);
      own_stride = true;
      break;
    case layout::dma_matrix: {
      const i128 mw = t.layout_w;
      lanes = mw > 0 ? div_up(c, mw) : 0;
      ls = {n, cnum(lanes), 1, mw};
      break;
    }
    case layout::dma_linear:
      lanes = 0;
      lrank = t.rank;
      for (unsigned i = 0; i < 4; ++i) ls[i] = static_cast<i128>(t.shape[i]);
      break;
    default:
      ls = {n, cnum(c), h, w};
      break;
  }
  m.lane_dim = static_cast<std::uint32_t>(std::clamp<i128>(lanes, 0, 0xFFFFFFFF));
  if (!own_stride) {
    lsrank = t.stride_rank;
    for (unsigned i = 0; i < 4; ++i) lst[i] = t.stride[i];
  }
  if (lsrank == 0) {
    m.size = m.data_size;
    return m;
  }
  i128 s = 1;
  for (unsigned i = 0; i < lrank && i < lsrank; ++i) s += (ls[i] - 1) * lst[i];
  m.size = clamp_size(s * isz);
  return m;
}

/// Field access shorthand for the converters.
struct regs_of {
  reg_view v;
  constexpr std::uint64_t operator()(std::string_view n) const noexcept { return v.get(n); }
};

constexpr std::uint64_t or3(std::uint64_t a, std::uint64_t b, std::uint64_t c) noexcept {
  return a ? a : b ? b : c;
}

struct converted {
  std::array<opd, 4> ops{};
  std::array<opd, 2> res{};
  unsigned nops = 0, nres = 0;
  std::uint64_t kh = 0, kw = 0;
  bool supported = true;  ///< false where the vendor raises (its tables stop here)
  void add_op(const opd& o) {
    if (nops < 4) ops[nops++] = o;
  }
  void add_res(const opd& o) {
    if (nres < 2) res[nres++] = o;
  }
};

/// Sets `o`'s strides from the `<p>_{n,c,h,w}_str` fields (p = "opd0", "res0", ...).
inline void set_strides(const regs_of& r, opd& o, std::string_view p) {
  std::array<char, 16> buf{};
  auto key = [&](char d) {
    std::size_t k = 0;
    for (char ch : p) buf[k++] = ch;
    buf[k++] = '_';
    buf[k++] = d;
    for (char ch : std::string_view("_str")) buf[k++] = ch;
    return std::string_view(buf.data(), k);
  };
  const auto sn = static_cast<std::int64_t>(r(key('n'))),
             sc = static_cast<std::int64_t>(r(key('c'))),
             sh = static_cast<std::int64_t>(r(key('h'))),
             sw = static_cast<std::int64_t>(r(key('w')));
  o.set_stride({sn, sc, sh, sw});
}

inline opd nchw(const regs_of& r, std::string_view prefix_n, std::string_view prefix_c,
                std::string_view prefix_h, std::string_view prefix_w) {
  opd o;
  o.set_shape({r(prefix_n), r(prefix_c), r(prefix_h), r(prefix_w)});
  return o;
}

}  // namespace detail

}  // namespace tpuprof::regs::bm1684x_isa
