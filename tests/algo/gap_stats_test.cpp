// algo::gap_stats with the one time origin: hand-computed gaps, and the real
// BM1684X capture, where `tpuprof gaps` and the HTML report now agree (the
// longest TIU gap at 52.449 us; it was at 41.489 us in the report before #13).
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/gap_stats.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/views/track_layout.hpp>

#include "views/view_test_util.hpp"

using namespace tpuprof;
using test::ev;

TEST_CASE("gap_stats sums gaps per track in display order and keeps the longest") {
  std::vector<engine_event> v{ev(engine::tiu, 0, 0, 10),      ev(engine::tiu, 0, 2010, 2020),
                              ev(engine::tiu, 0, 2030, 2040), ev(engine::tiu, 0, 5040, 5050),
                              ev(engine::gdma, 0, 0, 100),    ev(engine::gdma, 0, 1200, 1300)};
  const gap_report r = algo::gap_stats(v, default_min_gap_ns, 2);
  REQUIRE(r.tracks.size() == 2);
  CHECK(r.tracks[0].track == track_key{0, 0, engine::tiu});
  CHECK(r.tracks[0].count == 2);  // the 10 ns gap is under 1 us
  CHECK(r.tracks[0].total_ns == 5000);
  CHECK(r.tracks[0].longest_ns == 3000);
  CHECK(r.tracks[1].total_ns == 1100);
  REQUIRE(r.longest.size() == 2);
  CHECK(r.longest[0].dur_ns() == 3000);
  CHECK(r.longest[1].dur_ns() == 2000);
  CHECK(algo::gap_stats(v, 0).tracks[0].count == 3);
}

#ifdef TPUPROF_SAMPLES_DIR
TEST_CASE("gap_stats on the real BM1684X capture: the CLI's numbers, on the one origin") {
  bmprofile_decoder<chips::bm1684x> d(io::dump_files::open_directory(
      std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1"));
  const track_layout layout(d.info());
  CHECK(layout.origin_ns == 0);       // the MCU and subnet rows start at 0
  CHECK(d.info().begin_ns == 10960);  // the first engine command 10.96 us later
  const gap_report r = algo::gap_stats(d.events());
  REQUIRE(r.tracks.size() == 2);
  CHECK(r.tracks[0].track.eng == engine::tiu);
  CHECK(r.tracks[0].count == 25);
  CHECK(r.tracks[0].total_ns / 1e3 == doctest::Approx(113.376).epsilon(1e-5));
  CHECK(r.tracks[1].count == 7);
  REQUIRE(!r.longest.empty());
  CHECK(layout.rel_ns(r.longest[0].begin_ns) == 52449);
  CHECK(r.longest[0].dur_ns() == doctest::Approx(16571).epsilon(1e-4));
}
#endif
