/// BM1684X TIU converters for the vector classes (AR, RQDQ, TRANS_BC, SG/SGL, SFU, LIN, CMP, VC):
/// register fields to operand dicts, as opparam_1684x.py's converters build them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include <tpuprof/chips/bm1684x/isa_operands.hpp>

namespace tpuprof::regs::bm1684x_isa::detail {

/// AR (type 3): tsk_opd_num of the three operands, with their own strides and layouts.
inline void convert_ar(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
  opd o0, r0, o1, o2;
  o0.address = r("opd0_addr");
  o0.type = dtype_from_prec(r("opd0_prec"), r("opd0_sign"));
  o0.set_shape({n, c, h, w});
  set_strides(r, o0, "opd0");
  o0.lay = layout_from_code(r("opd0_str"));
  o0.is_const = r("opd0_const") != 0;
  r0.address = r("res0_addr");
  r0.type = dtype_from_prec(r("res0_prec"), r("opd0_sign") ? r("opd0_sign") : r("opd1_sign"));
  r0.set_shape({n, c, h, w});
  set_strides(r, r0, "res0");
  r0.lay = layout_from_code(r("res0_str"));
  o1.address = r("opd1_addr");
  o1.type = dtype_from_prec(r("opd1_prec"), r("opd1_sign"));
  o1.set_shape({n, c, h, w});
  set_strides(r, o1, "opd1");
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
}

/// RQDQ (type 4): requantize / dequantize, scale operands packed after the first.
inline void convert_rqdq(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
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
}

/// TRANS_BC (type 5): transposes and broadcasts.
inline void convert_trans_bc(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
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
}

/// SG (type 6, gather/scatter) and SGL (eu 17, 18: line gather/scatter).
inline void convert_sg(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
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
    return;
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
}

/// SFU (type 9): the Taylor forms read a coefficient table.
inline void convert_sfu(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
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
}

/// LIN (type 10).
inline void convert_lin(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
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
}

/// CMP (type 13). The vendor's Layout.stride checks compare an int to an Enum: never true.
inline void convert_cmp(const regs_of& r, unsigned eu, converted& cv) {
  const std::uint64_t n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
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
}

/// VC (type 14).
inline void convert_vc(const regs_of& r, unsigned /*eu*/, converted& cv) {
  const std::uint64_t c = r("res0_c"), w = r("res0_w");
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
}

}  // namespace tpuprof::regs::bm1684x_isa::detail
