// Roofline work from the register decode (issue #16): the alg ops of one real BM1684X conv
// computed by hand from its descriptor bytes, the per-command peaks of
// chips/bm1684x/peak_ops.hpp as upper bounds on the capture, and a layer's ops/s.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/algo/roofline.hpp>
#include <tpuprof/chips/bm1684x/peak_ops.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/open.hpp>

#include "test_util.hpp"

TEST_CASE("BM1684X peak ops: the vendor's classes, lanes x EUs x clock for vector ops") {
  using tpuprof::chips::bm1684x_peak_ops_per_s;
  CHECK(bm1684x_peak_ops_per_s(0, 8) == 32 * 1024e9);   // CONV int8
  CHECK(bm1684x_peak_ops_per_s(0, 16) == 16 * 1024e9);  // CONV f16 / bf16
  CHECK(bm1684x_peak_ops_per_s(2, 32) == 2 * 1024e9);   // MM f32
  CHECK(bm1684x_peak_ops_per_s(1, 8) == 8 * 1024e9);    // PD (pool)
  // AR: 64 lanes x (64 EU bytes / element bytes) x 1 GHz
  CHECK(bm1684x_peak_ops_per_s(3, 8) == 64.0 * 64 * 1e9);
  CHECK(bm1684x_peak_ops_per_s(3, 16) == 64.0 * 32 * 1e9);
  CHECK(bm1684x_peak_ops_per_s(3, 32) == 64.0 * 16 * 1e9);
  CHECK(bm1684x_peak_ops_per_s(15, 8) == 0);  // SYS: no work
  CHECK(bm1684x_peak_ops_per_s(3, 4) == 0);   // no stated figure
}

TEST_CASE("roofline: a layer's peak is its ops over their time at each command's peak") {
  using tpuprof::engine_event;
  std::vector<engine_event> e(2);
  e[0].engine = e[1].engine = tpuprof::engine::tiu;
  e[0].cmd_id = 1;
  e[1].cmd_id = 2;
  e[0].layer_id = e[1].layer_id = 7;
  e[0].begin_ns = 0;
  e[0].end_ns = 100;
  e[1].begin_ns = 100;
  e[1].end_ns = 200;
  engine_event d;  // a load of 1000 bytes
  d.engine = tpuprof::engine::gdma;
  d.cmd_id = 1;
  d.layer_id = 7;
  d.begin_ns = 0;
  d.end_ns = 50;
  d.bytes = 1000;
  d.set_flag(engine_event::flag_has_bytes);
  e.push_back(d);
  const auto g = tpuprof::algo::build_dependency_graph(e);
  const auto idle = tpuprof::algo::idle_causes(g);
  tpuprof::chip_ceilings c;
  c.ddr_bytes_per_s = 1e12;
  const std::vector<double> ops{3e6, 1e6, std::nan("")};
  // 3e6 ops at 3e12 ops/s and 1e6 at 1e12: 2 us at peak for 4e6 ops -> 2e12 ops/s
  const std::vector<double> peak{3e12, 1e12, std::nan("")};
  const auto r = tpuprof::algo::roofline(g, idle, c, ops, peak);
  REQUIRE(r.size() == 1);
  CHECK(r[0].alg_ops == 4e6);
  CHECK(r[0].intensity == doctest::Approx(4000));
  CHECK(r[0].achieved_ops_per_s == doctest::Approx(4e6 / 200e-9));
  CHECK(r[0].attainable_ops_per_s == doctest::Approx(2e12));  // min(2e12, 4000 x 1e12)
  // one counted command without a stated peak: attainable unknown, never guessed
  const std::vector<double> half{3e12, std::nan(""), std::nan("")};
  const auto u = tpuprof::algo::roofline(g, idle, c, ops, half);
  CHECK(u[0].alg_ops == 4e6);
  CHECK(std::isnan(u[0].attainable_ops_per_s));
  CHECK(std::isfinite(u[0].achieved_ops_per_s));
}

#ifdef TPUPROF_SAMPLES_DIR
namespace {

const std::string bm1684x_dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";

/// `xxd -s 688 -l 64 cmd_12425c000_0_0.dat`: the short-form CONV descriptor (sCONV, 64 bytes)
/// of TIU command 14 (descriptor cmd_id 15), layer 29 of blazeface.
constexpr std::array<std::uint8_t, 64> conv14{
    0x1f, 0x00, 0xa0, 0x00, 0x00, 0x00, 0x80, 0x00, 0x12, 0x22, 0x22, 0x22, 0x02, 0x00, 0x20, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x18, 0x00, 0x40, 0x00, 0x40, 0x00, 0x18, 0x00, 0x40, 0x00,
    0x40, 0x00, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00,
    0x00, 0xc0, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

/// Bits lo .. lo+w-1 of the descriptor, LSB-first (format-bm1684x.md section 5.2.1).
std::uint64_t field(unsigned lo, unsigned w) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < w; ++i)
    v |= std::uint64_t{(conv14[(lo + i) / 8] >> ((lo + i) % 8)) & 1u} << i;
  return v;
}

}  // namespace

