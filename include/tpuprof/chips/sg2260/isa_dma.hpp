/// sg2260 ISA, DMA converters: source and destination tensors of the GDMA/SDMA
/// forms (tensor, matrix, general, nchw-like, gather/scatter).
#pragma once

#include <utility>

#include <tpuprof/chips/sg2260/isa_types.hpp>

namespace tpuprof::regs::sg2260::detail {

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

}  // namespace tpuprof::regs::sg2260::detail
