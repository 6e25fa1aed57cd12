/// BM1684X GDMA commands: the register form of a command type and one converter per type
/// (a dispatch table), as opparam_1684x.py's DMA converters build the operand dicts.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>

#include <tpuprof/chips/bm1684x/isa_operands.hpp>
#include <tpuprof/chips/bm1684x/regs.hpp>

namespace tpuprof::regs::bm1684x_isa::detail {

/// The fields every DMA converter reads: addresses, lane mask, dtype, fill constant.
struct dma_fields {
  regs_of r;
  std::uint64_t mask, src, dst;
  dtype t;
  bool fill;
  opd constant;

  explicit dma_fields(const regs_of& regs)
      : r(regs),
        mask((r("localmem_mask_h32") << 32) | r("localmem_mask_l32")),
        src((r("src_start_addr_h8") << 32) | r("src_start_addr_l32")),
        dst((r("dst_start_addr_h8") << 32) | r("dst_start_addr_l32")),
        t(dtype_from_code(r("src_data_format"))),
        fill(r("fill_constant_en") != 0) {
    constant.is_const = true;
    constant.address = r("constant_value");
    constant.type = t;
  }
  std::int64_t sstr(char d) const {
    const char k[] = {'s', 'r', 'c', '_', d, 's', 't', 'r', 'i', 'd', 'e'};
    return static_cast<std::int64_t>(r(std::string_view(k, sizeof k)));
  }
  std::int64_t dstr(char d) const {
    const char k[] = {'d', 's', 't', '_', d, 's', 't', 'r', 'i', 'd', 'e'};
    return static_cast<std::int64_t>(r(std::string_view(k, sizeof k)));
  }
  std::uint64_t ssz(char d) const {
    const char k[] = {'s', 'r', 'c', '_', d, 's', 'i', 'z', 'e'};
    return r(std::string_view(k, sizeof k));
  }
  std::uint64_t dsz(char d) const {
    const char k[] = {'d', 's', 't', '_', d, 's', 'i', 'z', 'e'};
    return r(std::string_view(k, sizeof k));
  }
  /// Source and destination as strided tensors of the n/c/h/w sizes and strides.
  void base(opd& o0, opd& r0) const {
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
  }
};

/// TENSOR (type 0): the special functions reshape or transpose; the 4-bank forms are where
/// the vendor raises (a misspelt field).
inline void convert_dma_tensor(const dma_fields& f, unsigned sf, converted& cv) {
  opd o0, r0;
  f.base(o0, r0);
  if (sf == 3 || sf == 6) {
    o0.shape[1] = 1;
    r0.shape[1] = f.dsz('c');
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
  cv.add_op(f.fill ? f.constant : o0);
  cv.add_res(r0);
}

/// MATRIX (type 1): the local memory side in matrix layout, the other as rows.
inline void convert_dma_matrix(const dma_fields& f, unsigned sf, converted& cv) {
  opd o0, r0;
  f.base(o0, r0);
  const bool trans = sf == 1;
  if (f.src >= lmem_base && f.src < lmem_end && !f.fill) {
    std::uint64_t H = r0.shape[2], W = r0.shape[3];
    const std::int64_t hs = r0.stride[2];
    r0.set_shape({1, 1, H, W});
    r0.set_stride({0, 0, hs, 1});
    if (trans) std::swap(H, W);
    o0.set_shape({H, W});
    o0.lay = layout::dma_matrix;
    o0.w = static_cast<std::uint32_t>(f.ssz('w'));
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
    r0.w = static_cast<std::uint32_t>(f.dsz('w'));
  }
  cv.add_op(f.fill ? f.constant : o0);
  cv.add_res(r0);
}

/// MASKED_SEL (type 2): source, mask and a compact result.
inline void convert_dma_masked_select(const dma_fields& f, unsigned /*sf*/, converted& cv) {
  opd o0, r0, o1;
  const std::uint64_t n = f.ssz('n'), c = f.ssz('c'), h = f.ssz('h'), w = f.ssz('w');
  o0.address = f.src;
  o0.type = f.t;
  o0.set_shape({n, c, h, w});
  o0.lay = layout::align_eu;
  r0.address = f.dst;
  r0.type = f.t;
  r0.set_shape({n, c, h, w});
  r0.set_stride({static_cast<std::int64_t>(c * h * w), static_cast<std::int64_t>(h * w),
                 static_cast<std::int64_t>(w)});
  o1.address = (f.r("mask_start_addr_h8") << 32) | f.r("mask_start_addr_l32");
  o1.type = dtype_from_code(f.r("mask_data_format"));
  o1.set_shape({n, c, h, w});
  o1.lay = layout::align_eu;
  cv.add_op(o0);
  cv.add_op(o1);
  cv.add_res(r0);
}

/// GENERAL (type 3): a linear copy (sf 1: broadcast over lanes).
inline void convert_dma_general(const dma_fields& f, unsigned sf, converted& cv) {
  const std::uint64_t len = f.r("src_cstride");
  opd o0, r0;
  o0.address = f.src;
  o0.type = f.t;
  o0.set_shape({len});
  o0.set_stride({1});
  o0.lay = layout::dma_linear;
  r0 = o0;
  r0.address = f.dst;
  if (sf == 1) {
    r0.set_shape({f.dsz('c'), len});
    r0.set_stride({static_cast<std::int64_t>(lane_size), 1});
  }
  cv.add_op(f.fill ? f.constant : o0);
  cv.add_res(r0);
}

/// CW_TRANS (type 4).
inline void convert_dma_cw_transpose(const dma_fields& f, unsigned /*sf*/, converted& cv) {
  opd o0, r0;
  const std::uint64_t n = f.ssz('n'), c = f.ssz('c'), h = f.ssz('h'), w = f.ssz('w');
  o0.address = f.src;
  o0.type = f.t;
  o0.set_shape({n, c, h, w});
  o0.set_stride({f.sstr('n'), f.sstr('c'), f.sstr('h'), 1});
  o0.lay = layout::dma_stride;
  o0.mask = f.mask;
  r0 = o0;
  r0.address = f.dst;
  r0.set_shape({n, w, h, c});
  r0.set_stride({f.dstr('n'), f.dstr('c'), f.dstr('h'), 1});
  cv.add_op(f.fill ? f.constant : o0);
  cv.add_res(r0);
}

/// NONZERO (type 5).
inline void convert_dma_nonzero(const dma_fields& f, unsigned /*sf*/, converted& cv) {
  opd o0, r0;
  const std::uint64_t n = f.ssz('n'), c = f.ssz('c'), h = f.ssz('h'), w = f.ssz('w');
  o0.address = f.src;
  o0.type = f.t;
  o0.set_shape({n, c, h, w});
  o0.set_stride({static_cast<std::int64_t>(c * h * w), static_cast<std::int64_t>(h * w),
                 static_cast<std::int64_t>(w), 1});
  o0.lay = layout::align_eu;
  r0 = o0;
  r0.address = f.dst;
  r0.set_shape({n, h, w, c});
  cv.add_op(o0);
  cv.add_res(r0);
}

/// GATHER / SCATTER (types 7, 8): source, index table and result.
inline void convert_dma_gather_scatter(const dma_fields& f, unsigned /*sf*/, converted& cv) {
  const std::uint64_t c = f.ssz('c'), h = f.ssz('h'), w = f.ssz('w');
  const std::uint64_t dh = f.r("nchw_copy") ? h : f.dsz('h');
  const std::uint64_t ic = f.r("index_csize");
  opd o0, r0, o1;
  o0.address = f.src;
  o0.type = f.t;
  o0.set_shape({1, c, h, w});
  o0.set_stride({0, f.sstr('c'), f.sstr('h'), 1});
  o0.lay = layout::stride;
  r0.address = f.dst;
  r0.type = f.t;
  r0.set_shape({1, std::max(c, ic), dh, w});
  r0.set_stride({0, f.dstr('c'), f.dstr('h'), 1});
  r0.lay = layout::dma_stride;
  r0.mask = f.mask;
  o1.address = (f.r("index_start_addr_h8") << 32) | f.r("index_start_addr_l32");
  o1.type = dtype::ui32;
  o1.set_shape({1, ic, dh, 1});
  o1.set_stride({0, static_cast<std::int64_t>(f.r("index_cstride")),
                 static_cast<std::int64_t>(f.r("index_hstride")), 1});
  o1.lay = layout::stride;
  cv.add_op(o0);
  cv.add_op(o1);
  cv.add_res(r0);
}

/// SYS (type 6): no operands.
inline void convert_dma_sys(const dma_fields& /*f*/, unsigned /*sf*/, converted& /*cv*/) {}

using dma_converter = void (*)(const dma_fields&, unsigned, converted&);

/// Converter per cmd_type; SYS and unknown types have no operands.
inline constexpr std::array<dma_converter, 9> dma_converters{
    convert_dma_tensor,  convert_dma_matrix,         convert_dma_masked_select,
    convert_dma_general, convert_dma_cw_transpose,   convert_dma_nonzero,
    convert_dma_sys,     convert_dma_gather_scatter, convert_dma_gather_scatter};

inline converted convert_dma(const regs_of& r, unsigned type, unsigned sf) {
  converted cv;
  const dma_fields f(r);
  if (type < dma_converters.size()) dma_converters[type](f, sf, cv);
  return cv;
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

}  // namespace tpuprof::regs::bm1684x_isa::detail
