/// `synth --inject RULE` for BM1684X: the descriptor edits and duration changes of each fault,
/// applied while the program is generated (make_program calls these; the clean path draws
/// nothing from the fault's random stream, so a clean dump is unchanged). docs/analysis.md,
/// "Fault injection", says what each fault looks like in the decoded fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

#include <tpuprof/chips/bm1684x/regs.hpp>
#include <tpuprof/synth/bit_writer.hpp>
#include <tpuprof/synth/bm1684x/descriptors.hpp>
#include <tpuprof/synth/inject.hpp>

namespace tpuprof::synth::bm1684x_detail {

/// Reads field `f` of descriptor `d`.
inline std::uint64_t get(const std::byte* d, regs::reg_field f) noexcept {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < f.width; ++i)
    if ((std::to_integer<unsigned>(d[(f.lo + i) / 8]) >> ((f.lo + i) % 8)) & 1)
      v |= std::uint64_t{1} << i;
  return v;
}
/// Overwrites field `f` of descriptor `d` with `v`.
inline void set(std::byte* d, regs::reg_field f, std::uint64_t v) noexcept {
  for (unsigned i = 0; i < f.width; ++i)
    d[(f.lo + i) / 8] &= static_cast<std::byte>(~(1u << ((f.lo + i) % 8)));
  put(d, f, v);
}

/// The fault being injected and its own random stream (seeded apart from the generator's).
struct fault_plan {
  fault rule = fault::none;
  std::mt19937_64 rng;
  std::uint64_t draw(std::uint64_t lo, std::uint64_t hi) { return lo + rng() % (hi - lo + 1); }
  /// Whether layer group `g` of `n` carries the fault (group n/2 always does).
  bool hit(std::size_t g, std::size_t n) {
    static constexpr unsigned one_in[] = {1, 16, 2, 1, 3, 12, 1, 32};  // by fault
    const unsigned k = one_in[static_cast<std::size_t>(rule)];
    return rule != fault::none && (draw(1, k) == 1 || g == n / 2);
  }
};

/// starved-tiu: a load whose source is read with a 12-element stride (a gather from DDR);
/// returns the duration multiplier.
inline std::int64_t slow_load(std::byte* d) {
  static constexpr auto& T = regs::bm1684x::dma_tensor;
  const std::uint64_t f = inject_params::slow_dma_factor;
  for (auto s :
       {fld(T, "src_nstride"), fld(T, "src_cstride"), fld(T, "src_hstride"), fld(T, "src_wstride")})
    set(d, s, get(d, s) * f);
  return static_cast<std::int64_t>(f);
}

/// small-dma: the 96-byte descriptor `tmpl` cut into piece `k` of `pieces` (w elements each,
/// n = c = h = 1, addresses advanced); returns the piece's bytes.
inline std::uint64_t small_piece(std::byte* d, const std::byte* tmpl, std::uint32_t id,
                                 std::uint64_t elems, std::uint64_t first, unsigned isz) {
  static constexpr auto& T = regs::bm1684x::dma_tensor;
  std::copy(tmpl, tmpl + 96, d);
  set(d, fld(T, "cmd_id"), id);
  for (auto f : {fld(T, "src_nsize"), fld(T, "dst_nsize"), fld(T, "src_csize"), fld(T, "dst_csize"),
                 fld(T, "src_hsize"), fld(T, "dst_hsize")})
    set(d, f, 1);
  for (auto f : {fld(T, "src_wsize"), fld(T, "dst_wsize")}) set(d, f, elems);
  for (auto f : {fld(T, "src_nstride"), fld(T, "src_cstride"), fld(T, "src_hstride"),
                 fld(T, "dst_nstride"), fld(T, "dst_cstride"), fld(T, "dst_hstride")})
    set(d, f, elems);
  for (auto [lo, hi] : {std::pair{fld(T, "src_start_addr_l32"), fld(T, "src_start_addr_h8")},
                        std::pair{fld(T, "dst_start_addr_l32"), fld(T, "dst_start_addr_h8")}}) {
    const std::uint64_t a = (get(d, hi) << 32 | get(d, lo)) + first * isz;
    set(d, lo, a & 0xFFFFFFFFu);
    set(d, hi, a >> 32);
  }
  return elems * isz;
}

/// lane-underuse: a conv (input channels) or mm2 (rows) whose lane dimension is `c` and whose
/// other dimensions fill the lanes and execution units, so that the uArch rate is
/// c / align_up(c, 64); returns it.
inline float underuse_lanes(tiu_kind k, std::byte* d, std::uint64_t c) {
  namespace R = regs::bm1684x;
  const std::uint64_t lanes = inject_params::lanes;
  const auto ratio = rate(c, align_up(c, lanes));
  if (k == tiu_kind::conv) {
    static constexpr auto& T = R::s_conv;
    const unsigned isz = 2;  // the generator's convs are f16 or bf16
    const std::uint64_t st = get(d, fld(T, "res_op_x_str")), kk = get(d, fld(T, "opd1_h"));
    const std::uint64_t oh = get(d, fld(T, "res0_h")), ow = eu_for(isz);
    const std::uint64_t ih = (oh - 1) * st + kk, iw = (ow - 1) * st + kk;
    const auto s0 = align_eu_strides(c, ih, iw, isz);
    set(d, fld(T, "res0_c"), lanes);
    set(d, fld(T, "res0_w"), ow);
    set(d, fld(T, "opd0_c"), c);
    set(d, fld(T, "opd0_h"), ih);
    set(d, fld(T, "opd0_w"), iw);
    set(d, fld(T, "opd0_n_str"), s0.n);
    set(d, fld(T, "opd0_c_str"), s0.c);
    set(d, fld(T, "opd0_h_str"), s0.h);
    set(d, fld(T, "opd0_w_str"), s0.w);
  } else {
    static constexpr auto& T = R::s_mm2;
    const std::uint64_t eu = eu_for(2), kd = align_up(get(d, fld(T, "opd1_c")), eu);
    set(d, fld(T, "res0_c"), c);
    set(d, fld(T, "opd1_c"), kd);
  }
  return ratio;
}

/// bank-conflict: the result moved into the bank of the first input (another slot of it).
inline void conflict_bank(tiu_kind k, std::byte* d) {
  namespace R = regs::bm1684x;
  const regs::reg_table& T = k == tiu_kind::conv      ? R::s_conv
                             : k == tiu_kind::maxpool ? R::s_pord
                             : k == tiu_kind::mm2     ? R::s_mm2
                                                      : R::s_ar;
  regs::reg_field in{}, out{};
  for (const auto& f : T.fields) {
    if (f.name == "opd0_addr") in = f;
    if (f.name == "res0_addr") out = f;
  }
  const std::uint64_t a = get(d, in), bank = a / 16384, slot = a % 16384 / 64;
  set(d, out, lmem_addr(static_cast<unsigned>(bank), (slot + 32) % 64));
}

}  // namespace tpuprof::synth::bm1684x_detail
