// BM1688 and CV184X real captures against the vendor's own output (tpu_profile.py --mode time):
// tests/data/{bm1688,cv184x}_vendor_events.csv, made as tests/data/README.md says.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/detect.hpp>
#include <tpuprof/open.hpp>

#include "../../test_util.hpp"

#ifdef TPUPROF_SAMPLES_DIR

using tpuprof::bmprofile_decoder;
using tpuprof::direction;
using tpuprof::engine;

namespace {

const std::string samples = TPUPROF_SAMPLES_DIR;

std::string vendor_dir(direction d) {
  switch (d) {
    case direction::s2l:
      return "DDR->LMEM";
    case direction::l2s:
      return "LMEM->DDR";
    case direction::s2s:
      return "DDR->DDR";
    case direction::l2l:
      return "LMEM->LMEM";
    default:
      return "";
  }
}

/// The vendor's GDMA Function Name: special function 0 of tensor/matrix copies condensed
/// by direction (bm1688-notes.md §4.5), else the class's own name.
std::string vendor_gdma_name(std::string_view op, direction d) {
  if (op == "dma.tensor" || op == "dma.matrix")
    return d == direction::l2s ? "tensorSt" : d == direction::l2l ? "tensorMv" : "tensorLd";
  if (op == "dma.sys.chain_end") return "chain end";
  return std::string(op);
}

struct totals {
  std::size_t tiu = 0, gdma = 0, checked = 0, rates = 0, layers = 0;
};

/// Every event of the decoder equals the vendor's row of the same position.
template <class Chip>
totals check_against_vendor(const std::string& dump, const std::string& csv) {
  bmprofile_decoder<Chip> d(tpuprof::io::dump_files::open_directory(dump));
  const auto& names = d.info().names;
  auto rows = test_util::read_csv(std::string(TPUPROF_SOURCE_DIR) + "/tests/data/" + csv);
  REQUIRE(rows.size() > 1);
  rows.erase(rows.begin());
  std::vector<tpuprof::engine_event> ev;
  for (const auto& e : d.events()) ev.push_back(e);
  REQUIRE(ev.size() == rows.size());
  totals t;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const auto& e = ev[i];
    CAPTURE(i);
    REQUIRE(r.size() >= 15);
    CHECK(std::string(tpuprof::name(e.engine)) == r[0]);
    CHECK(e.unit == std::stoul(r[1]));
    CHECK(e.cmd_id == std::stoul(r[4]));      // PMU id
    CHECK(e.cmd_id + 1 == std::stoul(r[5]));  // the vendor's Cmd Id
    CHECK(e.begin_cycle == std::stoull(r[8]));
    CHECK(e.end_cycle == std::stoull(r[9]));
    CHECK(e.matched());
    CHECK(e.layer_id == (r[19] == "-" ? -1 : std::stoi(r[19])));
    if (e.layer_id >= 0) ++t.layers;
    if (e.engine == engine::tiu) {
      ++t.tiu;
      CHECK(std::string(names[e.op]) == r[11]);
      CHECK(std::string(names[e.op_type]) == r[10]);
      CHECK(!e.has_bytes());
      // the vendor prints "{:.1%}" of alg ops / uArch ops
      char rate[32];
      std::snprintf(rate, sizeof rate, "%.1f%%", static_cast<double>(e.uarch_rate) * 100.0);
      CHECK(std::string(rate) == r[18]);
      ++t.rates;
    } else {
      ++t.gdma;
      REQUIRE(e.has_bytes());
      CHECK(e.bytes == std::stoull(r[14]));
      CHECK(vendor_gdma_name(names[e.op], e.dir()) == r[11]);
      if (names[e.op] == "dma.sys.chain_end") {
        CHECK(e.dir() == direction::none);  // the vendor prints LMEM->LMEM: no addresses
        CHECK(std::string(names[e.op_type]) == "sDMA_sys");  // the vendor: "chain end"
      } else {
        CHECK(vendor_dir(e.dir()) == r[12]);
        CHECK(std::string(names[e.op_type]) == r[10]);
      }
    }
    ++t.checked;
  }
  return t;
}

}  // namespace

TEST_CASE("BM1688 capture: every event equals the vendor's (137 TIU + 166 GDMA, uArch rates)") {
  const auto t = check_against_vendor<tpuprof::chips::bm1688>(samples + "/bm1688/bmprofile_data-1",
                                                              "bm1688_vendor_events.csv");
  CHECK(t.tiu == 137);
  CHECK(t.gdma == 166);
  CHECK(t.checked == 303);
  CHECK(t.rates == 137);
  CHECK(t.layers == 302);  // system.end has no node line
}

