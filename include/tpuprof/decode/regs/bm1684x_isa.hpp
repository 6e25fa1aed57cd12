/// BM1684X command descriptors (cmd_*.dat) to instructions: operands, dtypes,
/// shapes, memory ranges, alg/arch ops and DMA direction, as tpu-mlir's
/// profile_helper (opparam_1684x.py, opdef_1684x.py, bm1684x_defs.py) derives
/// them; deliberate differences are listed in docs/registers.md.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>

#include <tpuprof/chips/bm1684x_regs.hpp>
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
  unsigned lrank = 4, lsrank = 4;
  auto eu_stride = [&](i128 cc, i128 hh, i128 ww) {
    const i128 al = isz > 0 ? 64 / isz : 1;
    const i128 cs = align_up(ww * hh, al);
    lst = {cnum(cc) * cs, cs, ww, 1};
  };
  bool own_stride = false;
  switch (t.lay) {
    case layout::ic64:
      ls = {(c + 63) / 64, cnum(n), h, w * 64};
      lst = {64 * h * w, (c + 63) / 64 * 64 * h * w, 64 * w, 1};
      own_stride = true;
      break;
    case layout::ic32:  // (c + 32) / 32 as the vendor writes it
      ls = {(c + 32) / 32, cnum(n), h, w * 32};
      lst = {32 * h * w, (c + 32) / 32 * 32 * h * w, 32 * w, 1};
      own_stride = true;
      break;
    case layout::ic1:
      ls = {c, cnum(n), h, w};
      lst = {h * w, c * h * w, w, 1};
      own_stride = true;
      break;
    case layout::matrix: {
      const i128 mw = t.layout_w;
      const i128 cols = mw > 0 ? div_up(c, mw) : 0;
      ls = {n, cnum(cols), 1, mw};
      eu_stride(cols, 1, mw);
      own_stride = true;
      break;
    }
    case layout::matrix2:
      ls = {1, cnum(n), 1, c};
      eu_stride(n, 1, c);
      own_stride = true;
      break;
    case layout::dma_matrix: {
      const i128 mw = t.layout_w;
      ls = {n, cnum(mw > 0 ? div_up(c, mw) : 0), 1, mw};
      break;
    }
    case layout::dma_linear:
      lrank = t.rank;
      for (unsigned i = 0; i < 4; ++i) ls[i] = static_cast<i128>(t.shape[i]);
      break;
    default:
      ls = {n, cnum(c), h, w};
      break;
  }
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

inline opd nchw(const regs_of& r, std::string_view prefix_n, std::string_view prefix_c,
                std::string_view prefix_h, std::string_view prefix_w) {
  opd o;
  o.set_shape({r(prefix_n), r(prefix_c), r(prefix_h), r(prefix_w)});
  return o;
}

