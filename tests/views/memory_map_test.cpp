#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/views/memory_map.hpp>
#include <tpuprof/views/operand_table.hpp>

#include "test_util.hpp"
#include "views/view_test_util.hpp"

using namespace tpuprof;
using regs::mem_kind;
using regs::mem_operand;
using test::ev;

namespace {

/// Operands by cmd id: the smallest operand_source.
struct fake_source {
  std::map<std::uint32_t, std::vector<mem_operand>> by_id;
  std::vector<mem_operand> operands(const engine_event& e) const {
    auto it = by_id.find(e.cmd_id);
    return it == by_id.end() ? std::vector<mem_operand>{} : it->second;
  }
};

mem_operand op(mem_kind k, std::uint64_t addr, std::uint64_t size, bool write,
               std::uint8_t index = 0) {
  mem_operand m;
  m.kind = k;
  m.address = addr;
  m.size = m.data_size = size;
  m.write = write;
  m.index = index;
  return m;
}

}  // namespace

static_assert(operand_source<fake_source>);
static_assert(!region_source<fake_source>);
static_assert(region_source<bmprofile_decoder<chips::bm1684x>>);
static_assert(region_source<operand_table>);
static_assert(!operand_source<std::vector<engine_event>>);

TEST_CASE("memory_map: one rectangle per operand over its event's duration") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 10, 30), ev(engine::gdma, 0, 12, 14),
                              ev(engine::gdma, 0, 20, 50)};
  v[0].cmd_id = 1;
  v[1].cmd_id = 2;
  v[2].cmd_id = 3;
  fake_source src;
  src.by_id[1] = {op(mem_kind::local, 0x100, 0x40, false, 0),
                  op(mem_kind::local, 0x200, 0x80, true, 0)};
  src.by_id[3] = {op(mem_kind::ddr, 0x100001000, 16, false, 0),
                  op(mem_kind::constant, 7, 0, false, 1),  // an immediate: no memory
                  op(mem_kind::local, 0x40, 0x10, true, 0)};
  const memory_map_report m = views::memory_map(v, src);
  REQUIRE(m.rects.size() == 4);
  CHECK(m.rects[0].event == 0);
  CHECK(m.rects[0].begin_ns == 10);
  CHECK(m.rects[0].end_ns == 30);
  CHECK(m.rects[0].address == 0x100);
  CHECK(m.rects[0].end() == 0x140);
  CHECK(!m.rects[0].write);
  CHECK(m.rects[1].write);
  CHECK(m.rects[2].event == 2);
  CHECK(m.rects[2].kind == mem_kind::ddr);
  CHECK(m.rects[2].begin_ns == 20);
  CHECK(m.rects[2].end_ns == 50);
  CHECK(m.rects[3].event == 2);
  CHECK(m.rects[3].address == 0x40);
  REQUIRE(m.extents.size() == 2);
  const memory_extent* l = m.extent(mem_kind::local);
  REQUIRE(l);
  CHECK(l->begin == 0x40);
  CHECK(l->end == 0x280);
  CHECK(l->reads == 1);
  CHECK(l->writes == 2);
  CHECK(l->bytes_read == 0x40);
  CHECK(l->bytes_written == 0x90);
  const memory_extent* g = m.extent(mem_kind::ddr);
  REQUIRE(g);
  CHECK(g->begin == 0x100001000);
  CHECK(g->end == 0x100001010);
  CHECK(g->reads == 1);
  CHECK(!m.extent(mem_kind::l2));

  std::size_t seen = 0;
  CHECK(for_each_memory_rect(v, src, [&](const memory_rect&) { ++seen; }) == 4);
  CHECK(seen == 4);
  CHECK(panel_of(mem_kind::local) == memory_panel::local);
  CHECK(panel_of(mem_kind::static_mem) == memory_panel::global);
  CHECK(name(memory_panel::global) == "GLOBAL MEM");
}

