// Mode-2 TIU register images of the SG2260-family generator: ops computed by
// hand from the shapes the writer chose, and uArch coverage of whole dumps.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/synth/cdm_synth.hpp>
#include <tpuprof/synth/cdm_tiu_images.hpp>

namespace {

using i64 = std::int64_t;
namespace ci = tpuprof::synth::cdm_images;

i64 al(i64 x, i64 a) {
  return (x + a - 1) / a * a;
}
/// Elements per lane and cycle (64 bytes), and the cube's input channels.
i64 eu(unsigned prec) {
  return prec == ci::int8 ? 64 : prec == ci::fp32 || prec == ci::int32 ? 16 : 32;
}
i64 cube(unsigned prec) {
  return prec == ci::int8 ? 64 : prec == ci::fp32 ? 1 : 32;
}

struct ops {
  i64 alg, arch;
};

/// tpu-mlir target_1690 opdef.py formulas, written out for each class the
/// generator emits (64 NPUs; CONV/MM2 outputs aligned to 4).
ops by_hand(unsigned tsk, const ci::tiu_shape& s) {
  const i64 n = static_cast<i64>(s.n), c = static_cast<i64>(s.c), h = static_cast<i64>(s.h),
            w = static_cast<i64>(s.w);
  const unsigned in = s.in_prec;
  switch (tsk) {
    case 0: {  // conv: n·oc·oh·ow·(2·ic·kh·kw − 1 + const bias)
      const i64 ic = static_cast<i64>(s.ic), k2 = static_cast<i64>(s.kh * s.kw);
      const i64 b = s.bias_const ? 1 : 0;
      const i64 aic = in == ci::fp32 ? ic : al(ic, cube(in));
      const i64 act = in == ci::fp32 ? eu(in) : 4;
      return {n * c * h * w * (2 * ic * k2 - 1 + b),
              n * al(c, 64) * al(h * w, act) * (2 * aic * k2 - 1 + b)};
    }
    case 1: {  // avg pooling: factor 2
      const i64 f = 2 * static_cast<i64>(s.kh * s.kw) - 1;
      return {n * c * h * w * f, n * al(c, 64) * al(h * w, eu(in)) * f};
    }
    case 2: {  // mm2 nn/nt: 2·m·k·n; m to 64 lanes, n to 4, k to the result's EUs
      const i64 m = static_cast<i64>(s.m), k = static_cast<i64>(s.k), nn = static_cast<i64>(s.nn);
      return {2 * m * k * nn, 2 * al(m, 64) * al(nn, 4) * al(k, eu(s.res_prec))};
    }
    case 3:  // arithmetic
      return {n * c * h * w, n * al(c, 64) * al(h * w, eu(in))};
    case 4:  // rq: mul, add, shift
      return {3 * n * c * h * w, 3 * n * al(c, 64) * al(h * w, eu(in))};
    case 5:  // cw transpose: w aligned per row
      return {n * c * h * w, n * al(c, 64) * h * al(w, eu(in))};
    case 9: {  // taylor: 2·table − 1 per element
      const i64 f = 2 * static_cast<i64>(s.k) - 1;
      return {n * c * h * w * f, n * al(c, 64) * al(h * w, eu(in)) * f};
    }
    default: {  // vc: h rows × c·w; w to 16 EUs per lane over the widest bytes
      const i64 bytes = in == ci::int8 ? 1 : in == ci::fp32 ? 4 : 2;
      return {h * c * w, h * al(c, 64) * al(w, 16 / bytes)};
    }
  }
}

}  // namespace

TEST_CASE_TEMPLATE("generated TIU images: alg and arch ops equal the hand-computed values", Chip,
                   tpuprof::chips::aks, tpuprof::chips::aksv) {
  const unsigned classes[][2] = {{0, 0},  {1, 1},  {2, 4}, {2, 5}, {3, 0},  {3, 2},
                                 {3, 14}, {3, 19}, {4, 0}, {5, 0}, {9, 13}, {14, 2}};
  std::mt19937_64 rng(3);
  auto rnd = [&](i64 lo, i64 hi) { return std::uniform_int_distribution<i64>(lo, hi)(rng); };
  for (const auto& cl : classes)
    for (unsigned dt = 0; dt <= 2; ++dt)
      for (int rep = 0; rep < 4; ++rep) {
        CAPTURE(cl[0]);
        CAPTURE(cl[1]);
        CAPTURE(dt);
        const auto img = ci::write_tiu<Chip>(cl[0], cl[1], dt, rnd);
        CHECK(img.shape.res_prec == dt);
        const auto want = by_hand(cl[0], img.shape);
        const auto got = Chip::descriptor_ops(img.bytes);
        CHECK(got.status == Chip::decode_status::ok);
        REQUIRE(got.alg);
        REQUIRE(got.arch);
        CHECK(*got.alg == want.alg);
        CHECK(*got.arch == want.arch);
        CHECK(got.uarch_rate() > 0.0f);
        CHECK(got.uarch_rate() <= 1.0f);
      }
}

