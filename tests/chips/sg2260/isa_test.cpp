// SG2260-family descriptors: alg/arch ops and uArch rate against tpu-mlir PerfAI on the
// real BM1690 capture (tests/data/bm1690_vendor_regs.csv), DMA operand addresses against
// the vendor's src/dst_start_addr, hand-computed AKSV cases, malformed input.
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/chips/sg2260/isa.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>

namespace {

using tpuprof::engine;
namespace isa = tpuprof::regs::sg2260;
using tpuprof::chips::aks;
using tpuprof::chips::aksv;

/// Writes `v` into field `name` of form `t` (test-side encoder of descriptors).
void put(std::vector<std::byte>& b, const tpuprof::regs::reg_table& t, std::string_view name,
         std::uint64_t v) {
  const auto i = t.find(name);
  REQUIRE(i.has_value());
  const auto& f = t.fields[*i];
  for (unsigned k = 0; k < f.width; ++k) {
    const unsigned bit = f.lo + k;
    auto& byte = b.at(bit / 8);
    const auto mask = static_cast<std::byte>(1u << (bit % 8));
    byte = ((v >> k) & 1) ? (byte | mask) : (byte & ~mask);
  }
}

#ifdef TPUPROF_SAMPLES_DIR  // the helpers of the capture tests below (unused without samples)
std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", x * 100.0);
  return buf;
}

struct vendor_row {
  std::string eng, name, rate;
  std::uint32_t cmd_id = 0;
  std::uint64_t start = 0;
  std::string alg, arch, src, dst;
};

std::vector<vendor_row> read_vendor_regs() {
  std::ifstream in(std::string(TPUPROF_SOURCE_DIR) + "/tests/data/bm1690_vendor_regs.csv");
  REQUIRE(in);
  std::vector<vendor_row> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) f.push_back(cell);
    while (f.size() < 10) f.emplace_back();
    vendor_row r;
    r.eng = f[0];
    r.cmd_id = static_cast<std::uint32_t>(std::stoul(f[2]));
    r.start = std::stoull(f[3]);
    r.name = f[4];
    r.alg = f[5];
    r.arch = f[6];
    r.rate = f[7];
    r.src = f[8];
    r.dst = f[9];
    rows.push_back(r);
  }
  return rows;
}

#endif  // TPUPROF_SAMPLES_DIR

}  // namespace

#ifdef TPUPROF_SAMPLES_DIR

TEST_CASE("BM1690 capture: alg ops, arch ops and uArch rate of all 85 TIU events equal PerfAI") {
  const auto rows = read_vendor_regs();
  auto files = tpuprof::io::dump_files::open_directory(std::string(TPUPROF_SAMPLES_DIR) +
                                                       "/bm1690/cdm_profile_data_dev0");
  tpuprof::cdm::cdm_options o;
  o.keep_instructions = true;
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(files, o);
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> plain(files);  // keep_instructions off
  std::map<std::tuple<engine, std::uint32_t, std::uint64_t>, const tpuprof::engine_event*> by_key,
      plain_key;
  for (const auto& e : d.events()) by_key[{e.engine, e.cmd_id, e.begin_cycle}] = &e;
  for (const auto& e : plain.events()) plain_key[{e.engine, e.cmd_id, e.begin_cycle}] = &e;

  unsigned tiu = 0, with_ops = 0;
  for (const auto& w : rows) {
    if (w.eng != "TIU") continue;
    ++tiu;
    CAPTURE(w.cmd_id);
    CAPTURE(w.start);
    const auto* e = by_key.at({engine::tiu, w.cmd_id, w.start});
    const auto* p = plain_key.at({engine::tiu, w.cmd_id, w.start});
    const auto* c = d.command(*e);
    CHECK(plain.command(*p) == nullptr);
    if (w.name == "unknown") {
      // No command: the vendor prints the placeholders 1, 1, 0.0%; we say unknown.
      CHECK(w.alg == "1");
      CHECK(w.rate == "0.0%");
      CHECK(c == nullptr);
      CHECK(std::isnan(e->uarch_rate));
      continue;
    }
    REQUIRE(c != nullptr);
    REQUIRE(c->alg_ops.has_value());
    REQUIRE(c->arch_ops.has_value());
    CHECK(c->op == w.name);
    CHECK(std::to_string(*c->alg_ops) == w.alg);
    CHECK(std::to_string(*c->arch_ops) == w.arch);
    CHECK(percent(static_cast<double>(*c->alg_ops) / static_cast<double>(*c->arch_ops)) == w.rate);
    CHECK(e->uarch_rate == c->uarch_rate());
    CHECK(p->uarch_rate == e->uarch_rate);  // the fast path gives the same rate
    ++with_ops;
  }
  CHECK(tiu == 85);
  CHECK(with_ops == 81);

  SUBCASE("local memory ranges of the first arith.cast (res0 at 65536, 1x3x128x128 f16)") {
    const auto* e = by_key.at({engine::tiu, 1u, 31098u});
    const auto* c = d.command(*e);
    REQUIRE(c != nullptr);
    const auto ops = d.operands(*e);
    REQUIRE(ops.size() == 2);
    // opd0: f32 at lane offset 0; res0: f16 at 65536 (des_res0_addr), alignEU:
    // c per lane 1, h*w = 16384 elements.
    CHECK(ops[0].kind == tpuprof::regs::mem_kind::local);
    CHECK(ops[0].address == 0);
    CHECK(ops[0].size == 16384 * 4);
    CHECK_FALSE(ops[0].write);
    CHECK(ops[1].address == 65536);
    CHECK(ops[1].size == 16384 * 2);
    CHECK(ops[1].write);
  }
}