TEST_CASE("memory_bands: used regions, local banks always, clusters outside") {
  memory_bands local(memory_panel::local);
  local.add_region({mem_kind::local, 0, 16384, "BANK[0]"});
  local.add_region({mem_kind::local, 16384, 16384, "BANK[1]"});
  local.add_region({mem_kind::ddr, 0, 100, "ignored: global"});
  local.add(100, 10);
  auto lb = local.bands();
  REQUIRE(lb.size() == 2);  // both banks, though only BANK[0] is touched
  CHECK(lb[1].name == "BANK[1]");
  CHECK(lb[1].address == 16384);
  CHECK(lb[1].kind == mem_kind::local);

  memory_bands global(memory_panel::global);
  global.add_region({mem_kind::ddr, 1000, 1000, "neuron"});
  global.add_region({mem_kind::ddr, 5000, 1000, "coeff"});  // never touched
  global.add_region({mem_kind::local, 0, 16384, "ignored: local"});
  global.add(1500, 10);
  global.add(10'000'000, 100);  // outside: clusters within 1 MiB join
  global.add(10'000'500, 10);
  global.add(1'000'000'000, 64);
  memory_rect local_rect;
  local_rect.kind = mem_kind::local;
  local_rect.address = 5000;  // another panel: ignored
  global.add(local_rect);
  auto gb = global.bands();
  REQUIRE(gb.size() == 3);
  CHECK(gb[0].name == "neuron");
  CHECK(gb[0].address == 1000);
  CHECK(gb[0].size == 1000);
  CHECK(gb[0].kind == mem_kind::ddr);
  CHECK(gb[1].name == "0x989680-0x98987e");
  CHECK(gb[1].address == 10'000'000);
  CHECK(gb[1].size == 510);
  CHECK(gb[1].kind == mem_kind::unknown);
  CHECK(gb[2].name == "0x3b9aca00-0x3b9aca40");

  SUBCASE("bands keep their region's kind") {
    memory_bands k(memory_panel::global, 0);
    k.add_region({mem_kind::l2, 0, 100, "l2"});
    k.add_region({mem_kind::static_mem, 1000, 100, "static"});
    k.add_region({mem_kind::ddr, 2000, 100, "ddr"});
    k.add_region({mem_kind::l2, 2050, 100, "l2 over ddr"});
    for (std::uint64_t a : {10u, 1010u, 2010u, 2120u}) k.add(a, 1);
    auto b = k.bands();
    REQUIRE(b.size() == 3);
    CHECK(b[0].kind == mem_kind::l2);
    CHECK(b[1].kind == mem_kind::static_mem);
    CHECK(b[2].name == "ddr+l2 over ddr");
    CHECK(b[2].kind == mem_kind::unknown);  // two kinds in one band
  }

  SUBCASE("overlapping regions are one band") {
    memory_bands o(memory_panel::global, 0);
    o.add_region({mem_kind::ddr, 0, 100, "a"});
    o.add_region({mem_kind::ddr, 50, 100, "b"});
    o.add_region({mem_kind::ddr, 10, 20, "inner"});
    o.add(60, 1);   // in a and b: the later-starting b is the one found
    o.add(5, 1);    // only a
    o.add(200, 1);  // outside, no gap: own clusters
    o.add(202, 1);
    auto b = o.bands();
    REQUIRE(b.size() == 3);
    CHECK(b[0].name == "a+b");
    CHECK(b[0].address == 0);
    CHECK(b[0].size == 150);
    CHECK(b[1].address == 200);
    CHECK(b[1].size == 1);
    CHECK(b[2].address == 202);
  }
}

TEST_CASE("operand_table: copies operands and finds them by event identity") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 10, 30), ev(engine::gdma, 0, 12, 14)};
  v[0].cmd_id = 1;
  v[1].cmd_id = 2;
  fake_source src;
  src.by_id[1] = {op(mem_kind::local, 0x100, 0x40, false)};
  src.by_id[2] = {op(mem_kind::ddr, 0x1000, 8, false), op(mem_kind::local, 0, 8, true)};
  operand_table t(v, src);
  t.append(v, src, 1);  // the same dump as device 1
  CHECK(t.size() == 6);
  CHECK(t.memory_regions().empty());
  REQUIRE(t.operands(v[1]).size() == 2);
  CHECK(t.operands(v[1])[0].address == 0x1000);
  engine_event other = v[0];
  other.begin_cycle += 1;  // another event with the same cmd id
  CHECK(t.operands(other).empty());
  other = v[0];
  other.device = 1;
  REQUIRE(t.operands(other).size() == 1);
  other.device = 2;
  CHECK(t.operands(other).empty());
}