TEST_CASE("CV184X capture: every event equals the vendor's (116 TIU + 225 GDMA, uArch rates)") {
  const auto t = check_against_vendor<tpuprof::chips::cv184x>(samples + "/cv184x/bmprofile_data-1",
                                                              "cv184x_vendor_events.csv");
  CHECK(t.tiu == 116);
  CHECK(t.gdma == 225);
  CHECK(t.checked == 341);
  CHECK(t.rates == 116);
  CHECK(t.layers == 339);  // nor have system.end and dma.sys.chain_end
}

TEST_CASE("BM1688 / CV184X: info, tracks, clocks and detection") {
  SUBCASE("BM1688") {
    bmprofile_decoder<tpuprof::chips::bm1688> d(
        tpuprof::io::dump_files::open_directory(samples + "/bm1688/bmprofile_data-1"));
    const auto& i = d.info();
    CHECK(i.chip == "BM1688");
    CHECK(i.cores == 1);  // core_list=0,: one core ran
    REQUIRE(i.tracks.size() == 2);
    CHECK(i.tracks[0].freq_mhz == 900);  // tpu_freq=0: the chip's clocks
    CHECK(i.tracks[1].freq_mhz == 750);
    CHECK(i.tracks[1].records == 169);  // three firmware records trimmed
    CHECK(i.tracks[1].events == 166);
    CHECK(i.diagnostics.total() == 0);
  }
  SUBCASE("CV184X") {
    bmprofile_decoder<tpuprof::chips::cv184x> d(
        tpuprof::io::dump_files::open_directory(samples + "/cv184x/bmprofile_data-1"));
    const auto& i = d.info();
    CHECK(i.chip == "CV184X");
    CHECK(i.cores == 1);
    REQUIRE(i.tracks.size() == 2);
    CHECK(i.tracks[0].freq_mhz == 750);  // tpu_freq=1000 is not used (vendor)
    CHECK(i.tracks[1].freq_mhz == 650);
    CHECK(i.tracks[1].records == 231);
    CHECK(i.tracks[1].events == 225);
  }
  SUBCASE("--tiu-freq / --dma-freq override the chip clocks") {
    tpuprof::decode_options o;
    o.dma_freq_mhz = 750;
    bmprofile_decoder<tpuprof::chips::cv184x> d(
        tpuprof::io::dump_files::open_directory(samples + "/cv184x/bmprofile_data-1"), o);
    CHECK(d.info().tracks[1].freq_mhz == 750);
  }
  SUBCASE("detection and open()") {
    for (auto [dir, chip] : {std::pair{"/bm1688/bmprofile_data-1", "bm1688"},
                             std::pair{"/cv184x/bmprofile_data-1", "cv184x"}}) {
      const auto files = tpuprof::io::dump_files::open_directory(samples + dir);
      CHECK(tpuprof::detect_dump(files, tpuprof::chips::all{}).chip == chip);
      tpuprof::open_options o;
      o.chip = chip;
      const auto t = tpuprof::open(samples + dir, o);
      CHECK(t.events().size() == (std::string(chip) == "bm1688" ? 303u : 341u));
    }
    // a BM1688 dump read as CV184X is refused (arch=4 is not CV184X)
    tpuprof::open_options o;
    o.chip = "cv184x";
    CHECK_THROWS_AS(tpuprof::open(samples + "/bm1688/bmprofile_data-1", o), tpuprof::decode_error);
  }
}

namespace {

std::vector<std::byte> read_bytes(const std::string& p) {
  return test_util::bytes_of(test_util::read_text(p));
}

void put_block(std::vector<std::byte>& out, std::uint32_t type, std::span<const std::byte> p) {
  const std::uint32_t h[2] = {type, static_cast<std::uint32_t>(p.size())};
  const auto* hb = reinterpret_cast<const std::byte*>(h);
  out.insert(out.end(), hb, hb + 8);
  out.insert(out.end(), p.begin(), p.end());
}

/// A two-core dump made from the one-core capture: core 1 is a copy of core 0 whose counters
/// run 10 us later (9000 TIU / 7500 GDMA cycles), with its own command files. With `wait`, the
/// final system.end of both TIU lists becomes a system.wait_msg (both cores then wait at it).
struct two_core_dump {
  std::vector<std::byte> global, iter, tiu_cmd, gdma_cmd;

