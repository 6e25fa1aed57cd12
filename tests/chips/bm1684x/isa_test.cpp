#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1684x/isa.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>

#include "test_util.hpp"

using tpuprof::engine;
using tpuprof::chips::bm1684x;
namespace R = tpuprof::regs;

TEST_CASE("BM1684X register tables: lengths agree with the framing table") {
  namespace T = tpuprof::regs::bm1684x;
  CHECK(T::s_ar.bytes() == 64);
  CHECK(T::s_conv.bytes() == 64);
  CHECK(T::s_pord.bytes() == 64);
  CHECK(T::s_mm.bytes() == 48);
  CHECK(T::s_mm2.bytes() == 32);
  CHECK(T::s_rq_sdq.bytes() == 32);
  CHECK(T::s_trans_sbc.bytes() == 32);
  CHECK(T::s_sg.bytes() == 48);
  CHECK(T::s_sfu.bytes() == 32);
  CHECK(T::s_lin.bytes() == 32);
  CHECK(T::s_cmp.bytes() == 48);
  CHECK(T::s_vc.bytes() == 48);
  CHECK(T::ar.bytes() == 128);
  CHECK(T::sysid.bytes() == 16);
  CHECK(T::lar.bytes() == 16);
  CHECK(T::dma_tensor.bytes() == 96);
  CHECK(T::s_dma_matrix.bytes() == 64);
  CHECK(T::s_dma_general.bytes() == 48);
  CHECK(T::s_dma_sys.bytes() == 16);
  // every table is contiguous: fields tile [0, bits)
  for (const auto* t : T::all_tables) {
    CAPTURE(t->sheet);
    unsigned next = 0;
    for (const auto& f : t->fields) {
      CHECK(f.lo == next);
      CHECK(f.width >= 1);
      CHECK(f.width <= 64);
      next = f.lo + f.width;
    }
    CHECK(next == t->bits);
  }
  static_assert(T::s_ar.find("res0_n").has_value());
  static_assert(!T::s_ar.find("no_such_field").has_value());
}

TEST_CASE("read_bits reads LSB-first across bytes and stops at the end") {
  std::vector<std::byte> b{std::byte{0xF0}, std::byte{0x0F}, std::byte{0xAA}};
  CHECK(R::read_bits(b, 4, 8) == 0xFF);
  CHECK(R::read_bits(b, 0, 24) == 0xAA0FF0);
  CHECK(R::read_bits(b, 20, 16) == 0xA);  // bits past the end read as 0
  CHECK(R::read_bits(b, 100, 8) == 0);
}

TEST_CASE("read_bits: the 8-byte-load path equals a bit-by-bit reading everywhere") {
  // Every start bit and width over a 24-byte buffer: fields inside the last 8
  // bytes, wider than 57 bits and running past the end take the byte loop.
  std::vector<std::byte> b(24);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::byte>(i * 37 + 11);
  for (unsigned lo = 0; lo < 8 * 24 + 9; ++lo)
    for (unsigned w = 1; w <= 64; ++w) {
      std::uint64_t want = 0;
      for (unsigned k = 0; k < w; ++k) {
        const unsigned bit = lo + k;
        if (bit / 8 < b.size())
          want |= std::uint64_t{(std::to_integer<unsigned>(b[bit / 8]) >> (bit % 8)) & 1u} << k;
      }
      CHECK(R::read_bits(b, lo, w) == want);
    }
  static_assert(R::read_bits(std::array<std::byte, 9>{std::byte{0xF0}, std::byte{0x0F}}, 4, 8) ==
                0xFF);  // constant evaluation takes the byte loop
}

TEST_CASE("malformed descriptors decode to a status, never a crash") {
  R::instruction ins;
  std::vector<std::byte> small(8);
  CHECK(R::bm1684x_isa::decode(engine::tiu, small, ins) ==
        R::bm1684x_isa::decode_status::truncated);
  std::vector<std::byte> d(16);
  d[5] = std::byte{0x10};  // tsk_typ bits 41..44 = 8: no such TIU type
  CHECK(R::bm1684x_isa::decode(engine::tiu, d, ins) ==
        R::bm1684x_isa::decode_status::unknown_opcode);
  d.assign(40, std::byte{0});  // long AR (128 bytes) with 40 bytes
  d[5] = std::byte{0x06};      // tsk_typ 3
  CHECK(R::bm1684x_isa::decode(engine::tiu, d, ins) == R::bm1684x_isa::decode_status::truncated);
  d.assign(16, std::byte{0xFF});  // LAR with all bits set: no converter, no ops
  d[5] = std::byte{0x0E};         // tsk_typ 7, eu high bits
  CHECK(R::bm1684x_isa::decode(engine::tiu, d, ins) == R::bm1684x_isa::decode_status::unsupported);
  CHECK(!ins.alg_ops);
  CHECK(std::isnan(ins.uarch_rate()));
}

#ifdef TPUPROF_SAMPLES_DIR
namespace {
const std::string sample_dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";

std::string vendor_dir(tpuprof::direction d) {
  switch (d) {
    case tpuprof::direction::s2l:
      return "ddr->lmem";
    case tpuprof::direction::l2s:
      return "lmem->ddr";
    case tpuprof::direction::s2s:
      return "ddr->ddr";
    case tpuprof::direction::c2s:
      return "const->ddr";
    default:
      return std::string(tpuprof::name(d));
  }
}

std::string pct(double v) {  // Python "{:.3%}"
  char b[32];
  std::snprintf(b, sizeof b, "%.3f%%", v * 100);
  return b;
}
}  // namespace

