// BM1688 and CV184X descriptors decoded into instructions (operands, memory records) on the real
// captures, against the vendor: GDMA source / destination addresses of every command against
// tests/data/{bm1688,cv184x}_vendor_regs.csv, and the operands of single commands against
// tpu-mlir debugger/target_1688 / target_cv184x (opparam.py converters, memmap.py MemRef) run on
// the same command files (values copied from its printout: tests/data/README.md, "Operands").
// Also the layer / subnet spans of both captures.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/open.hpp>

#include "../../test_util.hpp"

#ifdef TPUPROF_SAMPLES_DIR

using tpuprof::bmprofile_decoder;
using tpuprof::engine;
using tpuprof::regs::dtype;
using tpuprof::regs::layout;
using tpuprof::regs::mem_kind;

namespace {

const std::string samples = TPUPROF_SAMPLES_DIR;

template <class Chip>
bmprofile_decoder<Chip> open_capture(const char* chip) {
  return bmprofile_decoder<Chip>(
      tpuprof::io::dump_files::open_directory(samples + "/" + chip + "/bmprofile_data-1"));
}

/// The instruction of the event of engine `e` with PMU id `id` (core 0).
template <class D>
const tpuprof::regs::instruction& command_of(const D& d, engine e, std::uint32_t id) {
  for (const auto& ev : d.events())
    if (ev.engine == e && ev.cmd_id == id) {
      const auto* c = d.command(ev);
      REQUIRE(c != nullptr);
      return *c;
    }
  FAIL("no event");
  throw 0;
}

void check_tensor(const tpuprof::regs::tensor_ref& t, mem_kind k, std::uint64_t addr,
                  std::vector<std::uint64_t> shape, dtype ty, layout lay,
                  std::vector<std::int64_t> stride) {
  CHECK(t.kind == k);
  CHECK(t.address == addr);
  CHECK(std::vector<std::uint64_t>(t.shape.begin(), t.shape.begin() + t.rank) == shape);
  CHECK(t.type == ty);
  CHECK(t.lay == lay);
  CHECK(std::vector<std::int64_t>(t.stride.begin(), t.stride.begin() + t.stride_rank) == stride);
}

/// Every GDMA data command's source and destination address equals the vendor's
/// src_start_addr / dst_start_addr; returns how many were compared.
template <class Chip>
std::size_t check_dma_addresses(const char* chip) {
  const auto d = open_capture<Chip>(chip);
  auto rows = test_util::read_csv(std::string(TPUPROF_SOURCE_DIR) + "/tests/data/" + chip +
                                  "_vendor_regs.csv");
  rows.erase(rows.begin());
  std::vector<tpuprof::engine_event> ev;
  for (const auto& e : d.events()) ev.push_back(e);
  REQUIRE(ev.size() == rows.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    if (rows[i][0] != "GDMA" || rows[i][4].rfind("DMA_", 0) != 0) continue;
    const auto* c = d.command(ev[i]);
    REQUIRE(c != nullptr);
    REQUIRE(c->operands.size() == 1);
    REQUIRE(c->results.size() == 1);
    const auto raw = [&](const tpuprof::regs::tensor_ref& t) {
      // local operands carry the lane offset; the vendor prints the register value
      return t.kind == mem_kind::local && std::string(chip) == "cv184x"
                 ? t.address | std::uint64_t{31} << 40
                 : t.address;
    };
    CHECK(raw(c->operands[0]) == std::stoull(rows[i][13]));
    CHECK(raw(c->results[0]) == std::stoull(rows[i][14]));
    // a constant fill has no source address: c2s / c2l (the event keeps the vendor's
    // direction from the raw address, LMEM->DDR for address 0)
    if (c->operands[0].is_const())
      CHECK(c->dir == (c->results[0].kind == mem_kind::ddr ? tpuprof::direction::c2s
                                                           : tpuprof::direction::c2l));
    else
      CHECK(c->dir == ev[i].dir());
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("BM1688 / CV184X: GDMA addresses of every command equal the vendor's registers") {
  CHECK(check_dma_addresses<tpuprof::chips::bm1688>("bm1688") == 166);
  CHECK(check_dma_addresses<tpuprof::chips::cv184x>("cv184x") == 224);  // not the chain end
}

TEST_CASE("BM1688 capture: operands of single commands equal the vendor's decoding") {
  const auto d = open_capture<tpuprof::chips::bm1688>("bm1688");
  SUBCASE("TIU 15 conv.normal: input, alignIC weights, ui32 bias, constant, result") {
    const auto& c = command_of(d, engine::tiu, 15);
    CHECK(c.op == "conv.normal");
    REQUIRE(c.operands.size() == 4);
    check_tensor(c.operands[0], mem_kind::local, 40960, {1, 15, 64, 128}, dtype::f16,
                 layout::align_eu, {8192, 8192, 128, 1});
    check_tensor(c.operands[1], mem_kind::local, 73728, {24, 15, 1, 5}, dtype::f16,
                 layout::align_ic, {});
    check_tensor(c.operands[2], mem_kind::local, 98304, {1, 24, 1, 1}, dtype::ui32, layout::compact,
                 {1, 1, 1, 1});
    CHECK(c.operands[3].is_const());
    REQUIRE(c.results.size() == 1);
    check_tensor(c.results[0], mem_kind::local, 32768, {1, 24, 64, 64}, dtype::f16,
                 layout::align_eu, {4096, 4096, 64, 1});
    // memory: 3 reads then the write; one lane holds ceil(15 / 32) = 1 channel
    REQUIRE(c.memory.size() == 4);
    CHECK(c.memory[0].address == 40960);
    CHECK(c.memory[0].size == 8192 * 2);
    CHECK(c.memory[0].data_size == 15 * 64 * 128 * 2);
    CHECK(c.memory[1].size == 1 * 1 * 5 * 16 * 2);  // ceil(24/32) * h * w * align(15, 16) f16
    CHECK(c.memory[3].write);
    CHECK(c.memory[3].address == 32768);
    CHECK(c.memory[3].size == 4096 * 2);
  }
  SUBCASE("TIU 2 tsbc.l_bc: one channel at lane 2 broadcast to five channels at lane 10") {
    const auto& c = command_of(d, engine::tiu, 2);
    check_tensor(c.operands[0], mem_kind::local, 262144, {1, 1, 128, 128}, dtype::f16,
                 layout::align_eu, {16384, 16384, 128, 1});
    check_tensor(c.results[0], mem_kind::local, 1310720, {1, 5, 128, 128}, dtype::f16,
                 layout::align_eu, {16384, 16384, 128, 1});
    CHECK(c.memory[0].address == 0);  // offset inside the lane
    CHECK(c.memory[1].address == 0);
  }
  SUBCASE("TIU 9 sg.pe_s_scatter_hzd: the index operand read at opd0's address (vendor)") {
    const auto& c = command_of(d, engine::tiu, 9);
    REQUIRE(c.operands.size() == 2);
    check_tensor(c.operands[1], mem_kind::local, 57360, {1, 5, 1, 1}, dtype::ui8, layout::align_eu,
                 {16, 16, 1, 1});
  }
  SUBCASE("TIU 29 pord.maxpooling: input and padding constant") {
    const auto& c = command_of(d, engine::tiu, 29);
    REQUIRE(c.operands.size() == 2);
    check_tensor(c.operands[0], mem_kind::local, 8192, {1, 28, 64, 64}, dtype::f16,
                 layout::align_eu, {4096, 4096, 64, 1});
    CHECK(c.operands[1].is_const());
    CHECK(c.operands[1].address == 0xFBFF);  // -65504 as f16
    check_tensor(c.results[0], mem_kind::local, 16384, {1, 28, 32, 32}, dtype::f16,
                 layout::align_eu, {1024, 1024, 32, 1});
  }
  SUBCASE("GDMA 4 dma.tensor: DDR (tag 2) to local memory") {
    const auto& c = command_of(d, engine::gdma, 4);
    check_tensor(c.operands[0], mem_kind::ddr, 687194767360, {1, 3, 128, 128}, dtype::f16,
                 layout::dma_stride, {49152, 16384, 128, 1});
    check_tensor(c.results[0], mem_kind::local, 0, {1, 3, 128, 128}, dtype::f16, layout::dma_stride,
                 {16384, 16384, 128, 1});
    CHECK(c.dir == tpuprof::direction::s2l);
    CHECK(c.bytes == 3 * 128 * 128 * 2);
    CHECK(c.memory[0].size == 3 * 128 * 128 * 2);
  }
  SUBCASE("GDMA 2 dma.matrix: a local (1, 32768) matrix of 1024-wide rows stored to DDR") {
    const auto& c = command_of(d, engine::gdma, 2);
    check_tensor(c.operands[0], mem_kind::local, 65536, {1, 32768}, dtype::f16, layout::dma_matrix,
                 {1024, 1024, 0, 1});
    CHECK(c.operands[0].layout_w == 1024);
    check_tensor(c.results[0], mem_kind::ddr, 687194767360, {1, 1, 1, 32768}, dtype::f16,
                 layout::dma_stride, {0, 0, 32768, 1});
    CHECK(c.dir == tpuprof::direction::l2s);
    // 32 rows of 1024 over 32 lanes: one row per lane
    CHECK(c.memory[0].size == 1024 * 2);
  }
}

TEST_CASE("CV184X capture: operands of single commands equal the vendor's decoding") {
  const auto d = open_capture<tpuprof::chips::cv184x>("cv184x");
  SUBCASE("TIU 1 conv.normal (bf16, 8 lanes)") {
    const auto& c = command_of(d, engine::tiu, 1);
    REQUIRE(c.operands.size() == 4);
    check_tensor(c.operands[0], mem_kind::local, 24576, {1, 3, 46, 128}, dtype::bf16,
                 layout::align_eu, {5888, 5888, 128, 1});
    check_tensor(c.operands[1], mem_kind::local, 49152, {24, 3, 5, 5}, dtype::bf16,
                 layout::align_ic, {});
    check_tensor(c.operands[2], mem_kind::local, 53248, {1, 24, 1, 1}, dtype::ui32, layout::compact,
                 {3, 1, 1, 1});
    check_tensor(c.results[0], mem_kind::local, 36864, {1, 24, 22, 64}, dtype::bf16,
                 layout::align_eu, {4224, 1408, 64, 1});
    // ceil(24 / 8) = 3 channels per lane
    CHECK(c.memory.back().size == (2 * 1408 + 21 * 64 + 63 + 1) * 2);
  }
  SUBCASE("GDMA 0 dma.tensor: DDR tag 2 to local memory (tag 31)") {
    const auto& c = command_of(d, engine::gdma, 0);
    check_tensor(c.operands[0], mem_kind::ddr, 2201171394560, {1, 3, 46, 128}, dtype::f32,
                 layout::dma_stride, {49152, 16384, 128, 1});
    check_tensor(c.results[0], mem_kind::local, 0, {1, 3, 46, 128}, dtype::f32, layout::dma_stride,
                 {5888, 5888, 128, 1});
  }
  SUBCASE("GDMA 164/165 dma.matrix: addresses as the registers say (the vendor swaps halves)") {
    const auto& ld = command_of(d, engine::gdma, 164);
    check_tensor(ld.operands[0], mem_kind::ddr, 2201170812928, {1, 1, 1, 896}, dtype::bf16,
                 layout::dma_stride, {0, 0, 896, 1});
    check_tensor(ld.results[0], mem_kind::local, 0, {1, 896}, dtype::bf16, layout::dma_matrix,
                 {112, 112, 0, 1});
    const auto& st = command_of(d, engine::gdma, 165);
    CHECK(st.operands[0].kind == mem_kind::local);
    CHECK(st.operands[0].address == 32768);
    CHECK(st.results[0].address == 2201170825216);
    CHECK(st.dir == tpuprof::direction::l2s);
  }
}

TEST_CASE("BM1688 / CV184X: open() keeps operands and the local-memory banks of the traits") {
  for (auto [chip, bank, no_memory] :
       {std::tuple{"bm1688", 8192u, 1u}, std::tuple{"cv184x", 4096u, 2u}}) {
    CAPTURE(chip);
    tpuprof::open_options o;
    o.keep_operands = true;
    const auto t = tpuprof::open(samples + "/" + chip + "/bmprofile_data-1", o);
    CHECK(t.has_operands());
    std::size_t with = 0, without = 0;
    for (const auto& e : t.events()) (t.operands(e).empty() ? without : with)++;
    CHECK(without == no_memory);  // system.end (and CV184X's chain end): no memory
    std::size_t banks = 0;
    for (const auto& r : t.memory_regions())
      if (r.kind == mem_kind::local) {
        CHECK(r.size == bank);
        ++banks;
      }
    CHECK(banks == 16);
  }
}

TEST_CASE("BM1688 / CV184X: layer and subnet spans") {
  for (const char* chip : {"bm1688", "cv184x"}) {
    CAPTURE(chip);
    const auto t = tpuprof::open(samples + "/" + chip + "/bmprofile_data-1");
    const auto& names = t.info().names;
    std::map<std::int32_t, std::pair<double, double>> want;  // layer id -> event extent
    for (const auto& e : t.events()) {
      if (e.layer_id < 0) continue;
      auto [it, fresh] = want.try_emplace(e.layer_id, e.begin_ns, e.end_ns);
      it->second.first = std::min(it->second.first, e.begin_ns);
      it->second.second = std::max(it->second.second, e.end_ns);
    }
    // a layer global.profile lists several times (CV184X: h slices) has one row per listing
    std::map<std::int32_t, std::pair<double, double>> got;
    std::size_t layers = 0, subnets = 0;
    std::set<std::string> kinds;
    for (const auto& s : t.spans()) {
      if (s.engine == engine::subnet) {
        ++subnets;
        CHECK(names[s.op] == "Iter[0]");
        CHECK(s.begin_ns == 0);
        CHECK(s.end_ns == t.info().end_ns);
      }
      if (s.engine != engine::layer) continue;
      ++layers;
      kinds.insert(std::string(names[s.op]));
      REQUIRE(want.count(s.layer_id));
      auto [it, fresh] = got.try_emplace(s.layer_id, s.begin_ns, s.end_ns);
      it->second.first = std::min(it->second.first, s.begin_ns);
      it->second.second = std::max(it->second.second, s.end_ns);
    }
    CHECK(got == want);  // the rows of a layer cover exactly its events
    CHECK(layers == (std::string(chip) == "bm1688" ? 186u : 211u));
    CHECK(subnets == 1);
    CHECK(kinds.count("Conv2D(L)"));
    CHECK(kinds.count("Load(L)"));
  }
}

#endif
