/// sg2260 ISA, TIU converters (2): AR, PorD, CW&BC, RQ&DQ, SG, SGL: operands and
/// results of a TIU form, as tpu-mlir's opparam.py converters read them.
#pragma once

#include <tpuprof/chips/sg2260/isa_types.hpp>

namespace tpuprof::regs::sg2260::detail {

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

}  // namespace tpuprof::regs::sg2260::detail
