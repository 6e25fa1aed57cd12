/// BM1684X command descriptors for the generator: valid short-form TIU descriptors and long
/// dma.tensor descriptors, written field by field through the generated register tables.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <tpuprof/chips/bm1684x/regs.hpp>
#include <tpuprof/regs/reg_table.hpp>
#include <tpuprof/synth/bit_writer.hpp>

namespace tpuprof::synth::bm1684x_detail {

/// A field of a register table, looked up at compile time (a typo does not compile).
consteval regs::reg_field fld(const regs::reg_table& t, std::string_view name) {
  for (const auto& f : t.fields)
    if (f.name == name) return f;
  throw "no such field";
}
using synth::align_up;
using synth::put;

/// Execution units per lane for an element size (BM1684X: 64 bytes per lane).
constexpr std::uint64_t eu_for(unsigned item_size) noexcept {
  return 64 / item_size;
}
/// Precision codes of the TIU registers (tpu-mlir DType) and their sizes.
struct dt {
  unsigned prec, sign, size;
};
inline constexpr dt i8{0, 1, 1}, f16{1, 0, 2}, f32{2, 0, 4}, bf16{5, 0, 2};

/// Local-memory (per-lane) offset of an operand: bank `bank` of the 16 banks
/// of 16 KiB, plus a 64-byte aligned offset inside it.
inline std::uint64_t lmem_addr(unsigned bank, std::uint64_t off64) noexcept {
  return std::uint64_t{bank} * 16384 + (off64 % 64) * 64;
}
/// Strides of an alignEU local tensor (n, c, h, w), in elements.
struct eu_strides {
  std::uint64_t n, c, h, w;
};
inline eu_strides align_eu_strides(std::uint64_t c, std::uint64_t h, std::uint64_t w,
                                   unsigned isz) noexcept {
  const std::uint64_t cs = align_up(h * w, eu_for(isz));
  return {(c + 63) / 64 * cs, cs, w, 1};
}
inline float rate(std::uint64_t alg, std::uint64_t arch) noexcept {
  return static_cast<float>(static_cast<double>(alg) / static_cast<double>(arch));
}

/// TIU op kinds the generator writes (short forms: the vendor converts only those).
enum class tiu_kind : std::uint8_t { conv, add, maxpool, mm2, cast, sys_end };

/// Writes one valid TIU descriptor for `k` (random plausible shapes, dtypes,
/// local-memory operands; conv channels and matmul rows multiples of the lanes) into the zeroed
/// `d`; returns alg / arch ops as the vendor's opdef_1684x.py computes them.
template <class Rnd>
float write_tiu(tiu_kind k, std::byte* d, std::uint32_t id, std::uint32_t dep, Rnd&& rnd) {
  namespace R = regs::bm1684x;
  const std::uint64_t npu = 64;
  auto head = [&](unsigned type, unsigned eu) {  // common to every TIU form
    put(d, fld(R::s_ar, "cmd_short"), 1);        // SYSID: rsvd0, ignored
    put(d, fld(R::s_ar, "cmd_id"), id);
    put(d, fld(R::s_ar, "cmd_id_dep"), dep);
    put(d, fld(R::s_ar, "tsk_typ"), type);
    put(d, fld(R::s_ar, "tsk_eu_typ"), eu);
  };
  static constexpr dt floats[] = {f16, bf16};
  static constexpr dt ar_types[] = {f32, f16, bf16, i8};
  switch (k) {
    case tiu_kind::conv: {
      static constexpr auto& T = R::s_conv;
      head(0, 0);
      const dt t = floats[rnd(0, 1)];
      // Channels fill the lanes (a clean program wastes none; --inject lane-underuse
      // makes the unaligned ones).
      const std::uint64_t n = rnd(1, 2), ic = npu * rnd(1, 2), oc = npu * rnd(1, 2);
      const std::uint64_t kk = rnd(0, 1) ? 3 : 1, st = rnd(1, 2);
      const std::uint64_t oh = rnd(1, 16), ow = rnd(1, 32);
      const std::uint64_t ih = (oh - 1) * st + kk, iw = (ow - 1) * st + kk;
      const auto s0 = align_eu_strides(ic, ih, iw, t.size);
      put(d, fld(T, "res0_prec"), t.prec);
      put(d, fld(T, "opd0_prec"), t.prec);
      put(d, fld(T, "opd3_const"), 1);  // padding value: an immediate
      put(d, fld(T, "res_op_x_str"), st);
      put(d, fld(T, "res_op_y_str"), st);
      put(d, fld(T, "res0_n"), n);
      put(d, fld(T, "res0_c"), oc);
      put(d, fld(T, "res0_h"), oh);
      put(d, fld(T, "res0_w"), ow);
      put(d, fld(T, "opd0_c"), ic);
      put(d, fld(T, "opd0_h"), ih);
      put(d, fld(T, "opd0_w"), iw);
      put(d, fld(T, "opd1_h"), kk);
      put(d, fld(T, "opd1_w"), kk);
      put(d, fld(T, "opd0_n_str"), s0.n);
      put(d, fld(T, "opd0_c_str"), s0.c);
      put(d, fld(T, "opd0_h_str"), s0.h);
      put(d, fld(T, "opd0_w_str"), s0.w);
      put(d, fld(T, "opd0_addr"), lmem_addr(0, rnd(0, 63)));
      put(d, fld(T, "opd1_addr"), lmem_addr(4, rnd(0, 63)));
      put(d, fld(T, "opd2_addr"), lmem_addr(15, rnd(0, 63)));
      put(d, fld(T, "res0_addr"), lmem_addr(8, rnd(0, 63)));
      const std::uint64_t eu = eu_for(t.size);
      const std::uint64_t alg = n * oc * oh * ow * (2 * ic * kk * kk);
      const std::uint64_t arch =
          n * align_up(oc, npu) * align_up(oh * ow, eu) * (2 * align_up(ic, npu) * kk * kk);
      return rate(alg, arch);
    }
    case tiu_kind::add:
    case tiu_kind::cast: {
      static constexpr auto& T = R::s_ar;
      const bool add = k == tiu_kind::add;
      head(3, add ? 2 : 14);
      dt in = ar_types[rnd(0, 3)], out = in;
      if (!add) {
        static constexpr std::array<std::array<dt, 2>, 4> casts{
            {{f32, f16}, {f16, f32}, {f32, bf16}, {i8, f16}}};
        const auto& c = casts[rnd(0, 3)];
        in = c[0];
        out = c[1];
      }
      const std::uint64_t n = rnd(1, 2), c = rnd(1, 128), h = rnd(1, 32), w = rnd(1, 64);
      put(d, fld(T, "tsk_opd_num"), add ? 2 : 1);
      put(d, fld(T, "res0_prec"), out.prec);
      put(d, fld(T, "opd0_prec"), in.prec);
      put(d, fld(T, "opd0_sign"), in.sign);
      put(d, fld(T, "opd2_sign"), out.sign);  // cast: the result's sign
      if (add) {
        put(d, fld(T, "opd1_prec"), in.prec);
        put(d, fld(T, "opd1_sign"), in.sign);
      }
      put(d, fld(T, "res0_n"), n);
      put(d, fld(T, "res0_c"), c);
      put(d, fld(T, "res0_h"), h);
      put(d, fld(T, "res0_w"), w);
      const auto si = align_eu_strides(c, h, w, in.size), so = align_eu_strides(c, h, w, out.size);
      put(d, fld(T, "res0_n_str"), so.n);
      put(d, fld(T, "res0_c_str"), so.c);
      put(d, fld(T, "res0_h_str"), so.h);
      put(d, fld(T, "res0_w_str"), so.w);
      put(d, fld(T, "opd0_n_str"), si.n);
      put(d, fld(T, "opd0_c_str"), si.c);
      put(d, fld(T, "opd0_h_str"), si.h);
      put(d, fld(T, "opd0_w_str"), si.w);
      if (add) {
        put(d, fld(T, "opd1_n_str"), si.n);
        put(d, fld(T, "opd1_c_str"), si.c);
        put(d, fld(T, "opd1_h_str"), si.h);
        put(d, fld(T, "opd1_w_str"), si.w);
        put(d, fld(T, "opd1_addr"), lmem_addr(4, rnd(0, 63)));
      }
      put(d, fld(T, "opd0_addr"), lmem_addr(0, rnd(0, 63)));
      put(d, fld(T, "res0_addr"), lmem_addr(8, rnd(0, 63)));
      return rate(n * c * h * w, n * align_up(c, npu) * align_up(h * w, eu_for(in.size)));
    }
    case tiu_kind::maxpool: {
      static constexpr auto& T = R::s_pord;
      head(1, 4);
      const dt t = rnd(0, 1) ? f16 : i8;
      const std::uint64_t n = rnd(1, 2), c = rnd(1, 128), oh = rnd(1, 32), ow = rnd(1, 32);
      const std::uint64_t kk = rnd(2, 3), st = rnd(1, 2);
      put(d, fld(T, "opd0_sign"), t.sign);
      put(d, fld(T, "opd3_const"), 1);  // padding value
      put(d, fld(T, "res0_prec"), t.prec);
      put(d, fld(T, "opd0_prec"), t.prec);
      put(d, fld(T, "res_op_x_str"), st);
      put(d, fld(T, "res_op_y_str"), st);
      put(d, fld(T, "res0_n"), n);
      put(d, fld(T, "res0_c"), c);
      put(d, fld(T, "res0_h"), oh);
      put(d, fld(T, "res0_w"), ow);
      put(d, fld(T, "opd0_h"), (oh - 1) * st + kk);
      put(d, fld(T, "opd0_w"), (ow - 1) * st + kk);
      put(d, fld(T, "opd1_h"), kk);
      put(d, fld(T, "opd1_w"), kk);
      put(d, fld(T, "res0_addr"), lmem_addr(8, rnd(0, 63)));
      put(d, fld(T, "opd0_addr"), lmem_addr(0, rnd(0, 63)));
      const std::uint64_t f = kk * kk - 1;
      return rate(n * c * oh * ow * f,
                  n * align_up(c, npu) * align_up(oh * ow, eu_for(t.size)) * f);
    }
    case tiu_kind::mm2: {
      static constexpr auto& T = R::s_mm2;
      head(2, 4);
      const dt t = floats[rnd(0, 1)];
      // Rows (the lanes' dimension) fill the lanes, as for conv channels.
      const std::uint64_t m = npu * rnd(1, 4), kd = rnd(1, 512), nn = rnd(1, 256);
      put(d, fld(T, "res0_prec"), t.prec);
      put(d, fld(T, "opd0_prec"), t.prec);
      put(d, fld(T, "res0_c"), m);
      put(d, fld(T, "res0_w"), nn);
      put(d, fld(T, "opd1_c"), kd);
      put(d, fld(T, "opd1_w"), nn);
      put(d, fld(T, "res0_addr"), lmem_addr(8, rnd(0, 63)));
      put(d, fld(T, "opd0_addr"), lmem_addr(0, rnd(0, 63)));
      put(d, fld(T, "opd1_addr"), lmem_addr(4, rnd(0, 63)));
      return rate(m * nn * (2 * kd - 1),
                  align_up(m, npu) * nn * (2 * align_up(kd, eu_for(t.size)) - 1));
    }
    case tiu_kind::sys_end:
      head(15, 31);
      return 1.0f;
  }
  return 0.0f;
}

/// Writes one long dma.tensor descriptor (96 bytes) moving an n·c·h·w tensor
/// between DDR and local memory (`load`: DDR → local); returns its bytes.
template <class Rnd>
std::uint64_t write_dma_tensor(std::byte* d, std::uint32_t id, std::uint32_t dep, bool load,
                               Rnd&& rnd) {
  static constexpr auto& T = regs::bm1684x::dma_tensor;
  static constexpr unsigned formats[] = {0, 1, 2, 5};  // i8, f16, f32, bf16
  static constexpr unsigned sizes[] = {1, 2, 4, 2};
  const auto fi = rnd(0, 3);
  const unsigned isz = sizes[fi];
  const std::uint64_t n = rnd(1, 2), c = rnd(1, 128), h = rnd(1, 16), w = rnd(1, 64);
  put(d, fld(T, "stride_enable"), 1);
  put(d, fld(T, "cmd_id"), id);
  put(d, fld(T, "src_data_format"), formats[fi]);
  put(d, fld(T, "cmd_id_dep"), dep);
  const auto lo = align_eu_strides(c, h, w, isz);
  const std::uint64_t g[4] = {c * h * w, h * w, w, 1};
  const std::uint64_t l[4] = {lo.n, lo.c, lo.h, lo.w};
  const std::uint64_t* src = load ? g : l;
  const std::uint64_t* dst = load ? l : g;
  put(d, fld(T, "src_nstride"), src[0]);
  put(d, fld(T, "src_cstride"), src[1]);
  put(d, fld(T, "src_hstride"), src[2]);
  put(d, fld(T, "src_wstride"), src[3]);
  put(d, fld(T, "dst_nstride"), dst[0]);
  put(d, fld(T, "dst_cstride"), dst[1]);
  put(d, fld(T, "dst_hstride"), dst[2]);
  put(d, fld(T, "dst_wstride"), dst[3]);
  for (auto f : {fld(T, "src_nsize"), fld(T, "dst_nsize")}) put(d, f, n);
  for (auto f : {fld(T, "src_csize"), fld(T, "dst_csize")}) put(d, f, c);
  for (auto f : {fld(T, "src_hsize"), fld(T, "dst_hsize")}) put(d, f, h);
  for (auto f : {fld(T, "src_wsize"), fld(T, "dst_wsize")}) put(d, f, w);
  const std::uint64_t ddr = 0x100000000ull + 0x1000000ull + rnd(0, 0xFFFFF) * 64;
  const std::uint64_t lmem = lmem_addr(static_cast<unsigned>(rnd(0, 7)), rnd(0, 63));
  const std::uint64_t s = load ? ddr : lmem, t = load ? lmem : ddr;
  put(d, fld(T, "src_start_addr_l32"), s & 0xFFFFFFFFu);
  put(d, fld(T, "src_start_addr_h8"), s >> 32);
  put(d, fld(T, "dst_start_addr_l32"), t & 0xFFFFFFFFu);
  put(d, fld(T, "dst_start_addr_h8"), t >> 32);
  put(d, fld(T, "localmem_mask_l32"), 0xFFFFFFFFu);
  put(d, fld(T, "localmem_mask_h32"), 0xFFFFFFFFu);
  return n * c * h * w * isz;
}

}  // namespace tpuprof::synth::bm1684x_detail
