/// sg2260 ISA, ops: alg and arch ops of a TIU command (tpu-mlir opdef.py).
#pragma once

#include <optional>
#include <utility>

#include <tpuprof/chips/sg2260/isa_types.hpp>

namespace tpuprof::regs::sg2260::detail {

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

/// The i-th dimension of an operand's shape (0 past its rank).
template <class T>
constexpr i128 dim(const T& t, unsigned i) noexcept {
  return i < t.rank ? static_cast<i128>(t.shape[i]) : 0;
}

/// CONV ops (biasLat from opt_opd2_const); nullopt where the vendor has no cube count.
template <class Cv>
std::optional<i128> conv_ops(bool fp8, const tiu_facts<Cv>& tf, dtype t0, i128 eun, bool arch) {
  const Cv& cv = tf.cv;
  const auto& res = cv.res[0];
  const i128 n = dim(res, 0), c = dim(res, 1), h = dim(res, 2), w = dim(res, 3);
  const i128 kh = static_cast<i128>(tf.kh), kw = static_cast<i128>(tf.kw);
  const i128 bias = cv.nops > 2 && cv.ops[2].is_const ? 1 : 0;
  i128 ic = dim(cv.ops[0], 1), oc = c, oh = h, ow = w;
  if (arch) {
    i128 act = cube_ohow_align;
    if (t0 == dtype::f32) {
      act = eun;
    } else {
      const i128 cube = cube_num(t0, fp8);
      if (cube == 0) return std::nullopt;
      ic = align_up(ic, cube);
    }
    ow = align_up(oh * ow, act);
    oh = 1;
    oc = align_up(oc, npu_num);
  }
  return n * oc * oh * ow * (2 * ic * kh * kw - 1 + bias);
}

/// MM (eu 1) and MM2 (eu 4..7) ops.
template <class Cv>
std::optional<i128> mm_ops(bool fp8, unsigned eu, const tiu_facts<Cv>& tf, i128 eun, bool arch) {
  const Cv& cv = tf.cv;
  const i128 kh = static_cast<i128>(tf.kh), kw = static_cast<i128>(tf.kw);
  if (eu == 1) {  // MM: has_bias is always true (three operands)
    i128 nn = kw;
    if (arch) {
      if (eun == 0) return std::nullopt;
      nn = align_up(static_cast<i128>(tf.rc), npu_num) * align_up(static_cast<i128>(tf.rw), eun);
    }
    return static_cast<i128>(tf.aux) * nn * (2 * kh - 1 + (cv.nops > 2 ? 1 : 0));
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
    const i128 ch = eu_num(cv.res[0].type, fp8);
    if (ch == 0) return std::nullopt;
    k = align_up(k, cube_ohow_align);
    m = align_up(m, npu_num);
    nn = align_up(nn, ch);
  }
  return m * nn * k * 2;
}

/// Alg (arch = false) or arch ops of a TIU command (opdef.py); nullopt where
/// the vendor raises or has no value. `fp8`: the chip's EU tables list fp8 types.
template <class Cv>
std::optional<std::int64_t> tiu_ops(bool fp8, unsigned type, unsigned eu, const tiu_facts<Cv>& tf,
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
  const auto s = [](const auto& t, unsigned i) { return dim(t, i); };
  const i128 n = s(res, 0), c = s(res, 1), h = s(res, 2), w = s(res, 3);
  const i128 kh = static_cast<i128>(tf.kh), kw = static_cast<i128>(tf.kw);
  // Operand 0's dtype decides the EU count (the vendor raises without operands).
  const bool need_op0 = arch || type == 0 || type == 9;
  if (need_op0 && cv.nops == 0) return std::nullopt;
  const dtype t0 = cv.nops ? cv.ops[0].type : dtype::unknown;
  const i128 eun = eu_num(t0, fp8);
  if (arch && eun == 0 && type != 2 && type != 14) return std::nullopt;
  i128 v = 0;
  switch (type) {
    case 0: {  // CONV
      const auto r = conv_ops(fp8, tf, t0, eun, arch);
      if (!r) return std::nullopt;
      v = *r;
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
    case 2: {  // MM, MM2
      const auto r = mm_ops(fp8, eu, tf, eun, arch);
      if (!r) return std::nullopt;
      v = *r;
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

}  // namespace tpuprof::regs::sg2260::detail