TEST_CASE("a generated AKS conv image, worked through") {
  // Shapes from the writer, precisions from the DYN_DATA dtype: INT8 output of
  // an INT8 conv (ic and oc aligned to the 64-lane cube, h·w to 4).
  std::mt19937_64 rng(5);
  auto rnd = [&](i64 lo, i64 hi) { return std::uniform_int_distribution<i64>(lo, hi)(rng); };
  const auto img = ci::write_tiu<tpuprof::chips::aks>(0, 0, 0, rnd);
  const auto& s = img.shape;
  CHECK(s.in_prec == ci::int8);
  const tpuprof::regs::reg_view v(&tpuprof::regs::aks::s_conv, img.bytes);
  CHECK(v["opt_res0_prec"] == 0);
  CHECK(v["opt_rq"] == 1);
  CHECK(v["opt_opd5_const"] == 1);
  CHECK(v["res0_c"] == s.c);
  CHECK(v["opd0_c"] == s.ic);
  CHECK(v["opd1_h"] == s.kh);
  // The input spans the output under the stride, less the padding.
  const auto st = v["res_op_y_str"], pad = v["opd0_up_pad"];
  CHECK(v["opd0_h"] == (s.h - 1) * st + s.kh - 2 * pad);
  const auto r = tpuprof::chips::aks::descriptor_ops(img.bytes);
  const double rate = static_cast<double>(s.c * s.h * s.w * s.ic) /
                      static_cast<double>(((s.c + 63) / 64 * 64) * ((s.h * s.w + 3) / 4 * 4) *
                                          ((s.ic + 63) / 64 * 64));
  // 2·ic·k² − 1 + bias in both numerator and denominator: within 1 % of the plain ratio.
  CHECK(static_cast<double>(r.uarch_rate()) == doctest::Approx(rate).epsilon(0.01));
}

TEST_CASE_TEMPLATE("mode-2 dumps: a uArch rate on nearly every TIU event, with a spread", Chip,
                   tpuprof::chips::aks, tpuprof::chips::aksv) {
  tpuprof::synth::cdm_synth_options o;
  o.mode = 2;
  o.records = 600;
  o.cdma_ports = 2;
  o.cycle_wrap = true;
  o.seed = 11;
  auto gen = tpuprof::synth::synthesize_cdm<Chip>(o);
  auto files = tpuprof::synth::as_dump_files(gen);
  tpuprof::cdm::cdm_decoder<Chip> d(files);
  std::size_t tiu = 0, rated = 0, low = 0, mid = 0, high = 0, over = 0;
  for (const auto& e : d.events()) {
    if (e.engine != tpuprof::engine::tiu) continue;
    ++tiu;
    if (std::isnan(e.uarch_rate)) continue;
    ++rated;
    const float r = e.uarch_rate;
    over += r > 1.0f;
    low += r < 0.2f;
    mid += r >= 0.2f && r < 0.6f;
    high += r >= 0.9f;
  }
  REQUIRE(tiu > 0);
  CHECK(static_cast<double>(rated) >= 0.9 * static_cast<double>(tiu));
  CHECK(over == 0);
  CHECK(static_cast<double>(low) < 0.05 * static_cast<double>(rated));
  CHECK(static_cast<double>(mid) > 0.15 * static_cast<double>(rated));
  CHECK(static_cast<double>(high) > 0.1 * static_cast<double>(rated));

  // cdm_options::uarch = false: the same events, every rate NaN.
  tpuprof::cdm::cdm_options no;
  no.uarch = false;
  tpuprof::cdm::cdm_decoder<Chip> n(files, no);
  REQUIRE(n.events().size() == d.events().size());
  std::size_t same = 0;
  for (std::size_t i = 0; i < n.events().size(); ++i) {
    const auto& a = d.events()[i];
    const auto& b = n.events()[i];
    CHECK(std::isnan(b.uarch_rate));
    same += a.begin_cycle == b.begin_cycle && a.end_cycle == b.end_cycle && a.cmd_id == b.cmd_id &&
            a.op == b.op && a.engine == b.engine && a.unit == b.unit && a.bytes == b.bytes;
  }
  CHECK(same == d.events().size());

  // ... also with the instructions kept: they have their ops, the events no rate.
  no.keep_instructions = true;
  tpuprof::cdm::cdm_decoder<Chip> k(files, no);
  std::size_t kept_ops = 0;
  for (const auto& e : k.events()) {
    CHECK(std::isnan(e.uarch_rate));
    if (const auto* c = k.command(e); c && e.engine == tpuprof::engine::tiu)
      kept_ops += c->alg_ops.has_value();
  }
  CHECK(static_cast<double>(kept_ops) >= 0.9 * static_cast<double>(rated));
}

TEST_CASE_TEMPLATE("mode-2 images keep every mode's commands: mode 1 and mode 2 dumps agree", Chip,
                   tpuprof::chips::aks, tpuprof::chips::aksv) {
  // The images draw from their own stream: the DYN_DATA words and PMU records
  // are byte-identical to the mode-1 dump of the same seed.
  tpuprof::synth::cdm_synth_options o;
  o.records = 200;
  o.seed = 4;
  o.mode = 1;
  const auto m1 = tpuprof::synth::synthesize_cdm<Chip>(o);
  o.mode = 2;
  const auto m2 = tpuprof::synth::synthesize_cdm<Chip>(o);
  REQUIRE(m1.expected.hw.size() == m2.expected.hw.size());
  for (std::size_t i = 0; i < m1.expected.hw.size(); ++i) {
    CHECK(m1.expected.hw[i].begin_cycle == m2.expected.hw[i].begin_cycle);
    CHECK(m1.expected.hw[i].cmd_id == m2.expected.hw[i].cmd_id);
  }
  const auto& f1 = m1.files.at("cdmlib0_0.profile");
  const auto& f2 = m2.files.at("cdmlib0_0.profile");
  REQUIRE(f2.size() > f1.size());
  CHECK(std::equal(f1.begin(), f1.end(), f2.begin()));  // mode 2 only appends DYN_EXTRA
  o.mode = 2;
  CHECK(tpuprof::synth::synthesize_cdm<Chip>(o).files == m2.files);  // deterministic
}