// Expected values: tests/data/bm1684x_vendor_instructions.csv, copied from the
// instruction.csv that tpu-mlir's tpu_profile.py --format layer wrote for this
// capture (commands in tests/data/README.md).
TEST_CASE(
    "BM1684X capture: every TIU command's op, dtypes, alg/arch ops and uArch rate equal "
    "instruction.csv; every GDMA command's direction and dtypes too") {
  tpuprof::bmprofile_decoder<bm1684x> d(tpuprof::io::dump_files::open_directory(sample_dir));
  const auto& names = d.info().names;
  auto rows = test_util::read_csv(std::string(TPUPROF_SOURCE_DIR) +
                                  "/tests/data/bm1684x_vendor_instructions.csv");
  REQUIRE(rows.size() == 251);
  rows.erase(rows.begin());
  // events by (engine, start cycle)
  std::map<std::pair<std::string, std::uint64_t>, tpuprof::engine_event> ev;
  for (const auto& e : d.events()) ev[{std::string(tpuprof::name(e.engine)), e.begin_cycle}] = e;
  int tiu = 0, gdma = 0, bytes_equal = 0;
  for (const auto& r : rows) {
    CAPTURE(r[0]);
    CAPTURE(r[1]);
    auto it = ev.find({r[0], std::stoull(r[2])});
    REQUIRE(it != ev.end());
    const auto& e = it->second;
    CHECK(e.cmd_id == std::stoul(r[1]));
    const R::instruction* c = d.command(e);
    REQUIRE(c != nullptr);
    CHECK(c->op == r[3]);
    CHECK(names[e.op] == r[3]);
    CHECK(R::name(c->in_type()) == r[5]);
    CHECK(R::name(c->out_type()) == r[6]);
    if (r[0] == "TIU") {
      ++tiu;
      REQUIRE(c->alg_ops);
      REQUIRE(c->arch_ops);
      CHECK(*c->alg_ops == std::stoll(r[7]));
      CHECK(*c->arch_ops == std::stoll(r[8]));
      CHECK(pct(static_cast<double>(*c->alg_ops) / static_cast<double>(*c->arch_ops)) == r[9]);
      CHECK(e.uarch_rate == doctest::Approx(std::stod(r[7]) / std::stod(r[8])));
    } else {
      ++gdma;
      CHECK(vendor_dir(c->dir) == r[4]);
      CHECK(vendor_dir(e.dir()) == r[4]);
      CHECK(!c->alg_ops);
      CHECK(std::isnan(e.uarch_rate));
      // "DMA data size(B)" is the PMU's written bytes; the descriptor's
      // destination size equals it except for the const fills counted twice
      CHECK(e.bytes == std::stoull(r[10]));
      if (c->bytes == e.bytes) ++bytes_equal;
    }
  }
  CHECK(tiu == 90);
  CHECK(gdma == 160);
  CHECK(bytes_equal == 160);
  CHECK(d.info().diagnostics[tpuprof::diag::other] == 0);
  // the firmware GDMA records have no descriptor
  int without = 0;
  for (const auto& e : d.events(engine::gdma))
    if (!d.command(e)) ++without;
  CHECK(without == 3);
  CHECK(d.commands(0, engine::tiu).size() == 93);
  CHECK(d.commands(0, engine::gdma).size() == 161);
}

// Expected values: tests/data/bm1684x_vendor_mem.csv, from the mem.csv that
// tpu_profile.py --format csv wrote (the records of its LOCAL/GLOBAL MEM charts).
TEST_CASE("BM1684X capture: memory operands equal the vendor's memory records") {
  tpuprof::bmprofile_decoder<bm1684x> d(tpuprof::io::dump_files::open_directory(sample_dir));
  auto rows =
      test_util::read_csv(std::string(TPUPROF_SOURCE_DIR) + "/tests/data/bm1684x_vendor_mem.csv");
  REQUIRE(rows.size() == 580);
  rows.erase(rows.begin());
  // ours: (mem_type, engine, start cycle, address, size, rw) multiset
  std::map<std::tuple<std::string, std::string, std::uint64_t, std::uint64_t, std::uint64_t, char>,
           int>
      ours, theirs;
  for (const auto& e : d.events())
    for (const auto& m : d.operands(e)) {
      const bool global = m.kind != R::mem_kind::local;
      ++ours[{global ? "global" : "local", std::string(tpuprof::name(e.engine)), e.begin_cycle,
              m.address, m.size, m.write ? 'W' : 'R'}];
    }
  for (const auto& r : rows)
    ++theirs[{r[0], r[1], std::stoull(r[3]), std::stoull(r[4]), std::stoull(r[5]), r[6][0]}];
  std::size_t n = 0;
  for (const auto& [k, v] : ours) n += static_cast<std::size_t>(v);
  CHECK(n == 579);
  for (const auto& [k, v] : theirs) {
    CAPTURE(std::get<0>(k));
    CAPTURE(std::get<1>(k));
    CAPTURE(std::get<2>(k));
    CAPTURE(std::get<3>(k));
    CAPTURE(std::get<4>(k));
    CHECK(ours[k] == v);
  }
}
#endif