TEST_CASE("BM1690 capture: DMA operand addresses equal PerfAI's src/dst_start_addr") {
  const auto rows = read_vendor_regs();
  auto files = tpuprof::io::dump_files::open_directory(std::string(TPUPROF_SAMPLES_DIR) +
                                                       "/bm1690/cdm_profile_data_dev0");
  tpuprof::cdm::cdm_options o;
  o.keep_instructions = true;
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(files, o);
  std::map<std::tuple<engine, std::uint32_t, std::uint64_t>, const tpuprof::engine_event*> by_key;
  for (const auto& e : d.events()) by_key[{e.engine, e.cmd_id, e.begin_cycle}] = &e;
  unsigned checked = 0, local_dst = 0, fills = 0;
  for (const auto& w : rows) {
    if (w.eng == "TIU" || w.name == "unknown" || w.name == "DMA_sys") continue;
    CAPTURE(w.eng);
    CAPTURE(w.cmd_id);
    const auto eng = w.eng == "GDMA" ? engine::gdma : engine::sdma;
    const auto* e = by_key.at({eng, w.cmd_id, w.start});
    const auto* c = d.command(*e);
    REQUIRE(c != nullptr);
    REQUIRE(c->operands.size() >= 1);
    REQUIRE(c->results.size() == 1);
    const auto src = std::stoull(w.src), dst = std::stoull(w.dst);
    CHECK(c->results[0].address == dst);
    if (c->operands[0].is_const()) {
      ++fills;  // constant fill: the vendor prints the (unused) source fields, here 0
      CHECK(src == 0);
    } else {
      CHECK(c->operands[0].address == src);
    }
    // Memory kinds agree with the vendor's Direction (tag 31 local, 30 L2, else DDR).
    if (c->results[0].kind == tpuprof::regs::mem_kind::local) {
      ++local_dst;
      const auto ops = d.operands(*e);
      REQUIRE_FALSE(ops.empty());
      CHECK(ops.back().write);
      CHECK(ops.back().address == (dst & 0x3FFFFFF) % (256 * 1024));
    }
    ++checked;
  }
  CHECK(checked == 160);
  CHECK(local_dst == 108);
  CHECK(fills == 11);
}

#endif  // TPUPROF_SAMPLES_DIR

