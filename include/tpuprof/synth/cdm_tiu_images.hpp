/// cdm_tiu_images: plausible short-form TIU register images (DYN_EXTRA, mode 2)
/// for the SG2260-family generator: shapes, strides, precisions, operand
/// counts and local-memory addresses per class, so that decoders compute ops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/decode/cdm/format.hpp>
#include <tpuprof/regs/reg_table.hpp>

namespace tpuprof::synth::cdm_images {

/// Register precision codes (opt_*_prec): the DYN_DATA word's dtype 0..2 are
/// the first three.
inline constexpr unsigned int8 = 0, fp16 = 1, fp32 = 2, int32 = 4, bf16 = 5;

/// Bytes of an element of precision `p`.
constexpr unsigned prec_bytes(unsigned p) noexcept {
  return p == fp32 || p == int32 ? 4 : p == int8 ? 1 : 2;
}

/// What the writer chose, for checks by hand. Elementwise classes fill n, c,
/// h, w; CONV adds ic, kh, kw (output n·c·h·w); PorD kh, kw; MM2 m, k, nn (the
/// product is m×k by k×nn); SFU k = table length; VC h = rows of opd0.
struct tiu_shape {
  std::uint64_t n = 1, c = 1, h = 1, w = 1;
  std::uint64_t ic = 0, kh = 1, kw = 1;
  std::uint64_t m = 0, k = 0, nn = 0;
  unsigned in_prec = 0, res_prec = 0;
  bool bias_const = false;  ///< CONV: opt_opd2_const
};

/// One register image and the shape behind it.
struct tiu_image {
  std::vector<std::byte> bytes;
  tiu_shape shape;
};

namespace detail {

/// Field F of form T, or G where the form names it so (AKSV renames a few).
template <const regs::reg_table& T, regs::fixed_name F>
void put(std::vector<std::byte>& d, std::uint64_t v) noexcept {
  static_assert(regs::has_field<T, F>, "no such field in this form");
  constexpr regs::reg_field f = T.fields[*T.find(F.view())];
  if (f.width < 64) v &= (std::uint64_t{1} << f.width) - 1;
  for (unsigned i = 0; i < f.width; ++i)
    if ((v >> i) & 1) d[(f.lo + i) / 8] |= static_cast<std::byte>(1u << ((f.lo + i) % 8));
}
template <const regs::reg_table& T, regs::fixed_name F, regs::fixed_name G>
void put_or(std::vector<std::byte>& d, std::uint64_t v) noexcept {
  if constexpr (regs::has_field<T, F>)
    put<T, F>(d, v);
  else
    put<T, G>(d, v);
}
/// An 18-bit stride: one field on AKS, `_15_0` and `_17_16` halves on AKSV.
template <const regs::reg_table& T, regs::fixed_name F, regs::fixed_name Lo, regs::fixed_name Hi>
void put_stride(std::vector<std::byte>& d, std::uint64_t v) noexcept {
  if constexpr (regs::has_field<T, F>) {
    put<T, F>(d, v);
  } else {
    put<T, Lo>(d, v & 0xFFFF);
    put<T, Hi>(d, v >> 16);
  }
}

constexpr std::uint64_t align_up(std::uint64_t x, std::uint64_t a) noexcept {
  return (x + a - 1) / a * a;
}
/// Execution units per lane for precision p (64 bytes of a lane per cycle).
constexpr std::uint64_t eu_of(unsigned p) noexcept {
  return 64 / prec_bytes(p);
}
/// alignEU strides (n, c, h, w) of an n·c·h·w local tensor starting on lane 0.
struct strides {
  std::uint64_t n, c, h, w;
};
constexpr strides align_eu(std::uint64_t c, std::uint64_t h, std::uint64_t w, unsigned p) noexcept {
  const std::uint64_t cs = align_up(h * w, eu_of(p));
  return {(c + 63) / 64 * cs, cs, w, 1};
}
/// A per-lane local-memory offset: bank `bank` of 16 KiB, 64-byte aligned slot.
template <class Rnd>
std::uint64_t lmem(unsigned bank, Rnd& rnd) {
  return std::uint64_t{bank} * 16384 + static_cast<std::uint64_t>(rnd(0, 63)) * 64;
}
/// Sign bit of a precision: integers are signed, floats carry 0.
constexpr unsigned sign_of(unsigned p) noexcept {
  return p == int8 || p == int32 ? 1 : 0;
}

template <const regs::reg_table& T>
void head(std::vector<std::byte>& d, unsigned tsk, unsigned eu) {
  put<T, "cmd_short">(d, 1);
  put<T, "tsk_typ">(d, tsk);
  put<T, "tsk_eu_typ">(d, eu);
}

#define TPUPROF_SYNTH_STR(T, p, x, v) \
  put_stride<T, #p "_" #x "_str", #p "_" #x "_str_15_0", #p "_" #x "_str_17_16">(d, v)

/// sCONV: n·ic·ih·iw (*) oc·ic·k·k -> n·oc·oh·ow; INT8 requantises with
/// constant zero point and multiplier (opd4/opd5 as immediates).
/// `lane_c` (> 0, `synth --inject lane-underuse`) replaces the drawn output channels (the
/// lane dimension: SG2260 pads oc to the NPU count, ic only to the cube).
template <const regs::reg_table& T, class Rnd>
tiu_shape conv(std::vector<std::byte>& d, unsigned res, Rnd& rnd, std::uint64_t lane_c = 0) {
  tiu_shape s;
  static constexpr unsigned f32_inputs[] = {fp16, bf16, fp32};
  const unsigned in = res == int8 ? int8 : res == fp16 ? fp16 : f32_inputs[rnd(0, 2)];
  static constexpr std::uint64_t ks[] = {1, 3, 3, 5};
  const std::uint64_t kk = ks[rnd(0, 3)], st = static_cast<std::uint64_t>(rnd(1, 2));
  s.n = static_cast<std::uint64_t>(rnd(1, 2));
  s.c = static_cast<std::uint64_t>(rnd(2, 16)) * 16;
  if (lane_c) s.c = lane_c;
  s.ic = static_cast<std::uint64_t>(rnd(2, 16)) * 16;
  s.h = static_cast<std::uint64_t>(rnd(1, 16));
  s.w = static_cast<std::uint64_t>(rnd(1, 32));
  s.kh = s.kw = kk;
  s.in_prec = in;
  s.res_prec = res;
  s.bias_const = rnd(0, 3) == 0;
  const std::uint64_t pad = kk / 2;
  const std::uint64_t ih = (s.h - 1) * st + kk - 2 * pad, iw = (s.w - 1) * st + kk - 2 * pad;
  put_or<T, "res0_n", "opd0_n">(d, s.n);
  put<T, "res0_c">(d, s.c);
  put<T, "res0_h">(d, s.h);
  put<T, "res0_w">(d, s.w);
  put<T, "opd0_c">(d, s.ic);
  put<T, "opd0_h">(d, ih);
  put<T, "opd0_w">(d, iw);
  put<T, "opd1_h">(d, kk);
  put<T, "opd1_w">(d, kk);
  put<T, "res_op_x_str">(d, st);
  put<T, "res_op_y_str">(d, st);
  put<T, "opd0_up_pad">(d, pad);
  put<T, "opd0_dn_pad">(d, pad);
  put<T, "opd0_lf_pad">(d, pad);
  put<T, "opd0_rt_pad">(d, pad);
  const auto s0 = align_eu(s.ic, ih, iw, in);
  put<T, "opd0_n_str">(d, s0.n);
  put<T, "opd0_c_str">(d, s0.c);
  put<T, "opd0_h_str">(d, s0.h);
  put<T, "opd0_w_str">(d, s0.w);
  put<T, "opt_res0_prec">(d, res);
  put<T, "opt_opd0_prec">(d, in);
  put<T, "opt_opd1_prec">(d, in);
  put<T, "opt_opd2_prec">(d, int32);  // bias
  put<T, "opt_opd0_sign">(d, sign_of(in));
  put<T, "opt_opd1_sign">(d, sign_of(in));
  put<T, "opt_opd2_sign">(d, 1);
  put<T, "opt_res0_sign">(d, sign_of(res));
  if (res == int8) {  // requantised output: zero point and multiplier as immediates
    put<T, "opt_rq">(d, 1);
    put<T, "opt_opd4_const">(d, 1);
    put<T, "opt_opd5_const">(d, 1);
  }
  put<T, "opt_opd2_const">(d, s.bias_const);
  put<T, "opt_opd3_const">(d, 1);  // padding value: an immediate 0
  put<T, "opd0_addr">(d, lmem(0, rnd));
  put<T, "opd1_addr">(d, lmem(4, rnd));
  put<T, "opd2_addr">(d, s.bias_const ? 0 : lmem(12, rnd));
  put<T, "res0_addr">(d, lmem(8, rnd));
  return s;
}

/// sMM2 NN (eu 4) / NT (eu 5): m×k by k×nn (NT: the right matrix stored nn×k).
/// `lane_c` (> 0, `synth --inject lane-underuse`) replaces the drawn rows m (the lane dimension).
template <const regs::reg_table& T, class Rnd>
tiu_shape mm2(std::vector<std::byte>& d, unsigned eu, unsigned res, Rnd& rnd,
              std::uint64_t lane_c = 0) {
  tiu_shape s;
  static constexpr unsigned f32_inputs[] = {fp16, bf16, fp32};
  const unsigned in = res == int8 ? int8 : res == fp16 ? fp16 : f32_inputs[rnd(0, 2)];
  s.m = static_cast<std::uint64_t>(rnd(8, 256));
  if (lane_c) s.m = lane_c;
  s.k = static_cast<std::uint64_t>(rnd(2, 32)) * 16;
  s.nn = static_cast<std::uint64_t>(rnd(1, 64)) * 8;
  s.in_prec = in;
  s.res_prec = res;
  put<T, "res0_c">(d, s.m);
  put<T, "res0_w">(d, s.nn);
  put<T, "opd1_c">(d, eu == 5 ? s.nn : s.k);
  put<T, "opd1_w">(d, eu == 5 ? s.k : s.nn);
  put<T, "opt_res0_prec">(d, res);
  put<T, "opt_opd0_prec">(d, in);
  put<T, "opt_opd1_prec">(d, in);
  put<T, "opt_opd0_sign">(d, sign_of(in));
  put<T, "opt_opd1_sign">(d, sign_of(in));
  put<T, "opt_res0_sign">(d, sign_of(res));
  const bool bias = rnd(0, 1) == 0;
  if (in == int8) {  // INT32 bias, requant with immediate zero point and multiplier
    put<T, "opt_opd2_prec">(d, int32);
    put<T, "opt_opd2_sign">(d, 1);
    put<T, "opt_rq">(d, 1);
    put<T, "opt_opd4_const">(d, 1);
    put<T, "opt_opd5_const">(d, 1);
  } else {
    put<T, "opt_opd2_prec">(d, fp32);
  }
  put<T, "opt_opd2_const">(d, bias ? 0 : 1);
  put<T, "opd0_addr">(d, lmem(0, rnd));
  put<T, "opd1_addr">(d, lmem(4, rnd));
  put<T, "opd2_addr">(d, bias ? lmem(12, rnd) : 0);
  put<T, "res0_addr">(d, lmem(8, rnd));
  return s;
}

/// Elementwise n·c·h·w shape that fits the local memory.
template <class Rnd>
tiu_shape nchw(Rnd& rnd) {
  tiu_shape s;
  s.n = static_cast<std::uint64_t>(rnd(1, 2));
  s.c = static_cast<std::uint64_t>(rnd(16, 256));
  s.h = static_cast<std::uint64_t>(rnd(1, 16));
  s.w = static_cast<std::uint64_t>(rnd(8, 64));
  return s;
}

/// sAR: mul/add (eu 0/2, two operands, opd1 sometimes a scalar), cast (14,
/// input precision differs), copy (19): tsk_opd_num as the class uses it.
template <const regs::reg_table& T, class Rnd>
tiu_shape ar(std::vector<std::byte>& d, unsigned eu, unsigned res, Rnd& rnd) {
  tiu_shape s = nchw(rnd);
  unsigned in = res;
  if (eu == 14) {
    static constexpr unsigned from[3][3] = {
        {fp16, fp32, bf16}, {fp32, int8, bf16}, {fp16, bf16, int8}};
    in = from[res][rnd(0, 2)];
  }
  s.in_prec = in;
  s.res_prec = res;
  const bool two = eu == 0 || eu == 2;
  const bool scalar = two && rnd(0, 3) == 0;
  put<T, "tsk_opd_num">(d, two ? 2 : 1);
  put<T, "res0_n">(d, s.n);
  put<T, "res0_c">(d, s.c);
  put<T, "res0_h">(d, s.h);
  put<T, "res0_w">(d, s.w);
  put<T, "opt_res0_prec">(d, res);
  put<T, "opt_opd0_prec">(d, in);
  put<T, "opt_opd0_sign">(d, sign_of(in));
  put<T, "opt_opd2_sign">(d, sign_of(res));  // cast: the result's sign
  if (two) {
    put<T, "opt_opd1_prec">(d, in);
    put<T, "opt_opd1_sign">(d, sign_of(in));
    put<T, "opt_opd1_const">(d, scalar);
  }
  const auto si = align_eu(s.c, s.h, s.w, in), so = align_eu(s.c, s.h, s.w, res);
  TPUPROF_SYNTH_STR(T, res0, n, so.n);
  TPUPROF_SYNTH_STR(T, res0, c, so.c);
  TPUPROF_SYNTH_STR(T, res0, h, so.h);
  TPUPROF_SYNTH_STR(T, res0, w, so.w);
  TPUPROF_SYNTH_STR(T, opd0, n, si.n);
  TPUPROF_SYNTH_STR(T, opd0, c, si.c);
  TPUPROF_SYNTH_STR(T, opd0, h, si.h);
  TPUPROF_SYNTH_STR(T, opd0, w, si.w);
  if (two && !scalar) {
    TPUPROF_SYNTH_STR(T, opd1, n, si.n);
    TPUPROF_SYNTH_STR(T, opd1, c, si.c);
    TPUPROF_SYNTH_STR(T, opd1, h, si.h);
    TPUPROF_SYNTH_STR(T, opd1, w, si.w);
  }
  put<T, "opd0_addr">(d, lmem(0, rnd));
  if (two) put<T, "opd1_addr">(d, scalar ? 0x3C00 : lmem(4, rnd));  // scalar: its bits (1.0h)
  put<T, "res0_addr">(d, lmem(8, rnd));
  return s;
}

/// sPorD average pooling: k×k window, stride 1 or 2, scale as an immediate.
template <const regs::reg_table& T, class Rnd>
tiu_shape avg_pool(std::vector<std::byte>& d, unsigned res, Rnd& rnd) {
  tiu_shape s;
  s.n = static_cast<std::uint64_t>(rnd(1, 2));
  s.c = static_cast<std::uint64_t>(rnd(16, 256));
  s.h = static_cast<std::uint64_t>(rnd(1, 16));
  s.w = static_cast<std::uint64_t>(rnd(4, 32));
  s.kh = s.kw = static_cast<std::uint64_t>(rnd(2, 3));
  s.in_prec = s.res_prec = res;
  const std::uint64_t st = static_cast<std::uint64_t>(rnd(1, 2));
  put<T, "res0_n">(d, s.n);
  put<T, "res0_c">(d, s.c);
  put<T, "res0_h">(d, s.h);
  put<T, "res0_w">(d, s.w);
  put<T, "opd0_h">(d, (s.h - 1) * st + s.kh);
  put<T, "opd0_w">(d, (s.w - 1) * st + s.kw);
  put<T, "opd1_h">(d, s.kh);
  put<T, "opd1_w">(d, s.kw);
  put<T, "res_op_x_str">(d, st);
  put<T, "res_op_y_str">(d, st);
  put<T, "opt_res0_prec">(d, res);
  put<T, "opt_opd0_prec">(d, res);
  put<T, "opt_opd0_sign">(d, sign_of(res));
  put<T, "opt_opd1_sign">(d, sign_of(res));
  put<T, "opt_res0_sign">(d, sign_of(res));
  put<T, "opt_opd1_const">(d, 1);  // the 1/(k·k) scale
  put<T, "opt_opd3_const">(d, 1);  // padding value
  put<T, "opd0_addr">(d, lmem(0, rnd));
  put<T, "opd1_addr">(d, res == int8 ? 1 : 0x3C00);
  put<T, "res0_addr">(d, lmem(8, rnd));
  return s;
}

/// sSFU taylor: a table of k coefficients in local memory; floats in.
template <const regs::reg_table& T, class Rnd>
tiu_shape taylor(std::vector<std::byte>& d, unsigned res, Rnd& rnd) {
  tiu_shape s = nchw(rnd);
  s.in_prec = res == int8 ? fp16 : res;
  s.res_prec = res;
  s.k = static_cast<std::uint64_t>(rnd(8, 32));
  put<T, "res0_n">(d, s.n);
  put<T, "res0_c">(d, s.c);
  put<T, "res0_h">(d, s.h);
  put<T, "res0_w">(d, s.w);
  put<T, "opd1_n">(d, s.k);
  put<T, "opt_res0_prec">(d, res);
  put<T, "opt_opd0_prec">(d, s.in_prec);
  put<T, "opd0_addr">(d, lmem(0, rnd));
  put<T, "opd1_addr">(d, lmem(14, rnd));
  put<T, "res0_addr">(d, lmem(8, rnd));
  return s;
}

/// sRQ rq0: INT32 in, float scale and zero point (immediates or per channel).
template <const regs::reg_table& T, class Rnd>
tiu_shape rq0(std::vector<std::byte>& d, unsigned res, Rnd& rnd) {
  tiu_shape s = nchw(rnd);
  s.in_prec = int32;
  s.res_prec = res;
  const bool imm = rnd(0, 1) == 0;
  put<T, "res0_n">(d, s.n);
  put<T, "res0_c">(d, s.c);
  put<T, "res0_h">(d, s.h);
  put<T, "res0_w">(d, s.w);
  put<T, "opt_res0_prec">(d, res);
  put<T, "opt_opd0_prec">(d, int32);
  put<T, "opt_opd0_sign">(d, 1);
  put<T, "opt_opd2_sign">(d, sign_of(res));
  put<T, "opt_opd1_const">(d, imm);
  put<T, "opd0_addr">(d, lmem(0, rnd));
  put<T, "opd1_addr">(d, imm ? 0x3D800000 : lmem(12, rnd));  // 0.0625f or its table
  put<T, "opd2_addr">(d, 0);
  put<T, "res0_addr">(d, lmem(8, rnd));
  return s;
}

/// sCW&sBC cw_ts: an n·w·h·c tensor transposed to n·c·h·w (h small).
template <const regs::reg_table& T, class Rnd>
tiu_shape cw_transpose(std::vector<std::byte>& d, unsigned res, Rnd& rnd) {
  tiu_shape s;
  s.n = static_cast<std::uint64_t>(rnd(1, 2));
  s.c = static_cast<std::uint64_t>(rnd(16, 256));
  s.h = static_cast<std::uint64_t>(rnd(1, 4));
  s.w = static_cast<std::uint64_t>(rnd(16, 256));
  s.in_prec = s.res_prec = res;
  put<T, "res0_n">(d, s.n);
  put<T, "res0_c">(d, s.c);
  put<T, "res0_h">(d, s.h);
  put<T, "res0_w">(d, s.w);
  put<T, "opd0_c">(d, s.w);
  put<T, "opd0_w">(d, s.c);
  put<T, "opt_res0_prec">(d, res);
  put<T, "opd0_addr">(d, lmem(0, rnd));
  put<T, "res0_addr">(d, lmem(8, rnd));
  return s;
}

/// sVC add: a vector of h = (opd0_c - 1)·opd0_w + opd1_w elements against one
/// of c·w elements -> an h·c·1·w result.
template <const regs::reg_table& T, class Rnd>
tiu_shape vc(std::vector<std::byte>& d, unsigned res, Rnd& rnd) {
  tiu_shape s;
  const auto w0 = static_cast<std::uint64_t>(rnd(1, 16)),
             c0 = static_cast<std::uint64_t>(rnd(1, 8));
  const auto last = static_cast<std::uint64_t>(rnd(1, static_cast<std::int64_t>(w0)));
  s.h = (c0 - 1) * w0 + last;
  s.c = static_cast<std::uint64_t>(rnd(16, 128));
  s.w = static_cast<std::uint64_t>(rnd(4, 64));
  s.in_prec = s.res_prec = res;
  put<T, "opd0_c">(d, c0);
  put<T, "opd0_w">(d, w0);
  put<T, "opd1_w">(d, last);
  put<T, "res0_c">(d, s.c);
  put<T, "res0_w">(d, s.w);
  put<T, "opt_res0_prec">(d, res);
  put<T, "opt_opd0_prec">(d, res);
  put<T, "opt_opd1_prec">(d, res);
  put<T, "opt_opd0_sign">(d, sign_of(res));
  put<T, "opt_opd1_sign">(d, sign_of(res));
  put<T, "opd0_addr">(d, lmem(0, rnd));
  put<T, "opd1_addr">(d, lmem(4, rnd));
  put<T, "res0_addr">(d, lmem(8, rnd));
  return s;
}
#undef TPUPROF_SYNTH_STR

}  // namespace detail

/// True when write_tiu() fills shapes for (tsk, eu); other commands get a
/// header-only image.
constexpr bool has_shapes(unsigned tsk, unsigned eu) noexcept {
  switch (tsk) {
    case 0:
      return eu == 0;
    case 1:
      return eu == 1;
    case 2:
      return eu == 4 || eu == 5;
    case 3:
      return eu == 0 || eu == 2 || eu == 14 || eu == 19;
    case 4:
      return eu == 0;
    case 5:
      return eu == 0;
    case 9:
      return eu == 13;
    case 14:
      return eu == 2;
    default:
      return false;
  }
}

/// The register image of TIU command (tsk, eu) whose result precision is
/// `res_prec` (the DYN_DATA word's dtype); `rnd(lo, hi)` draws integers. Forms
/// without shapes here (SYS and the classes the generator does not emit) get
/// only their header; unknown classes a 128-bit header. `lane_c` > 0: CONV output channels /
/// MM2 rows (`synth --inject lane-underuse`).
template <cdm::cdm_chip Chip, class Rnd>
tiu_image write_tiu(unsigned tsk, unsigned eu, unsigned res_prec, Rnd&& rnd,
                    std::uint64_t lane_c = 0) {
  using F = typename Chip::short_tiu_forms;  // the chip's form of each class written here
  tiu_image r;
  const bool is_short = tsk != cdm::tiu_sys_code;
  const auto cls = Chip::tiu_class_of(tsk, eu, is_short);
  r.bytes.assign((cls ? cls->bits : 128) / 8, std::byte{0});
  auto& d = r.bytes;
  if (!has_shapes(tsk, eu)) {  // header only (bit positions common to every TIU form)
    d[0] |= static_cast<std::byte>(is_short ? 1 : 0);
    const std::uint64_t h = std::uint64_t{tsk} << 41 | std::uint64_t{eu} << 45;
    for (unsigned b = 5; b < 7; ++b) d[b] |= static_cast<std::byte>((h >> (8 * b)) & 0xFF);
    return r;
  }
  const unsigned res = res_prec <= 2 ? res_prec : 0;
  switch (tsk) {
    case 0:
      detail::head<F::conv>(d, tsk, eu);
      r.shape = detail::conv<F::conv>(d, res, rnd, lane_c);
      break;
    case 1:
      detail::head<F::pord>(d, tsk, eu);
      r.shape = detail::avg_pool<F::pord>(d, res, rnd);
      break;
    case 2:
      detail::head<F::mm2>(d, tsk, eu);
      r.shape = detail::mm2<F::mm2>(d, eu, res, rnd, lane_c);
      break;
    case 3:
      if (eu == 14) {
        detail::head<F::cast>(d, tsk, eu);
        r.shape = detail::ar<F::cast>(d, eu, res, rnd);
      } else {
        detail::head<F::ar>(d, tsk, eu);
        r.shape = detail::ar<F::ar>(d, eu, res, rnd);
      }
      break;
    case 4:
      detail::head<F::rqdq>(d, tsk, eu);
      r.shape = detail::rq0<F::rqdq>(d, res, rnd);
      break;
    case 5:
      detail::head<F::cwbc>(d, tsk, eu);
      r.shape = detail::cw_transpose<F::cwbc>(d, res, rnd);
      break;
    case 9:
      detail::head<F::sfu>(d, tsk, eu);
      r.shape = detail::taylor<F::sfu>(d, res, rnd);
      break;
    default:
      detail::head<F::vc>(d, tsk, eu);
      r.shape = detail::vc<F::vc>(d, res, rnd);
      break;
  }
  return r;
}

/// `synth --inject bank-conflict`: moves the result of image `d` (TIU command tsk, eu with
/// shapes) into the local-memory bank of its first input, 32 slots further.
template <cdm::cdm_chip Chip>
void conflict_bank(std::vector<std::byte>& d, unsigned tsk, unsigned eu) {
  using F = typename Chip::short_tiu_forms;
  const regs::reg_table& T = tsk == 0   ? F::conv
                             : tsk == 1 ? F::pord
                             : tsk == 2 ? F::mm2
                             : tsk == 3 ? (eu == 14 ? F::cast : F::ar)
                             : tsk == 4 ? F::rqdq
                             : tsk == 5 ? F::cwbc
                             : tsk == 9 ? F::sfu
                                        : F::vc;
  const auto i = T.find("opd0_addr"), o = T.find("res0_addr");
  if (!i || !o) return;
  auto bit = [&](unsigned b) { return (std::to_integer<unsigned>(d[b / 8]) >> (b % 8)) & 1; };
  const regs::reg_field fi = T.fields[*i], fo = T.fields[*o];
  std::uint64_t a = 0;
  for (unsigned k = 0; k < fi.width; ++k) a |= std::uint64_t{bit(fi.lo + k)} << k;
  const std::uint64_t v = a / 16384 * 16384 + (a % 16384 / 64 + 32) % 64 * 64;
  for (unsigned k = 0; k < fo.width; ++k) {
    const auto m = static_cast<std::byte>(1u << ((fo.lo + k) % 8));
    d[(fo.lo + k) / 8] = ((v >> k) & 1) ? (d[(fo.lo + k) / 8] | m) : (d[(fo.lo + k) / 8] & ~m);
  }
}

}  // namespace tpuprof::synth::cdm_images