inline converted convert_tiu(const regs_of& r, unsigned type, unsigned eu) {
  converted cv;
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
  auto strides = [&](opd& o, std::string_view p) {
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
  };
  switch (type) {
    case 0: {  // CONV
      opd o0;
      o0.address = r("opd0_addr");
      o0.set_shape({n, r("opd0_c"), r("opd0_h"), r("opd0_w")});
      strides(o0, "opd0");
      o0.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
      o0.lay = layout_from_code(r("opd0_str"));
      opd r0;
      r0.address = r("res0_addr");
      r0.set_shape({n, c, h, w});
      std::uint64_t rsign = or3(r("opd0_sign"), r("opd1_sign"), r("opd2_sign"));
      r0.lay = layout::align_eu;
      opd o1;
      o1.address = r("opd1_addr");
      o1.set_shape({c, r("opd0_c"), r("opd1_h"), r("opd1_w")});
      o1.type = dtype_from_prec(r("opd0_prec"), r("opd1_sign"));
      o1.is_const = r("opd1_const") != 0;
      o1.lay = layout::ic1;
      opd o2, o3;
      o2.address = r("opd2_addr");
      o2.is_const = r("opd2_const") != 0;
      o2.lay = layout::compact;
      o3.address = r("opd3_addr");
      o3.is_const = r("opd3_const") != 0;
      o3.lay = layout::compact;
      const auto prec = r("opd0_prec");
      if (prec == 0) {
        o1.lay = layout::ic64;
        if (eu == 0) {
          o2.set_shape({1, r("opd0_c"), 1, 1});
          o2.type = dtype_from_prec(0, r("opd2_sign"));
          rsign = rsign ? rsign : r("opd2_addr");
          o3.set_shape({1, r("opd0_c"), 1, 2});
          o3.type = o0.type;
        } else {
          o2.set_shape({1, c, 1, 1});
          o2.type = dtype_from_prec(3, r("opd2_sign"));
          o3.type = dtype::ui8;
        }
      } else {
        o2.set_shape({1, c, 1, 1});
        o2.type = dtype_from_prec(2, r("opd0_sign"));
        o3.set_shape({1, r("opd0_c"), 1, 2});
        o3.type = o0.type;
        if (prec == 1 || prec == 5) o1.lay = layout::ic32;
      }
      r0.type = dtype_from_prec(r("res0_prec"), rsign);
      cv.add_op(o0);
      cv.add_op(o1);
      cv.add_op(o2);
      cv.add_op(o3);
      cv.add_res(r0);
      cv.kh = r("opd1_h");
      cv.kw = r("opd1_w");
      break;
    }
    case 1: {  // PD
      opd o0, r0, o1, o2, o3;
      o0.address = r("opd0_addr");
      o0.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
      o0.set_shape({n, c, r("opd0_h"), r("opd0_w")});
      o0.lay = layout::align_eu;
      r0.address = r("res0_addr");
      r0.type = dtype_from_prec(r("res0_prec"), r("opd0_sign"));
      r0.set_shape({n, c, h, w});
      r0.lay = layout::align_eu;
      o1.address = r("opd1_addr");
      o1.type = dtype_from_prec(r("opd0_prec"), r("opd1_sign"));
      o1.set_shape({1, c, r("opd1_h"), r("opd1_w")});
      o1.lay = layout::compact;
      o1.is_const = r("opd1_const") != 0;
      o2.address = r("opd2_addr");
      o2.type = dtype_from_prec(r("opd0_prec"), r("opd2_sign"));
      o2.set_shape({1, c, 1, 1});
      o2.lay = layout::compact;
      o2.is_const = r("opd2_const") != 0;
      o3.address = r("opd3_addr");
      o3.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
      o3.set_shape({1, c, 1, 2});
      o3.lay = layout::compact;
      o3.is_const = r("opd3_const") != 0;
      if (eu == 1 || eu == 4) {
        cv.add_op(o0);
        cv.add_op(o3);
      } else if (eu == 0 || eu == 2) {
        r0.type =
            dtype_from_prec(r("res0_prec"), or3(r("opd0_sign"), r("opd1_sign"), r("opd2_sign")));
        o2.type = r("opd0_prec") == 0 ? dtype::si32 : o0.type;
        if (eu == 2) r0.type = dtype_from_prec(r("res0_prec"), r("res0_prec") == 4 ? 1 : 0);
        cv.add_op(o0);
        cv.add_op(o1);
        cv.add_op(o2);
        cv.add_op(o3);
      } else if (eu == 6 || eu == 7 || eu == 5) {
        o3.set_shape({1, w, 1, 4});
        o3.type = dtype::si16;
        cv.add_op(o0);
        if (eu == 5) cv.add_op(o1);
        cv.add_op(o3);
      } else {
        cv.add_op(o0);
        cv.supported = false;
      }
      cv.add_res(r0);
      cv.kh = r("opd1_h");
      cv.kw = r("opd1_w");
      break;
    }
    case 2: {
      if (eu >= 4) {  // MM2
        std::uint64_t lrow = c, lcol = r("opd1_c");
        if (eu == 5) {
          lcol = r("opd1_w");
        } else if (eu == 6) {
          lrow = r("opd1_w");
          lcol = c;
        }
        opd o0, r0, o1, o2;
        o0.address = r("opd0_addr");
        o0.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
        o0.set_shape({lrow, lcol});
        o0.lay = layout::matrix2;
        o0.is_const = r("opd0_const") != 0;
        r0.address = r("res0_addr");
        r0.type = dtype_from_prec(r("res0_prec"), 1);
        r0.set_shape({c, w});
        r0.lay = layout::matrix2;
        o1.address = r("opd1_addr");
        o1.type = dtype_from_prec(r("opd0_prec"), r("opd1_sign"));
        o1.set_shape({r("opd1_c"), r("opd1_w")});
        o1.lay = layout::matrix2;
        cv.add_op(o0);
        cv.add_op(o1);
        if (r("opd0_prec") == 0) {
          o2.address = r("opd2_addr");
          o2.is_const = r("opd2_const") != 0;
          o2.type = o1.type;
          if (eu == 4 || eu == 5) {
            o2.set_shape({1, 64, 1, w});
            o2.lay = layout::align_eu;
          } else {
            o2.set_shape({1, c, 1, 1});
            o2.lay = layout::compact;
          }
          cv.add_op(o2);
        }
        cv.add_res(r0);
      } else {  // MM
        const std::uint64_t lrow0 = r("opd0_n");
        const std::uint64_t lcol0 = r("opd0_w") * (r("opd0_c") - 1) + r("opd1_w");
        const std::uint64_t rcol = c * w;
        opd o0, r0, o1, o2;
        o0.address = r("opd0_addr");
        o0.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
        o0.set_shape({lrow0, lcol0});
        o0.lay = layout::matrix;
        o0.w = static_cast<std::uint32_t>(r("opd0_w"));
        o0.is_const = r("opd0_const") != 0;
        std::uint64_t lrow = lrow0, lcol = lcol0;
        if (r("left_tran")) std::swap(lrow, lcol);
        r0.address = r("res0_addr");
        r0.type = dtype_from_prec(r("res0_prec"), 1);
        r0.set_shape({lrow, rcol});
        r0.lay = layout::matrix;
        r0.w = static_cast<std::uint32_t>(w);
        o1.address = r("opd1_addr");
        o1.type = dtype_from_prec(r("opd0_prec"), r("opd1_sign"));
        o1.set_shape({lcol, rcol});
        o1.lay = layout::matrix;
        o1.w = static_cast<std::uint32_t>(w);
        o2.address = r("opd2_addr");
        o2.is_const = r("opd2_const") != 0;
        o2.set_shape({1, rcol});
        o2.lay = layout::matrix;
        o2.w = static_cast<std::uint32_t>(w);
        bool three = true;
        if (eu == 1) {
          if (r("opd0_prec") == 2)
            o2.type = o0.type;
          else if (r("opd0_prec") == 4)
            o2.type = dtype::si8;
          else
            three = false;
        } else {
          o2.type = dtype::si16;
        }
        cv.add_op(o0);
        cv.add_op(o1);
        if (three) cv.add_op(o2);
        cv.add_res(r0);
      }
      break;
    }
    case 3: {  // AR
      opd o0, r0, o1, o2;
      o0.address = r("opd0_addr");
      o0.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
      o0.set_shape({n, c, h, w});
      strides(o0, "opd0");
      o0.lay = layout_from_code(r("opd0_str"));
      o0.is_const = r("opd0_const") != 0;
      r0.address = r("res0_addr");
      r0.type = dtype_from_prec(r("res0_prec"), r("opd0_sign") ? r("opd0_sign") : r("opd1_sign"));
      r0.set_shape({n, c, h, w});
      strides(r0, "res0");
      r0.lay = layout_from_code(r("res0_str"));
      o1.address = r("opd1_addr");
      o1.type = dtype_from_prec(r("opd1_prec"), r("opd1_sign"));
      o1.set_shape({n, c, h, w});
      strides(o1, "opd1");
      o1.lay = layout_from_code(r("opd1_str"));
      o1.is_const = r("opd1_const") != 0;
      o2.address = r("opd2_addr");
      o2.type = dtype_from_prec(r("opd2_prec"), r("opd2_sign"));
      o2.set_shape({1, c, 1, 1});
      o2.lay = layout::compact;
      o2.is_const = r("opd2_const") != 0;
      if (eu == 17)
        o2.set_shape({1, c, 1, 2});
      else if (eu == 28)
        o0.set_shape({1, c, h, w});
      else if (eu == 14)
        r0.type = dtype_from_prec(r("res0_prec"), r("opd2_sign"));
      const auto num = r("tsk_opd_num");
      const std::array<opd, 3> all{o0, o1, o2};
      for (std::uint64_t i = 0; i < num && i < 3; ++i) cv.add_op(all[i]);
      cv.add_res(r0);
      break;
    }
    case 4: {  // RQDQ
      opd o0, r0, o1;
      o0.address = r("opd0_addr");
      o0.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
      o0.set_shape({n, c, h, w});
      o0.lay = layout::align_eu;
      r0.address = r("res0_addr");
      r0.type = dtype_from_prec(r("res0_prec"), r("opd2_sign"));
      r0.set_shape({n, c, h, w});
      r0.lay = layout::align_eu;
      o1.address = r("opd1_addr");
      o1.is_const = r("opd1_const") != 0;
      o1.lay = layout::align_eu;
      o1.set_shape({1, c, 1, 1});
      cv.add_op(o0);
      if (eu == 0) {
        o1.type = dtype::f32;
        opd o2 = o1;
        o2.address += 4;
        if (o1.is_const) o2.address = r("opd2_addr");
        cv.add_op(o1);
        cv.add_op(o2);
      } else if (eu == 1) {
        o1.type = dtype::si32;
        opd o2 = o1;
        o2.address += 4;
        opd o3 = o2;
        o3.address += 4;
        if (o1.is_const) {
          o2.address = r("opd2_addr");
          o2.type = dtype::si8;
          o3.address = r("opd2_addr") / 256;
          o3.type = dtype_from_prec(3, r("opd2_sign"));
        }
        cv.add_op(o1);
        cv.add_op(o2);
        cv.add_op(o3);
      } else if (eu == 3) {
        o1.type = dtype_from_prec(4, r("opd0_sign"));
        opd o2 = o1;
        o2.address += 4;
        o2.type = dtype::f32;
        if (o1.is_const) o2.address = r("opd2_addr");
        cv.add_op(o1);
        cv.add_op(o2);
      } else if (eu == 4) {
        o1.type = dtype::si32;
        opd o2 = o1;
        o2.address += 4;
        opd o3 = o2;
        o3.address += 4;
        if (o1.is_const) {
          o1.type = dtype_from_prec(3, r("opd0_sign"));
          o2.address = r("opd1_addr") / 65536;
          o2.type = dtype::si16;
          o3.address = r("opd2_addr");
          o3.type = dtype::si32;
          std::swap(o2, o3);
        }
        cv.add_op(o1);
        cv.add_op(o2);
        cv.add_op(o3);
      } else {
        cv.supported = false;
      }
      cv.add_res(r0);
      break;
    }
    case 5: {  // TRANS_BC
      opd o0, r0;
      o0.address = r("opd0_addr");
      o0.type = dtype_from_code(r("res0_prec"));
      o0.lay = layout::align_eu;
      r0.address = r("res0_addr");
      r0.type = o0.type;
      r0.set_shape({n, c, h, w});
      r0.lay = layout::align_eu;
      if (eu == 0 || eu == 1) {
        o0.set_shape({n, w, h, c});
        if (eu == 0) o0.lay = layout::t3;
      } else {
        o0.set_shape({n, c, h, w});
        if (eu == 3) o0.set_shape({n, 1, h, w});
        if (eu == 4) r0.set_shape({1, c, 1, w});
        if (eu == 5) {
          r0.set_shape({1, c, 1, 1});
          r0.lay = layout::compact;
        }
      }
      cv.add_op(o0);
      cv.add_res(r0);
      break;
    }
    case 6: {
      if (eu == 17 || eu == 18) {  // SGL
        opd o0, r0, o1;
        o0.address = r("opd0_addr");
        o0.type = dtype_from_code(r("res0_prec"));
        o0.set_shape({1, c, r("opd0_h"), w});
        o0.lay = r("opd0_str") == 3 ? layout::t3 : layout::t4;
        r0.address = r("res0_addr");
        r0.type = o0.type;
        r0.set_shape({n, c, h, w});
        r0.lay = layout::t3;
        o1.address = r("opd0_addr");  // sic: the vendor reads the index from opd0_addr
        o1.type = dtype_from_prec(r("opd1_prec"), 0);
        o1.lay = layout::compact;
        o1.set_shape({n, c, eu == 17 ? h : r("opd0_h"), 1});
        cv.add_op(o0);
        cv.add_op(o1);
        cv.add_res(r0);
        break;
      }
      // SG
      opd o0, r0, o1;
      o0.address = r("opd0_addr");
      o0.type = dtype_from_code(r("opd0_prec"));
      o0.lay = layout_from_code(r("opd0_str"));
      r0.address = r("res0_addr");
      r0.type = dtype_from_code(r("res0_prec"));
      r0.set_shape({n, c, h, w});
      r0.lay = layout::align_eu;
      o1.address = r("opd0_addr");  // sic
      o1.type = dtype_from_prec(r("opd1_prec"), 0);
      o1.lay = layout::align_eu;
      bool both = true, only1 = false;
      switch (eu) {
        case 0:
        case 3:
          o0.set_shape({n, c, 1, r("opd0_w")});
          o1.set_shape({1, r("opd1_c"), 1, 1});
          o1.lay = layout::compact;
          break;
        case 1:
        case 4:
          o0.set_shape({n, c, r("opd0_h"), r("opd0_w")});
          o1.set_shape({1, r("opd1_c"), 1, 1});
          o1.lay = layout::compact;
          break;
        case 5:
        case 6:
        case 13:
        case 14:
          o0.set_shape({1, c, r("opd0_h"), r("opd0_w")});
          if (r("opd0_str") != 0) o0.lay = layout::t4;
          o1.set_shape({n, c, 1, r("opd1_w")});
          break;
        case 2: {
          o0.set_shape({n, c, r("opd0_h"), r("opd0_w")});
          o1.set_shape({1, r("opd1_c"), 1, 4});
          o1.lay = layout::compact;
          const auto k = r("opd3_addr");
          r0.set_shape({n, c, (k >> 16) * (k & 0xFFFF), w});
          r0.lay = layout::t3;
          break;
        }
        case 8:
        case 15:
          o0.set_shape({1, c, 1, r("opd0_w")});
          if (r("opd0_str") != 0) o0.lay = layout::t4;
          o1.set_shape({n, c, 1, r("opd1_w")});
          break;
        case 9:
        case 16:
          o0.set_shape({n, c, 1, r("opd0_w")});
          both = false;
          break;
        case 10:
          o1.set_shape({n, c, 1, r("opd1_w")});
          both = false;
          only1 = true;
          break;
        case 7:
          o0.set_shape({4, c, 1, r("opd0_w")});
          o0.lay = layout::stride;
          o1.set_shape({1, c, 1, r("opd1_w")});
          break;
        default:
          o0.set_shape({n, c, r("opd0_h"), r("opd0_w")});
          both = false;
          cv.supported = false;
          break;
      }
      if (only1) {
        cv.add_op(o1);
      } else {
        cv.add_op(o0);
        if (both) cv.add_op(o1);
      }
      cv.add_res(r0);
      break;
    }
    case 9: {  // SFU
      opd o0, r0, o1;
      o0.address = r("opd0_addr");
      o0.type = dtype_from_prec(r("opd0_prec"), 1);
      o0.set_shape({n, c, h, w});
      o0.lay = layout::align_eu;
      r0.address = r("res0_addr");
      r0.type = dtype_from_prec(r("res0_prec"), 1);
      r0.set_shape({n, c, h, w});
      r0.lay = layout::align_eu;
      o1.address = r("opd1_addr");
      o1.type = o0.type;
      o1.set_shape({1, std::min<std::uint64_t>(c, 64), 1, r("opd1_n")});
      o1.set_stride({0, 0, static_cast<std::int64_t>(r("opd1_n")), 1});
      o1.lay = layout::stride;
      cv.add_op(o0);
      if (eu == 12 || eu == 13) cv.add_op(o1);
      cv.add_res(r0);
      break;
    }
    case 10: {  // LIN
      opd o0, r0, o1, o2;
      o0.address = r("opd0_addr");
      o0.type = dtype_from_prec(r("res0_prec"), 1);
      o0.set_shape({n, c, h, w});
      o0.lay = layout::align_eu;
      r0 = o0;
      r0.address = r("res0_addr");
      o1.address = r("opd1_addr");
      o1.type = o0.type;
      o1.set_shape({1, c, 1, 1});
      o1.lay = layout::compact;
      o1.is_const = r("opd1_const") != 0;
      o2 = o1;
      o2.address = r("opd2_addr");
      o2.is_const = r("opd2_const") != 0;
      cv.add_op(o0);
      cv.add_op(o1);
      if (eu == 1) cv.add_op(o2);
      cv.add_res(r0);
      break;
    }
    case 13: {  // CMP (the vendor's Layout.stride checks compare an int to an Enum: never true)
      opd o0, r0, r1, o1, o2, o3;
      o0.address = r("opd0_addr");
      o0.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
      o0.set_shape({n, c, h, w});
      o0.lay = layout_from_code(r("opd0_str"));
      o0.is_const = r("opd0_const") != 0;
      r0.address = r("res0_addr");
      r0.type = o0.type;
      r0.set_shape({n, c, h, w});
      r0.lay = layout::align_eu;
      r1 = r0;
      r1.address = r("res1_addr");
      r1.type = dtype_from_code(r("opd2_prec"));
      o1 = o0;
      o1.address = r("opd1_addr");
      o1.lay = layout_from_code(r("opd1_str"));
      o1.is_const = r("opd1_const") != 0;
      o2 = r1;
      o2.address = r("opd2_addr");
      o2.is_const = r("opd2_const") != 0;
      o3 = r1;
      o3.address = r("opd3_addr");
      o3.is_const = r("opd3_const") != 0;
      cv.add_op(o0);
      cv.add_op(o1);
      cv.add_op(o2);
      cv.add_op(o3);
      if (eu == 23 || eu == 24 || eu == 26) {
        r0.type = r1.type;
        cv.add_res(r0);
      } else {
        cv.add_res(r0);
        cv.add_res(r1);
      }
      break;
    }
    case 14: {  // VC
      opd o0, r0, o1;
      o0.address = r("opd0_addr");
      o0.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
      o0.set_shape({1, r("opd0_c"), 1, r("opd0_w")});
      o0.lay = layout::align_eu;
      r0.address = r("res0_addr");
      r0.type = dtype_from_prec(r("res0_prec"), 1);
      r0.set_shape({(r("opd0_c") - 1) * r("opd0_w") + r("opd1_w"), c, 1, w});
      r0.lay = layout::align_eu;
      o1.address = r("opd1_addr");
      o1.type = dtype_from_prec(r("opd1_prec"), r("opd1_sign"));
      o1.set_shape({1, c, 1, w});
      o1.lay = layout::align_eu;
      cv.add_op(o0);
      cv.add_op(o1);
      cv.add_res(r0);
      break;
    }
    case 15:  // SYS: no operands
      break;
    default:  // LAR: the vendor has no converter
      cv.supported = false;
      break;
  }
  return cv;
}