TEST_CASE("AKSV descriptors: hand-computed alg and arch ops") {
  namespace V = tpuprof::regs::aksv;
  SUBCASE("sAR arith.add f16 1x3x128x128") {
    std::vector<std::byte> b(V::s_ar.bytes());
    put(b, V::s_ar, "cmd_short", 1);
    put(b, V::s_ar, "tsk_typ", 3);
    put(b, V::s_ar, "tsk_eu_typ", 2);
    put(b, V::s_ar, "tsk_opd_num", 2);
    put(b, V::s_ar, "opt_opd0_prec", 1);
    put(b, V::s_ar, "opt_opd1_prec", 1);
    put(b, V::s_ar, "opt_res0_prec", 1);
    put(b, V::s_ar, "res0_n", 1);
    put(b, V::s_ar, "res0_c", 3);
    put(b, V::s_ar, "res0_h", 128);
    put(b, V::s_ar, "res0_w", 128);
    put(b, V::s_ar, "res0_addr", 65536);
    // AKSV splits strides: opd0 n stride 0x2_0005 = low 16 bits 5, bits 16..17 = 2.
    put(b, V::s_ar, "short_opd0_str", 3);
    put(b, V::s_ar, "opd0_n_str_15_0", 5);
    put(b, V::s_ar, "opd0_n_str_17_16", 2);
    const auto r = isa::tiu_ops<aksv>(b);
    CHECK(r.status == isa::decode_status::ok);
    CHECK(r.alg == 3 * 128 * 128);  // n*c*h*w
    CHECK(r.arch == 64 * 16384);    // c -> 64 NPUs; h*w = 16384 already a multiple of 32 EUs
    tpuprof::regs::instruction ins;
    CHECK(isa::decode<aksv>(engine::tiu, b, ins) == isa::decode_status::ok);
    REQUIRE(ins.operands.size() == 2);
    CHECK(ins.operands[0].lay == tpuprof::regs::layout::stride);
    CHECK(ins.operands[0].stride[0] == 0x20005);
    CHECK(ins.operands[0].type == tpuprof::regs::dtype::f16);
    CHECK(ins.results[0].address == 65536);
  }
  SUBCASE("sCONV f16: batch in opd0_n, 3x3 kernel, ic 3 -> oc 64, 8x8 output, bias const") {
    std::vector<std::byte> b(V::s_conv.bytes());
    put(b, V::s_conv, "cmd_short", 1);
    put(b, V::s_conv, "tsk_typ", 0);
    put(b, V::s_conv, "tsk_eu_typ", 0);
    put(b, V::s_conv, "opt_opd0_prec", 1);
    put(b, V::s_conv, "opt_res0_prec", 1);
    put(b, V::s_conv, "opt_opd2_const", 1);
    put(b, V::s_conv, "opd0_n", 2);
    put(b, V::s_conv, "res0_c", 64);
    put(b, V::s_conv, "res0_h", 8);
    put(b, V::s_conv, "res0_w", 8);
    put(b, V::s_conv, "opd0_c", 3);
    put(b, V::s_conv, "opd1_h", 3);
    put(b, V::s_conv, "opd1_w", 3);
    const auto r = isa::tiu_ops<aksv>(b);
    // alg: n*oc*oh*ow*(2*ic*kh*kw - 1 + 1) = 2*64*64*54
    CHECK(r.alg == 2 * 64 * 64 * 54);
    // arch: ic -> 32 (f16 cube), oh*ow -> multiple of 4, oc -> 64: 2*64*64*(2*32*9)
    CHECK(r.arch == 2 * 64 * 64 * 576);
    CHECK(r.uarch_rate() == doctest::Approx(54.0 / 576.0));
  }
  SUBCASE("fp8 has no EU entry on AKSV (arch unknown) but has one on AKS") {
    std::vector<std::byte> b(V::s_ar.bytes());
    put(b, V::s_ar, "cmd_short", 1);
    put(b, V::s_ar, "tsk_typ", 3);
    put(b, V::s_ar, "tsk_eu_typ", 19);  // copy
    put(b, V::s_ar, "tsk_opd_num", 1);
    put(b, V::s_ar, "opt_opd0_prec", 7);
    put(b, V::s_ar, "res0_n", 1);
    put(b, V::s_ar, "res0_c", 1);
    put(b, V::s_ar, "res0_h", 1);
    put(b, V::s_ar, "res0_w", 10);
    const auto r = isa::tiu_ops<aksv>(b);
    CHECK(r.alg == 10);
    CHECK_FALSE(r.arch.has_value());
    CHECK(std::isnan(r.uarch_rate()));
    CHECK(r.status == isa::decode_status::unsupported);
    CHECK(isa::eu_num(tpuprof::regs::dtype::f8e4m3, aks::has_fp8) == 64);
  }
  SUBCASE("SYS is 1 / 1") {
    std::vector<std::byte> b(V::s_sys.bytes());
    put(b, V::s_sys, "tsk_typ", 15);
    put(b, V::s_sys, "tsk_eu_typ", 31);
    const auto r = isa::tiu_ops<aksv>(b);
    CHECK(r.alg == 1);
    CHECK(r.arch == 1);
  }
}