  explicit two_core_dump(bool wait) {
    const std::string dir = samples + "/bm1688/bmprofile_data-1/";
    global = read_bytes(dir + "global.profile");
    const auto one = read_bytes(dir + "iter0.profile");
    tiu_cmd = read_bytes(dir + "cmd_12406e000_0_0.dat");
    gdma_cmd = read_bytes(dir + "cmd_124071000_0_1.dat");
    std::vector<std::byte> summary, command, bd, gdma;
    for (std::size_t off = 0; off + 8 <= one.size();) {
      std::uint32_t h[2];
      std::memcpy(h, one.data() + off, 8);
      std::vector<std::byte> p(one.begin() + static_cast<std::ptrdiff_t>(off + 8),
                               one.begin() + static_cast<std::ptrdiff_t>(off + 8 + h[1]));
      if (h[0] == 1) summary = p;
      if (h[0] == 8) command = p;
      if (h[0] == 3) bd = p;
      if (h[0] == 4) gdma = p;
      off += 8 + h[1];
    }
    REQUIRE(bd.size() == 137 * 32);
    REQUIRE(gdma.size() == 169 * 256);
    if (wait) {
      std::size_t off = 0, last = 0;
      while (off + 8 <= tiu_cmd.size()) {
        std::uint64_t w0;
        std::memcpy(&w0, tiu_cmd.data() + off, 8);
        const auto f = tpuprof::chips::bm1688::frame_tiu(w0);
        REQUIRE(f);
        last = off;
        off += f->length;
        if (f->op == "system.end") break;
      }
      std::uint64_t w0;
      std::memcpy(&w0, tiu_cmd.data() + last, 8);
      w0 = (w0 & ~(std::uint64_t{31} << 45)) | (std::uint64_t{9} << 45);  // eu 31 end -> 9 wait
      std::memcpy(tiu_cmd.data() + last, &w0, 8);
      REQUIRE(tpuprof::chips::bm1688::frame_tiu(w0)->op == "system.wait_msg");
    }
    auto shifted = [](std::vector<std::byte> v, std::size_t rs, std::uint32_t by) {
      for (std::size_t k = 0; k + rs <= v.size(); k += rs)
        for (std::size_t o : {std::size_t{0}, std::size_t{4}}) {
          std::uint32_t x;
          std::memcpy(&x, v.data() + k + o, 4);
          x += by;
          std::memcpy(v.data() + k + o, &x, 4);
        }
      return v;
    };
    put_block(iter, 1, summary);
    put_block(iter, 8, command);
    put_block(iter, 8, command);
    put_block(iter, 3, bd);
    put_block(iter, 4, gdma);
    put_block(iter, 3, shifted(bd, 32, 9000));
    put_block(iter, 4, shifted(gdma, 256, 7500));
  }
  tpuprof::io::dump_files files() const {
    return tpuprof::io::dump_files::from_memory({{"global.profile", global},
                                                 {"iter0.profile", iter},
                                                 {"cmd_12406e000_0_0.dat", tiu_cmd},
                                                 {"cmd_124071000_0_1.dat", gdma_cmd},
                                                 {"cmd_12406e000_1_0.dat", tiu_cmd},
                                                 {"cmd_124071000_1_1.dat", gdma_cmd}});
  }
};

/// Core 1's events against core 0's, expected `by` cycles (TIU, GDMA) later, within one cycle.
void check_cores(const bmprofile_decoder<tpuprof::chips::bm1688>& d, std::int64_t tiu_by,
                 std::int64_t gdma_by) {
  CHECK(d.info().cores == 2);
  CHECK(d.info().tracks.size() == 4);
  std::vector<tpuprof::engine_event> c0, c1;
  for (const auto& e : d.events()) (e.unit == 0 ? c0 : c1).push_back(e);
  REQUIRE(c0.size() == 303);
  REQUIRE(c1.size() == 303);
  const auto& names = d.info().names;
  for (std::size_t i = 0; i < c0.size(); ++i) {
    CAPTURE(i);
    CHECK(c1[i].engine == c0[i].engine);
    CHECK(c1[i].cmd_id == c0[i].cmd_id);
    CHECK(names[c1[i].op] == names[c0[i].op]);
    const auto want = static_cast<std::int64_t>(c0[i].begin_cycle) +
                      (c0[i].engine == engine::tiu ? tiu_by : gdma_by);
    const auto got = static_cast<std::int64_t>(c1[i].begin_cycle);
    CHECK(got - want <= 1);
    CHECK(want - got <= 1);
  }
}

}  // namespace

TEST_CASE("BM1688: a dump where both cores ran decodes per core") {
  const two_core_dump dump(false);
  bmprofile_decoder<tpuprof::chips::bm1688> d(dump.files());
  check_cores(d, 9000, 7500);  // no wait_msg: nothing to align on
}

// The vendor aligns cores on their first system.wait_msg (bm1688-notes.md §6): core 1's wait
// starts 10 us after core 0's, so all of core 1 moves 10 us earlier, onto core 0.
TEST_CASE("BM1688: two cores are aligned on their first wait_msg") {
  const two_core_dump dump(true);
  bmprofile_decoder<tpuprof::chips::bm1688> d(dump.files());
  check_cores(d, 0, 0);
  // with the end command gone, the list runs into the zero padding (read as CONV commands)
  // up to a command the file cuts short: diagnosed once per core, not fatal
  CHECK(d.info().diagnostics[tpuprof::diag::truncated_tail] == 2);
  CHECK(d.info().diagnostics[tpuprof::diag::unknown_enum] == 0);
}

#endif