/// alg (is_arch = false) or arch ops of a TIU command (opdef_1684x.py).
inline std::optional<std::int64_t> tiu_ops(unsigned type, unsigned eu, const regs_of& r,
                                           const converted& cv, const instruction& ins, bool arch) {
  if (type == 15) return 1;
  if (ins.results.empty() || ins.operands.empty()) return std::nullopt;
  const auto& res = ins.results[0];
  const auto& op0 = ins.operands[0];
  const i128 eun = eu_num(op0.type);
  if (arch && eun == 0) return std::nullopt;
  const i128 npu = npu_num;
  auto s = [](const tensor_ref& t, unsigned i) -> i128 {
    return i < t.rank ? static_cast<i128>(t.shape[i]) : 0;
  };
  const i128 n = s(res, 0), c = s(res, 1), h = s(res, 2), w = s(res, 3);
  i128 v = 0;
  switch (type) {
    case 0: {  // CONV: has_bias is always true (four operands)
      i128 ic = s(op0, 1), oc = c, oh = h, ow = w;
      const i128 has_bias = ins.operands.size() > 2 ? 1 : 0;
      if (arch) {
        ic = align_up(ic, npu);
        ow = align_up(oh * ow, eun);
        oh = 1;
        oc = align_up(oc, npu);
      }
      v = n * oc * oh * ow *
          (2 * ic * static_cast<i128>(cv.kh) * static_cast<i128>(cv.kw) - 1 + has_bias);
      break;
    }
    case 1: {  // PD
      i128 kh = static_cast<i128>(r("opd1_h")), kw = static_cast<i128>(r("opd1_w")), factor = 1;
      if (eu == 1 || eu == 4)
        factor = static_cast<i128>(ins.results.size());
      else if (eu == 0)
        factor = 2;
      else if (eu == 2)
        factor = 3;
      else {
        kh = kw = 1;
        factor = 7;
      }
      i128 cc = c, hh = h, ww = w;
      if (arch) {
        cc = align_up(c, npu);
        ww = align_up(h * w, eun);
        hh = 1;
      }
      v = n * cc * hh * ww * (factor * kh * kw - 1);
      break;
    }
    case 2: {
      if (ins.operands.size() < 2) return std::nullopt;
      const auto& op1 = ins.operands[1];
      i128 m = s(op0, 0), lk = s(op0, 1), rk = s(op1, 0), nn = s(op1, 1);
      const i128 has_bias = ins.operands.size() > 2 ? 1 : 0;
      if (eu >= 4) {  // MM2
        if (eu == 5 || eu == 6) std::swap(rk, nn);
        if (eu == 6) std::swap(lk, m);
        i128 k = lk;
        if (arch) {
          k = align_up(k, eun);
          m = align_up(m, npu);
        }
        v = m * nn * (2 * k - 1 + has_bias);
      } else {  // MM
        if (r("left_tran")) std::swap(lk, m);
        const i128 k = lk;
        const i128 res_add = static_cast<i128>(r("res_add"));
        if (arch)
          nn = align_up(static_cast<i128>(r("res0_c")), npu) *
               align_up(static_cast<i128>(r("res0_w")), eun);
        v = m * nn * (2 * k - 1 + has_bias + res_add);
      }
      break;
    }
    case 3:
    case 4:
    case 13: {  // AR (div x5), RQDQ (x3), CMP (x2): n * c * (h*w)
      const i128 factor = type == 4 ? 3 : type == 13 ? 2 : (eu == 12 ? 5 : 1);
      i128 cc = c, hw = h * w;
      if (arch) {
        cc = align_up(c, npu);
        hw = align_up(h * w, eun);
      }
      v = n * cc * hw * factor;
      break;
    }
    case 5: {  // TRANS_BC
      i128 cc = c, hw = h * w;
      if (arch) {
        cc = align_up(c, npu);
        hw = eu >= 2 ? align_up(h * w, eun) : h * align_up(w, eun);
      }
      v = n * cc * hw;
      break;
    }
    case 6:
    case 10:
    case 14: {  // SG/SGL (x1), LIN (x2), VC (x1): w aligned alone
      const i128 factor = type == 10 ? 2 : 1;
      i128 cc = c, ww = w;
      if (arch) {
        cc = align_up(c, npu);
        ww = align_up(w, eun);
      }
      v = n * cc * h * ww * factor;
      break;
    }
    case 9: {  // SFU: shape of operand 0
      const i128 on = s(op0, 0), oc = s(op0, 1), oh = s(op0, 2), ow = s(op0, 3);
      i128 factor = 1;
      if (eu == 12 || eu == 13)
        factor = 2 * static_cast<i128>(r("opd1_n")) - 1;
      else if (eu == 17)
        factor = static_cast<i128>(r("opd2_n_str")) + 1;
      i128 cc = oc, hw = oh * ow;
      if (arch) {
        cc = align_up(oc, npu);
        hw = align_up(oh * ow, eun);
      }
      v = static_cast<i128>(ins.results.size()) * on * cc * hw * factor;
      break;
    }
    default:
      return std::nullopt;
  }
  return sat64(v);
}