TEST_CASE("BM1684X conv command 14: alg ops computed by hand from its descriptor") {
  const std::string file = test_util::read_text(bm1684x_dir + "/cmd_12425c000_0_0.dat");
  REQUIRE(file.size() == 5760);
  for (std::size_t i = 0; i < conv14.size(); ++i)
    CHECK(static_cast<std::uint8_t>(file[688 + i]) == conv14[i]);
  // The sCONV fields (regs/bm1684x: chips/bm1684x/regs.hpp s_conv_fields), read by hand.
  CHECK(field(0, 1) == 1);    // cmd_short
  CHECK(field(1, 20) == 15);  // cmd_id (PMU id 14)
  CHECK(field(41, 4) == 0);   // tsk_typ CONV
  CHECK(field(45, 5) == 0);   // tsk_eu_typ conv.normal
  CHECK(field(65, 3) == 1);   // res0_prec f16
  CHECK(field(68, 3) == 1);   // opd0_prec f16
  const std::uint64_t n = field(160, 16), oc = field(176, 16), oh = field(192, 16),
                      ow = field(208, 16), ic = field(224, 16), kh = field(272, 16),
                      kw = field(288, 16);
  CHECK(n == 1);
  CHECK(oc == 24);
  CHECK(oh == 64);
  CHECK(ow == 64);
  CHECK(ic == 24);
  CHECK(kh == 3);
  CHECK(kw == 3);
  // opdef_1684x.py: conv alg ops = n * oc * oh * ow * (2 * ic * kh * kw - 1 + has_bias); the
  // short form always has its bias operand: 1 * 24 * 64 * 64 * (2 * 24 * 9) = 42 467 328.
  const std::uint64_t hand = n * oc * oh * ow * (2 * ic * kh * kw - 1 + 1);
  CHECK(hand == 42467328);
  tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d(
      tpuprof::io::dump_files::open_directory(bm1684x_dir));
  int seen = 0;
  for (const auto& e : d.events(tpuprof::engine::tiu)) {
    if (e.cmd_id != 14) continue;
    ++seen;
    const auto* c = d.command(e);
    REQUIRE(c != nullptr);
    CHECK(c->op == "conv.normal");
    REQUIRE(c->alg_ops);
    CHECK(*c->alg_ops == hand);
    REQUIRE(c->raw.size() == conv14.size());
    for (std::size_t i = 0; i < conv14.size(); ++i)
      CHECK(static_cast<std::uint8_t>(c->raw[i]) == conv14[i]);
    CHECK(e.layer_id == 29);
    CHECK(e.end_ns - e.begin_ns == doctest::Approx(9634));
    // 42 467 328 ops in 9634 ns: 4.41e12 ops/s, 27 % of the f16 cube's 16 x 1024e9
    const double peak = tpuprof::chips::bm1684x_peak_ops_per_s(c->type, 16);
    CHECK(peak == 16 * 1024e9);
  }
  CHECK(seen == 1);
}

TEST_CASE("BM1684X capture: no TIU command beats its peak; layer 29 on the roofline") {
  tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d(
      tpuprof::io::dump_files::open_directory(bm1684x_dir));
  int counted = 0;
  double best = 0;
  for (const auto& e : d.events(tpuprof::engine::tiu)) {
    const auto* c = d.command(e);
    if (!c || !c->alg_ops || c->operands.empty()) continue;
    const double peak =
        tpuprof::chips::bm1684x_peak_ops_per_s(c->type, tpuprof::regs::bit_size(c->in_type()));
    CAPTURE(e.cmd_id);
    REQUIRE(peak > 0);
    const double rate = static_cast<double>(*c->alg_ops) / ((e.end_ns - e.begin_ns) * 1e-9);
    CHECK(rate <= peak);
    best = std::max(best, rate / peak);
    ++counted;
  }
  CHECK(counted == 89);  // 90 TIU commands, 1 without operands
  // conv 45 (1 835 008 ops in 166 ns): 67 % of the f16 cube, 2.7x lanes x EUs x clock
  CHECK(best == doctest::Approx(1835008 / 166e-9 / (16 * 1024e9)));

  tpuprof::open_options o;
  o.dependencies = true;
  o.time = tpuprof::time_base::shared_counter;
  const auto t = tpuprof::open(bm1684x_dir, o);
  const auto g = tpuprof::algo::build_dependency_graph(t);
  std::vector<double> ops(g.size(), std::nan("")), peak(g.size(), std::nan(""));
  for (std::uint32_t n = 0; n < g.size(); ++n) {
    const auto& e = g.events[n];
    if (e.engine != tpuprof::engine::tiu) continue;
    for (const auto& k : d.events(tpuprof::engine::tiu))
      if (k.cmd_id == e.cmd_id && k.begin_cycle == e.begin_cycle) {
        const auto* c = d.command(k);
        if (!c || !c->alg_ops || c->operands.empty()) break;
        ops[n] = static_cast<double>(*c->alg_ops);
        peak[n] =
            tpuprof::chips::bm1684x_peak_ops_per_s(c->type, tpuprof::regs::bit_size(c->in_type()));
      }
  }
  const auto layers = tpuprof::algo::roofline(g, tpuprof::algo::idle_causes(g),
                                              tpuprof::chips::bm1684x::ceilings, ops, peak);
  int with_ops = 0;
  for (const auto& l : layers) {
    CAPTURE(l.layer_id);
    if (std::isfinite(l.alg_ops)) ++with_ops;
    if (std::isfinite(l.attainable_ops_per_s))  // the DMA never beats the DDR ceiling either
      CHECK(l.achieved_ops_per_s <= l.attainable_ops_per_s * (1 + 1e-9));
    if (l.layer_id != 29) continue;
    CHECK(l.alg_ops == 42467328);  // conv 14 alone
    CHECK(l.achieved_ops_per_s == doctest::Approx(42467328 / 9634e-9));
    CHECK(l.bytes == 0);
    CHECK(std::isnan(l.attainable_ops_per_s));  // no bytes: no intensity
    CHECK(l.bound == tpuprof::algo::bound_class::compute);
  }
  CHECK(with_ops > 0);
}
#endif