TEST_CASE("AKS sMM2.nn: hand-computed ops") {
  namespace R = tpuprof::regs::aks;
  std::vector<std::byte> b(R::s_mm2.bytes());
  put(b, R::s_mm2, "cmd_short", 1);
  put(b, R::s_mm2, "tsk_typ", 2);
  put(b, R::s_mm2, "tsk_eu_typ", 4);
  put(b, R::s_mm2, "opt_opd0_prec", 1);
  put(b, R::s_mm2, "opt_res0_prec", 2);  // f32 result: 16 EUs
  put(b, R::s_mm2, "res0_c", 10);        // m
  put(b, R::s_mm2, "res0_w", 20);
  put(b, R::s_mm2, "opd1_w", 7);   // k
  put(b, R::s_mm2, "opd1_c", 20);  // n
  const auto r = isa::tiu_ops<aks>(b);
  CHECK(r.alg == 10 * 20 * 7 * 2);
  CHECK(r.arch == 64 * 32 * 8 * 2);  // m -> 64, n -> 16-multiple 32, k -> 4-multiple 8
}

TEST_CASE("AKS/AKSV descriptors: malformed or short input never crashes") {
  tpuprof::regs::instruction ins;
  std::array<std::byte, 8> tiny{};
  CHECK(isa::decode<aks>(engine::tiu, tiny, ins) == isa::decode_status::truncated);
  CHECK(isa::tiu_ops<aksv>(tiny).status == isa::decode_status::truncated);
  unsigned decoded = 0;
  auto run = [&]<class Chip>() {
    for (auto eng : {engine::tiu, engine::gdma})
      for (unsigned type = 0; type < 32; ++type)
        for (unsigned fill : {0x00u, 0xFFu})
          for (std::size_t len : {16u, 40u, 128u}) {
            std::vector<std::byte> b(len, static_cast<std::byte>(fill));
            if (eng == engine::tiu) {
              put(b, tpuprof::regs::aks::sys, "tsk_typ", type & 15);
            } else {
              for (unsigned k = 0; k < 5; ++k) {
                const auto m = static_cast<std::byte>(1u << ((32 + k) % 8));
                auto& by = b[(32 + k) / 8];
                by = ((type >> k) & 1) ? (by | m) : (by & ~m);
              }
            }
            const auto st = isa::decode<Chip>(eng, b, ins);
            if (st == isa::decode_status::ok) ++decoded;
            for (const auto& m : ins.memory) CHECK(m.size < (std::uint64_t{1} << 63));
            if (eng == engine::tiu) (void)isa::tiu_ops<Chip>(b);
          }
  };
  run.template operator()<aks>();
  run.template operator()<aksv>();
  CHECK(decoded > 0);
}

TEST_CASE("tiu_ops (operand summary only) equals the full decode on random images of every form") {
  // tiu_ops runs the converters into an op_summary; decode runs them into full
  // operands. Random register contents (small, zero and all-ones shapes, both
  // families, short and long forms, truncated framing) must give the same ops.
  std::mt19937_64 rng(20261122);
  unsigned with_ops = 0;
  auto run = [&]<class Chip>() {
    for (unsigned type = 0; type < 16; ++type)
      for (unsigned eu = 0; eu < 32; ++eu)
        for (unsigned is_short = 0; is_short < 2; ++is_short)
          for (int rep = 0; rep < 6; ++rep) {
            std::vector<std::byte> b(rep == 5 ? 40 : 128);
            for (auto& x : b)
              x = static_cast<std::byte>(rep == 0   ? 0
                                         : rep == 1 ? 0xFF
                                                    : (rng() % 4 ? rng() % 4 : rng()));
            // Header: bit 0 short form, tsk_typ at bit 41 (4 bits), tsk_eu_typ at 45 (5).
            auto set = [&](unsigned lo, unsigned w, unsigned v) {
              for (unsigned k = 0; k < w; ++k) {
                const auto m = static_cast<std::byte>(1u << ((lo + k) % 8));
                auto& by = b[(lo + k) / 8];
                by = ((v >> k) & 1) ? (by | m) : (by & ~m);
              }
            };
            set(0, 1, is_short);
            set(41, 4, type);
            set(45, 5, eu);
            tpuprof::regs::instruction ins;
            const auto st = isa::decode<Chip>(engine::tiu, b, ins);
            const auto r = isa::tiu_ops<Chip>(b);
            CAPTURE(Chip::cli_name);
            CAPTURE(type);
            CAPTURE(eu);
            CAPTURE(is_short);
            CAPTURE(rep);
            CHECK(r.status == st);
            // decode() drops both counts when either is unknown; tiu_ops keeps each.
            const bool both = r.alg && r.arch;
            CHECK((both ? r.alg : std::nullopt) == ins.alg_ops);
            CHECK((both ? r.arch : std::nullopt) == ins.arch_ops);
            with_ops += both;
          }
  };
  run.template operator()<aks>();
  run.template operator()<aksv>();
  CHECK(with_ops > 1000);
}