inline converted convert_dma(const regs_of& r, unsigned type, unsigned sf) {
  converted cv;
  const std::uint64_t mask = (r("localmem_mask_h32") << 32) | r("localmem_mask_l32");
  const std::uint64_t src = (r("src_start_addr_h8") << 32) | r("src_start_addr_l32");
  const std::uint64_t dst = (r("dst_start_addr_h8") << 32) | r("dst_start_addr_l32");
  const dtype t = dtype_from_code(r("src_data_format"));
  auto sstr = [&](char d) {
    const char k[] = {'s', 'r', 'c', '_', d, 's', 't', 'r', 'i', 'd', 'e'};
    return static_cast<std::int64_t>(r(std::string_view(k, sizeof k)));
  };
  auto dstr = [&](char d) {
    const char k[] = {'d', 's', 't', '_', d, 's', 't', 'r', 'i', 'd', 'e'};
    return static_cast<std::int64_t>(r(std::string_view(k, sizeof k)));
  };
  auto ssz = [&](char d) {
    const char k[] = {'s', 'r', 'c', '_', d, 's', 'i', 'z', 'e'};
    return r(std::string_view(k, sizeof k));
  };
  auto dsz = [&](char d) {
    const char k[] = {'d', 's', 't', '_', d, 's', 'i', 'z', 'e'};
    return r(std::string_view(k, sizeof k));
  };
  const bool fill = r("fill_constant_en") != 0;
  opd constant;
  constant.is_const = true;
  constant.address = r("constant_value");
  constant.type = t;
  auto base = [&](opd& o0, opd& r0) {
    o0.address = src;
    o0.type = t;
    o0.set_shape({ssz('n'), ssz('c'), ssz('h'), ssz('w')});
    o0.set_stride({sstr('n'), sstr('c'), sstr('h'), sstr('w')});
    o0.lay = layout::dma_stride;
    o0.mask = mask;
    r0.address = dst;
    r0.type = t;
    r0.set_shape({dsz('n'), dsz('c'), dsz('h'), dsz('w')});
    r0.set_stride({dstr('n'), dstr('c'), dstr('h'), dstr('w')});
    r0.lay = layout::dma_stride;
    r0.mask = mask;
    if (r("nchw_copy")) {
      r0.shape = o0.shape;
      r0.rank = o0.rank;
    }
  };
  switch (type) {
    case 0: {  // TENSOR
      opd o0, r0;
      base(o0, r0);
      if (sf == 3 || sf == 6) {
        o0.shape[1] = 1;
        r0.shape[1] = dsz('c');
      } else if (sf == 1) {
        r0.set_shape({o0.shape[1], o0.shape[0], o0.shape[2], o0.shape[3]});
      } else if (sf == 2 || sf == 4) {
        r0.set_shape({o0.shape[0], o0.shape[3], o0.shape[2], o0.shape[1]});
      }
      if (sf != 0) {
        o0.stride[3] = 1;
        r0.stride[3] = 1;
      }
      if (sf == 3 || sf == 4) o0.lay = r0.lay = layout::stride;
      if (sf == 5 || sf == 6) {  // the vendor raises here (a misspelt field)
        o0.shape[1] = 0;
        r0.lay = layout::dma_4bank;
        cv.supported = false;
      }
      cv.add_op(fill ? constant : o0);
      cv.add_res(r0);
      break;
    }
    case 1: {  // MATRIX
      opd o0, r0;
      base(o0, r0);
      const bool trans = sf == 1;
      if (src >= lmem_base && src < lmem_end && !fill) {
        std::uint64_t H = r0.shape[2], W = r0.shape[3];
        const std::int64_t hs = r0.stride[2];
        r0.set_shape({1, 1, H, W});
        r0.set_stride({0, 0, hs, 1});
        if (trans) std::swap(H, W);
        o0.set_shape({H, W});
        o0.lay = layout::dma_matrix;
        o0.w = static_cast<std::uint32_t>(ssz('w'));
        o0.set_stride({o0.stride[0], o0.stride[1], 0, 1});
      } else {
        std::uint64_t H = o0.shape[2], W = o0.shape[3];
        const std::int64_t hs = o0.stride[2];
        o0.set_shape({1, 1, H, W});
        o0.set_stride({0, 0, hs, 1});
        if (trans) std::swap(H, W);
        r0.set_shape({H, W});
        r0.set_stride({r0.stride[0], r0.stride[1], 0, 1});
        r0.lay = layout::dma_matrix;
        r0.w = static_cast<std::uint32_t>(dsz('w'));
      }
      cv.add_op(fill ? constant : o0);
      cv.add_res(r0);
      break;
    }
    case 2: {  // MASKED_SEL
      opd o0, r0, o1;
      const std::uint64_t n = ssz('n'), c = ssz('c'), h = ssz('h'), w = ssz('w');
      o0.address = src;
      o0.type = t;
      o0.set_shape({n, c, h, w});
      o0.lay = layout::align_eu;
      r0.address = dst;
      r0.type = t;
      r0.set_shape({n, c, h, w});
      r0.set_stride({static_cast<std::int64_t>(c * h * w), static_cast<std::int64_t>(h * w),
                     static_cast<std::int64_t>(w)});
      o1.address = (r("mask_start_addr_h8") << 32) | r("mask_start_addr_l32");
      o1.type = dtype_from_code(r("mask_data_format"));
      o1.set_shape({n, c, h, w});
      o1.lay = layout::align_eu;
      cv.add_op(o0);
      cv.add_op(o1);
      cv.add_res(r0);
      break;
    }
    case 3: {  // GENERAL
      const std::uint64_t len = r("src_cstride");
      opd o0, r0;
      o0.address = src;
      o0.type = t;
      o0.set_shape({len});
      o0.set_stride({1});
      o0.lay = layout::dma_linear;
      r0 = o0;
      r0.address = dst;
      if (sf == 1) {
        r0.set_shape({dsz('c'), len});
        r0.set_stride({static_cast<std::int64_t>(lane_size), 1});
      }
      cv.add_op(fill ? constant : o0);
      cv.add_res(r0);
      break;
    }
    case 4: {  // CW_TRANS
      opd o0, r0;
      const std::uint64_t n = ssz('n'), c = ssz('c'), h = ssz('h'), w = ssz('w');
      o0.address = src;
      o0.type = t;
      o0.set_shape({n, c, h, w});
      o0.set_stride({sstr('n'), sstr('c'), sstr('h'), 1});
      o0.lay = layout::dma_stride;
      o0.mask = mask;
      r0 = o0;
      r0.address = dst;
      r0.set_shape({n, w, h, c});
      r0.set_stride({dstr('n'), dstr('c'), dstr('h'), 1});
      cv.add_op(fill ? constant : o0);
      cv.add_res(r0);
      break;
    }
    case 5: {  // NONZERO
      opd o0, r0;
      const std::uint64_t n = ssz('n'), c = ssz('c'), h = ssz('h'), w = ssz('w');
      o0.address = src;
      o0.type = t;
      o0.set_shape({n, c, h, w});
      o0.set_stride({static_cast<std::int64_t>(c * h * w), static_cast<std::int64_t>(h * w),
                     static_cast<std::int64_t>(w), 1});
      o0.lay = layout::align_eu;
      r0 = o0;
      r0.address = dst;
      r0.set_shape({n, h, w, c});
      cv.add_op(o0);
      cv.add_res(r0);
      break;
    }
    case 7:
    case 8: {  // GATHER / SCATTER
      const std::uint64_t c = ssz('c'), h = ssz('h'), w = ssz('w');
      const std::uint64_t dh = r("nchw_copy") ? h : dsz('h');
      const std::uint64_t ic = r("index_csize");
      opd o0, r0, o1;
      o0.address = src;
      o0.type = t;
      o0.set_shape({1, c, h, w});
      o0.set_stride({0, sstr('c'), sstr('h'), 1});
      o0.lay = layout::stride;
      r0.address = dst;
      r0.type = t;
      r0.set_shape({1, std::max(c, ic), dh, w});
      r0.set_stride({0, dstr('c'), dstr('h'), 1});
      r0.lay = layout::dma_stride;
      r0.mask = mask;
      o1.address = (r("index_start_addr_h8") << 32) | r("index_start_addr_l32");
      o1.type = dtype::ui32;
      o1.set_shape({1, ic, dh, 1});
      o1.set_stride({0, static_cast<std::int64_t>(r("index_cstride")),
                     static_cast<std::int64_t>(r("index_hstride")), 1});
      o1.lay = layout::stride;
      cv.add_op(o0);
      cv.add_op(o1);
      cv.add_res(r0);
      break;
    }
    default:  // SYS: no operands
      break;
  }
  return cv;
}

