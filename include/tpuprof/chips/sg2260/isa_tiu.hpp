/// sg2260 ISA, TIU converters (1): CONV, MM, MM2, CMP, SFU, LIN, VC: operands and
/// results of a TIU form, as tpu-mlir's opparam.py converters read them.
#pragma once

#include <utility>

#include <tpuprof/chips/sg2260/isa_types.hpp>

namespace tpuprof::regs::sg2260::detail {

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

}  // namespace tpuprof::regs::sg2260::detail
