#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>

#include "test_util.hpp"

using tpuprof::bmprofile_decoder;
using tpuprof::engine;
using tpuprof::chips::bm1684x;

// The chip header does not know the decoder; the decoder's concept is checked here.
static_assert(tpuprof::bmprofile::bmprofile_chip<bm1684x>);

static_assert(tpuprof::decoded_trace<bmprofile_decoder<bm1684x>>);
static_assert(std::ranges::forward_range<bmprofile_decoder<bm1684x>::event_view>);

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
}  // namespace

// Expected values: tests/data/bm1684x_vendor_events.csv, produced by running
// tpu-mlir's tpu_profile.py (--format layer and html) on the same capture; see
// tests/data/README.md for the exact commands.
TEST_CASE("BM1684X capture decodes to the vendor's events, record by record") {
  bmprofile_decoder<bm1684x> d(tpuprof::io::dump_files::open_directory(sample_dir));
  const auto& names = d.info().names;
  auto rows = test_util::read_csv(std::string(TPUPROF_SOURCE_DIR) +
                                  "/tests/data/bm1684x_vendor_events.csv");
  REQUIRE(rows.size() == 254);  // header + 253
  rows.erase(rows.begin());

  std::vector<tpuprof::engine_event> ev;
  for (const auto& e : d.events()) ev.push_back(e);
  REQUIRE(ev.size() == 253);
  CHECK(d.events(engine::tiu).size() == 90);
  CHECK(d.events(engine::gdma).size() == 163);

  std::uint64_t gdma_bytes = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const auto& e = ev[i];
    CAPTURE(i);
    CHECK(std::string(tpuprof::name(e.engine)) == r[0]);
    CHECK(e.cmd_id == std::stoul(r[1]));
    CHECK(e.begin_cycle == std::stoull(r[2]));
    CHECK(e.end_cycle == std::stoull(r[3]));
    CHECK(e.begin_ns == static_cast<double>(e.begin_cycle));  // 1000 MHz
    CHECK(e.layer_id == std::stoi(r[5]));
    CHECK(std::string(names[e.op]) == r[7]);
    if (!r[6].empty()) CHECK(std::string(names[e.op_type]) == r[6]);
    if (e.engine == engine::gdma) {
      CHECK(e.bytes == std::stoull(r[4]));
      gdma_bytes += e.bytes;
      if (!r[8].empty()) CHECK(vendor_dir(e.dir()) == r[8]);
      // vendor bandwidth: bytes / duration (bytes per ns = GB/s at 1000 MHz)
      CHECK(e.bandwidth_gbps() ==
            doctest::Approx(static_cast<double>(e.bytes) /
                            static_cast<double>(e.end_cycle - e.begin_cycle)));
    }
    CHECK(e.matched());
  }
  CHECK(gdma_bytes == 4198288);
  CHECK(d.info().begin_ns == 10960);
  CHECK(d.info().end_ns == 224479);
  CHECK(d.info().property("tiu_shift_cycles") == "19209");
}

TEST_CASE("BM1684X capture: diagnostics report the missing TIU records and nothing else lost") {
  bmprofile_decoder<bm1684x> d(tpuprof::io::dump_files::open_directory(sample_dir));
  const auto& dg = d.info().diagnostics;
  using tpuprof::diag;
  CHECK(dg[diag::unmatched_command] == 3);  // TIU nodes bd_id 8, 9, 11 have no PMU record
  CHECK(dg[diag::unmatched_record] == 0);
  CHECK(dg[diag::cycle_wrap] == 0);
  CHECK(dg[diag::id_wrap] == 0);
  CHECK(dg[diag::invalid_record] == 0);
  CHECK(dg[diag::buffer_full] == 0);
  CHECK(d.info().chip == "BM1684X");
  CHECK(d.info().property("net_name") == "blazeface");
  REQUIRE(d.info().tracks.size() == 2);
  CHECK(d.info().tracks[0].eng == engine::tiu);
  CHECK(d.info().tracks[1].records == 163);
}

TEST_CASE("BM1684X capture: layer, MCU and subnet rows") {
  bmprofile_decoder<bm1684x> d(tpuprof::io::dump_files::open_directory(sample_dir));
  const auto& names = d.info().names;
  std::map<engine, int> count;
  const tpuprof::engine_event* cast = nullptr;
  std::vector<const tpuprof::engine_event*> mcu;
  for (const auto& s : d.spans()) {
    ++count[s.engine];
    if (s.engine == engine::layer && s.layer_id == 23) cast = &s;
    if (s.engine == engine::mcu) mcu.push_back(&s);
  }
  CHECK(count[engine::layer] == 183);  // 187 layer records, 4 Reshape layers own no command
  CHECK(count[engine::subnet] == 1);
  REQUIRE(cast);
  CHECK(names[cast->op] == "Cast(L)");
  CHECK(cast->begin_ns == 30169);  // its only command: TIU id 0
  CHECK(cast->end_ns == 31202);
  // vendor NODE_OP rows (µs): set_GDMA [0, 10.96], wait [13.76, 14.84], wait [16.12, 210.0],
  // set_GDMA [211.28, 212.04], set_GDMA [212.72, 213.36], wait [213.92, 214.88]
  REQUIRE(mcu.size() == 6);
  const double expect[6][2] = {{0, 10960},       {13760, 14840},   {16120, 210000},
                               {211280, 212040}, {212720, 213360}, {213920, 214880}};
  const char* ops[6] = {"set_GDMA", "wait", "wait", "set_GDMA", "set_GDMA", "wait"};
  for (std::size_t i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(mcu[i]->begin_ns == doctest::Approx(expect[i][0]));
    CHECK(mcu[i]->end_ns == doctest::Approx(expect[i][1]));
    CHECK(names[mcu[i]->op] == ops[i]);
  }
}

TEST_CASE("BM1684X decoder works from caller-owned memory, without the file system") {
  std::vector<std::string> names = {"global.profile", "iter0.profile", "cmd_12425c000_0_0.dat",
                                    "cmd_12425e000_0_1.dat"};
  std::vector<std::vector<std::byte>> data;
  for (const auto& n : names)
    data.push_back(test_util::bytes_of(test_util::read_text(sample_dir + "/" + n)));
  std::vector<tpuprof::io::dump_files::memory_file> files;
  for (std::size_t i = 0; i < names.size(); ++i) files.push_back({names[i], data[i]});
  bmprofile_decoder<bm1684x> d(tpuprof::io::dump_files::from_memory(files));
  CHECK(d.events().size() == 253);
  std::uint64_t last = 0;
  for (const auto& e : d.events(engine::gdma)) last = e.end_cycle;
  CHECK(last == 224479);
}
#endif