inline const reg_table* tiu_table(unsigned type, unsigned eu, bool short_form) noexcept {
  namespace R = regs::bm1684x;
  switch (type) {
    case 0:
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
      return short_form ? &R::s_trans_sbc : &R::trans_bc;
    case 6:
      if (eu >= 17) return short_form ? &R::s_sgl : &R::sgl;
      return short_form ? &R::s_sg : &R::sg;
    case 7:
      return &R::lar;
    case 9:
      return short_form ? &R::s_sfu : &R::sfu;
    case 10:
      return short_form ? &R::s_lin : &R::lin;
    case 13:
      return short_form ? &R::s_cmp : &R::cmp;
    case 14:
      return short_form ? &R::s_vc : &R::vc;
    case 15:
      return &R::sysid;
    default:
      return nullptr;
  }
}

inline const reg_table* dma_table(unsigned type, bool short_form) noexcept {
  namespace R = regs::bm1684x;
  switch (type) {
    case 0:
      return short_form ? nullptr : &R::dma_tensor;
    case 1:
      return short_form ? &R::s_dma_matrix : &R::dma_matrix;
    case 2:
      return short_form ? &R::s_dma_masked_select : &R::dma_masked_select;
    case 3:
      return short_form ? &R::s_dma_general : &R::dma_general;
    case 4:
      return short_form ? nullptr : &R::dma_cw_transpose;
    case 5:
      return short_form ? &R::s_dma_nonzero : &R::dma_nonzero;
    case 6:
      return short_form ? &R::s_dma_sys : nullptr;
    case 7:
      return short_form ? nullptr : &R::dma_gather;
    case 8:
      return short_form ? nullptr : &R::dma_scatter;
    default:
      return nullptr;
  }
}

}  // namespace detail

