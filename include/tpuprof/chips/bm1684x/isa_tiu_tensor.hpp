/// BM1684X TIU converters for the tensor-core classes (CONV, PD, MM/MM2): register fields to
/// operand dicts, as opparam_1684x.py's converters build them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include <tpuprof/chips/bm1684x/isa_operands.hpp>

namespace tpuprof::regs::bm1684x_isa::detail {

/// CONV (type 0): input, kernel, bias and per-channel quantization operands; the kernel
/// size is kept for the op count.
inline void convert_conv(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
  opd o0;
  o0.address = r("opd0_addr");
  o0.set_shape({n, r("opd0_c"), r("opd0_h"), r("opd0_w")});
  set_strides(r, o0, "opd0");
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
}

/// PD (type 1): depthwise and pooling forms.
inline void convert_pd(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
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
    r0.type = dtype_from_prec(r("res0_prec"), or3(r("opd0_sign"), r("opd1_sign"), r("opd2_sign")));
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
}

/// MM (type 2, eu < 4: matrix layout with a row width) and MM2 (eu >= 4: nn/nt/tt).
inline void convert_mm(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t c = r("res0_c"), w = r("res0_w");
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
}

}  // namespace tpuprof::regs::bm1684x_isa::detail
