/// Alg and uArch ops of TIU commands as tpu-mlir's debugger/target_1688 and target_cv184x
/// opdef.py compute them (`ops(is_arch)`), for the `uArch Rate` of the PerfAI time mode
/// (bm1688-notes.md §8). Shapes and dtypes are the register fields the vendor's opparam.py
/// reads; the constants come from the chip's compiler header.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include <tpuprof/regs/reg_table.hpp>

namespace tpuprof::chips {

/// Lanes (NPU_NUM), EU_BYTES and IC_PARALLEL of a chip.
struct perfai_consts {
  unsigned npu, eu_bytes, ic_parallel;
};

/// The register table named `cls` ("sAR") of a chip's all_tables, or nullptr.
template <std::size_t N>
constexpr const regs::reg_table* table_named(const std::array<const regs::reg_table*, N>& all,
                                             std::string_view cls) noexcept {
  for (const auto* t : all)
    if (t->sheet == cls) return t;
  return nullptr;
}

namespace detail {
constexpr std::uint64_t align_up(std::uint64_t x, std::uint64_t a) noexcept {
  return a ? (x + a - 1) / a * a : x;
}
/// Bytes per element of an `opt_*_prec` code (0 INT8, 1 FP16, 2 FP32, 3 INT16, 4 INT32, 5 BF16,
/// 6 INT4) times two (INT4 is half a byte).
constexpr unsigned twice_size(std::uint64_t prec) noexcept {
  constexpr unsigned s[] = {2, 4, 8, 4, 8, 4, 1};
  return prec < 7 ? s[prec] : 2;
}
constexpr std::uint64_t eu_num(perfai_consts k, std::uint64_t prec) noexcept {
  return 2ull * k.eu_bytes / twice_size(prec);
}
constexpr std::uint64_t cube_num(perfai_consts k, std::uint64_t prec) noexcept {
  const unsigned ts = twice_size(prec);
  return ts >= 8 ? 1 : 2ull * k.ic_parallel / ts;
}

/// (alg, uArch) ops of the matrix, compare, special-function, linear and re/dequantize classes
/// (opdef.py mm_op, mm2_op, cmp_op, sfu_op, lin_op, rqdq_op); nullopt for other classes.
template <class G>
std::optional<std::pair<double, double>> more_ops(std::string_view cls, std::string_view op,
                                                  const G& g, perfai_consts k) {
  const std::uint64_t n = g("res0_n"), c = g("res0_c"), h = g("res0_h"), w = g("res0_w");
  const std::uint64_t ac = align_up(c, k.npu);
  auto d = [](std::uint64_t x) { return static_cast<double>(x); };
  if (cls == "MM") {  // has_bias: the converter always gives three operands
    std::uint64_t m = g("opd0_n"), kk = g("opd0_w") * g("opd0_c");
    const std::uint64_t nn = g("res0_w") * c;
    if (g("opt_left_tran")) std::swap(m, kk);
    const std::uint64_t an = ac * align_up(g("res0_w"), eu_num(k, g("opt_opd0_prec")));
    return std::pair{d(m * nn) * d(2 * kk), d(m * an) * d(2 * kk)};
  }
  if (cls == "MM2") {
    std::uint64_t m = c, kk = g("opd1_w"), nn = g("opd1_c");
    if (op == "mm2.nt") std::swap(kk, nn);
    if (op == "mm2.tt") {  // m, k, n = k, m, k as the vendor writes it
      const std::uint64_t m0 = m;
      m = kk;
      nn = kk;
      kk = m0;
    }
    const std::uint64_t cube = cube_num(k, g("opt_res0_prec"));
    return std::pair{d(m * nn * kk) * 2,
                     d(align_up(m, k.npu) * align_up(nn, cube) * align_up(kk, 4)) * 2};
  }
  const bool cmp = cls == "CMP", sfu = cls == "SFU", rq = cls == "RQ&DQ" || cls == "RQ&sDQ";
  if (cmp || sfu || rq) {
    double f = cmp ? 2 : rq ? 3 : 1;
    if (sfu && (op == "sfu.taylor_4x" || op == "sfu.taylor")) f = 2 * d(g("opd1_n")) - 1;
    if (sfu && op == "sfu.rsqrt") f = 30;
    const std::uint64_t eu = eu_num(k, g("opt_opd0_prec"));
    return std::pair{d(n * c * h * w) * f, d(n * ac * align_up(h * w, eu)) * f};
  }
  if (cls == "LIN") {  // EU of the result precision (the converter's opd0 dtype), w aligned
    const std::uint64_t eu = eu_num(k, g("opt_res0_prec"));
    return std::pair{d(n * c * h * w) * 2, d(n * ac * h * align_up(w, eu)) * 2};
  }
  return std::nullopt;
}
}  // namespace detail

/// alg ops / uArch ops of a TIU command of class table `t`; NaN where the vendor computes
/// none: VC (its uArch formula reads a second result the converter never makes: IndexError),
/// SGL (its converter reads a field the table lacks: AttributeError), LAR (no op class).
inline float perfai_uarch_rate(const regs::reg_table* t, std::string_view op,
                               std::span<const std::byte> data, perfai_consts k) {
  constexpr float nan = std::numeric_limits<float>::quiet_NaN();
  if (!t) return nan;
  const regs::reg_view r(t, data);
  const auto g = [&](std::string_view f) { return r.get(f); };
  using detail::align_up;
  const std::string_view cls = t->sheet.substr(t->sheet.front() == 's' ? 1 : 0);
  std::uint64_t n = g("res0_n"), c = g("res0_c"), h = g("res0_h"), w = g("res0_w");
  auto rate = [](double alg, double arch) {
    return arch > 0 ? static_cast<float>(alg / arch) : nan;
  };
  if (cls == "SYS" || cls == "SYS_TR_ACC") return 1.0f;
  if (cls == "CONV") {
    const std::uint64_t prec = g("opt_opd0_prec"), ic = g("opd0_c"), kh = g("opd1_h"),
                        kw = g("opd1_w"), bias = g("opt_opd2_const") ? 1 : 0;
    const double per_out = static_cast<double>(2 * ic * kh * kw) - 1 + static_cast<double>(bias);
    const double alg = static_cast<double>(n * c * h * w) * per_out;
    std::uint64_t aic = ic, eu = 4;  // CubeOutputHeightWidthAlignNum
    if (prec == 2)
      eu = detail::eu_num(k, prec);
    else
      aic = align_up(ic, detail::cube_num(k, prec));
    const double arch = static_cast<double>(n * align_up(c, k.npu) * align_up(h * w, eu)) *
                        (static_cast<double>(2 * aic * kh * kw) - 1 + static_cast<double>(bias));
    return rate(alg, arch);
  }
  if (const auto o = detail::more_ops(cls, op, g, k)) return rate(o->first, o->second);
  const bool ar = cls == "AR", pord = cls == "PorD", cwbc = cls == "CW&BC" || cls == "CW&sBC",
             sg = cls == "SG";
  if (!ar && !pord && !cwbc && !sg) return nan;
  // operands[0].dtype: opd0 precision, except CW&BC (res0 precision)
  const std::uint64_t prec = g(cwbc ? "opt_res0_prec" : "opt_opd0_prec");
  const std::uint64_t eu = detail::eu_num(k, prec), ac = align_up(c, k.npu);
  if (ar) {
    const double f = op == "arith.div" ? 5 : 1;
    return rate(static_cast<double>(n * c * h * w) * f,
                static_cast<double>(n * ac * align_up(h * w, eu)) * f);
  }
  if (pord) {
    std::uint64_t kh = g("opd1_h"), kw = g("opd1_w");
    double f = 7;
    if (op == "pord.avgpooling" || op == "pord.maxpooling" || op == "pord.depthwise")
      f = 2;
    else if (op == "pord.depthwiserelu")
      f = 3;
    else
      kh = kw = 1;
    const double per = f * static_cast<double>(kh * kw) - 1;
    return rate(static_cast<double>(n * c * h * w) * per,
                static_cast<double>(n * ac * align_up(h * w, eu)) * per);
  }
  if (cwbc) {
    if (op == "tsbc.s_bc") n = h = 1;  // the vendor's result shapes (opparam.py bc_reg_format)
    if (op == "tsbc.s_distribute") n = h = w = 1;
    const bool flat =
        op == "tsbc.l_copy" || op == "tsbc.l_bc" || op == "tsbc.s_bc" || op == "tsbc.s_distribute";
    const std::uint64_t hw = flat ? align_up(h * w, eu) : h * align_up(w, eu);
    return rate(static_cast<double>(n * c * h * w), static_cast<double>(n * ac * hw));
  }
  return rate(static_cast<double>(n * c * h * w),
              static_cast<double>(n * ac * h * align_up(w, eu)));
}

}  // namespace tpuprof::chips