/// Why a descriptor decoded only partly (or not at all).
enum class decode_status : std::uint8_t {
  ok,
  unsupported,  ///< a form the vendor's tables do not convert (e.g. LAR, RQ eu 2): no operands/ops
  unknown_opcode,
  truncated,  ///< fewer bytes than the form's length
};

/// Decodes one command at the start of `data`. `eng` is tiu or gdma; `op` and
/// the identity come from framing (chips::bm1684x::frame_tiu / frame_gdma).
/// Never reads past `data`; never throws for bad input.
inline decode_status decode(engine eng, std::span<const std::byte> data, instruction& out) {
  out = instruction{};
  out.eng = eng;
  if (data.size() < 16) return decode_status::truncated;
  const std::uint64_t w0 = read_bits(data, 0, 64);
  const regs::reg_table* table = nullptr;
  if (eng == engine::tiu) {
    out.type = static_cast<unsigned>(read_bits(data, 41, 4));
    out.eu = static_cast<unsigned>(read_bits(data, 45, 5));
    out.short_form = (w0 & 1) != 0;
    table = detail::tiu_table(out.type, out.eu, out.short_form);
  } else {
    out.type = static_cast<unsigned>(read_bits(data, 32, 4));
    out.eu = static_cast<unsigned>(read_bits(data, 36, 3));
    out.short_form = read_bits(data, 3, 1) != 0;
    table = detail::dma_table(out.type, out.short_form);
  }
  if (!table) return decode_status::unknown_opcode;
  out.table = table;
  out.length = table->bytes();
  if (data.size() < out.length) return decode_status::truncated;
  const detail::regs_of r{reg_view(table, data.first(out.length))};
  out.cmd_id = static_cast<std::uint32_t>(r("cmd_id"));
  out.dep_id = static_cast<std::uint32_t>(r("cmd_id_dep"));
  const detail::converted cv = eng == engine::tiu ? detail::convert_tiu(r, out.type, out.eu)
                                                  : detail::convert_dma(r, out.type, out.eu);
  for (unsigned i = 0; i < cv.nops; ++i) out.operands.push_back(detail::make_value(cv.ops[i]));
  for (unsigned i = 0; i < cv.nres; ++i) out.results.push_back(detail::make_value(cv.res[i]));
  for (std::size_t i = 0; i < out.operands.size(); ++i)
    if (!out.operands[i].is_const())
      out.memory.push_back(
          detail::mem_record(out.operands[i], false, static_cast<std::uint8_t>(i)));
  for (std::size_t i = 0; i < out.results.size(); ++i)
    if (!out.results[i].is_const())
      out.memory.push_back(detail::mem_record(out.results[i], true, static_cast<std::uint8_t>(i)));
  if (eng == engine::tiu) {
    if (cv.supported) {
      out.alg_ops = detail::tiu_ops(out.type, out.eu, r, cv, out, false);
      out.arch_ops = detail::tiu_ops(out.type, out.eu, r, cv, out, true);
    }
  } else if (!out.operands.empty() && !out.results.empty()) {
    const auto& s = out.operands[0];
    const auto& d = out.results[0];
    out.dir = direction_of(s.kind, d.kind);
    out.bytes = detail::clamp_size(static_cast<detail::i128>(d.elements()) * item_size(d.type));
  }
  return cv.supported ? decode_status::ok : decode_status::unsupported;
}

}  // namespace tpuprof::regs::bm1684x_isa