#ifdef TPUPROF_SAMPLES_DIR
// Expected values: tests/data/bm1684x_vendor_mem.csv, the rows of the vendor's
// LOCAL MEM / GLOBAL MEM charts (124 global reads, 52 global writes, 206 local
// reads, 197 local writes), and global.profile's mtype lines (the regions).
TEST_CASE("memory_map of the real BM1684X capture matches the vendor's chart records") {
  bmprofile_decoder<chips::bm1684x> d(io::dump_files::open_directory(
      std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1"));
  auto rows =
      test_util::read_csv(std::string(TPUPROF_SOURCE_DIR) + "/tests/data/bm1684x_vendor_mem.csv");
  REQUIRE(rows.size() == 580);
  std::map<std::string, std::size_t> vendor;
  for (std::size_t i = 1; i < rows.size(); ++i) ++vendor[rows[i][0] + rows[i][6]];
  CHECK(vendor["globalR"] == 124);
  CHECK(vendor["globalW"] == 52);
  CHECK(vendor["localR"] == 206);
  CHECK(vendor["localW"] == 197);

  const memory_map_report m = views::memory_map(d.events(), d);
  std::map<std::string, std::size_t> ours;
  for (const memory_rect& r : m.rects)
    ++ours[std::string(panel_of(r.kind) == memory_panel::local ? "local" : "global") +
           (r.write ? "W" : "R")];
  CHECK(ours == vendor);
  CHECK(m.rects.size() == 579);
  const memory_extent* l = m.extent(mem_kind::local);
  REQUIRE(l);
  CHECK(l->reads + l->writes == 403);
  CHECK(l->end <= regs::bm1684x_isa::lane_size);

  // Regions: 16 banks of 16 KiB, then the 10 buffers of global.profile.
  const auto regions = d.memory_regions();
  REQUIRE(regions.size() == 26);
  CHECK(regions[15].name == "BANK[15]");
  CHECK(regions[15].address == 15 * 16384);
  CHECK(regions[16].name == "neuron_mem");
  CHECK(regions[16].address == 4900511744);
  CHECK(regions[16].size == 909312);

  // Every global rectangle lies in a band.
  memory_bands gb(memory_panel::global);
  for (const auto& r : regions) gb.add_region(r);
  for (const memory_rect& r : m.rects) gb.add(r);
  const auto bands = gb.bands();
  REQUIRE(!bands.empty());
  for (const memory_rect& r : m.rects) {
    if (panel_of(r.kind) != memory_panel::global) continue;
    bool inside = false;
    for (const auto& b : bands) inside |= r.address >= b.address && r.end() <= b.end();
    CHECK(inside);
  }
  // the weights, the activations, and the static-memory word TIU command 4
  // reads (global, 150996416 + 20 bytes in the vendor's records) outside them
  REQUIRE(bands.size() == 3);
  CHECK(bands[0].name == "0x90005c0-0x90005d4");
  CHECK(bands[0].kind == mem_kind::unknown);
  CHECK(bands[1].name == "coeff");
  CHECK(bands[1].kind == mem_kind::ddr);
  CHECK(bands[2].name == "neuron_mem");

  // The same rectangles from a materialized copy and an operand_table.
  const materialized_trace mt = materialize(d);
  const operand_table table(d.events(), d);
  CHECK(table.size() == 579);
  CHECK(table.memory_regions().size() == regions.size());
  const memory_map_report m2 = views::memory_map(mt.hw, table);
  REQUIRE(m2.rects.size() == m.rects.size());
  for (std::size_t i = 0; i < m.rects.size(); ++i) {
    CHECK(m2.rects[i].address == m.rects[i].address);
    CHECK(m2.rects[i].size == m.rects[i].size);
    CHECK(m2.rects[i].event == m.rects[i].event);
    CHECK(m2.rects[i].write == m.rects[i].write);
  }
}
#endif
