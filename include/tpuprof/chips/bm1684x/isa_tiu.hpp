/// BM1684X TIU commands: the register form of a (type, eu) pair, the converter of each class
/// (a dispatch table over tsk_typ) and the alg/arch op counts (opdef_1684x.py).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include <tpuprof/chips/bm1684x/isa_operands.hpp>
#include <tpuprof/chips/bm1684x/isa_tiu_tensor.hpp>
#include <tpuprof/chips/bm1684x/isa_tiu_vector.hpp>
#include <tpuprof/chips/bm1684x/regs.hpp>

namespace tpuprof::regs::bm1684x_isa::detail {

/// SYS (type 15): no operands.
inline void convert_sys(const regs_of& /*r*/, unsigned /*eu*/, converted& /*cv*/) {}

using tiu_converter = void (*)(const regs_of&, unsigned, converted&);

/// Converter per tsk_typ; null where the vendor has none (LAR, unused types).
inline constexpr std::array<tiu_converter, 16> tiu_converters{
    convert_conv, convert_pd,  convert_mm, convert_ar,  convert_rqdq, convert_trans_bc,
    convert_sg,   nullptr,     nullptr,    convert_sfu, convert_lin,  nullptr,
    nullptr,      convert_cmp, convert_vc, convert_sys};

inline converted convert_tiu(const regs_of& r, unsigned type, unsigned eu) {
  converted cv;
  if (type < tiu_converters.size() && tiu_converters[type])
    tiu_converters[type](r, eu, cv);
  else
    cv.supported = false;  // LAR: the vendor has no converter
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

}  // namespace tpuprof::regs::bm1684x_isa::detail
