// detect_dump: chip and decoder family from global.profile, in memory and on the real captures.
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode/detect.hpp>
#include <tpuprof/io/dump_files.hpp>

namespace {

std::vector<std::byte> text(std::string_view s) {
  std::vector<std::byte> b(s.size());
  if (!s.empty()) std::memcpy(b.data(), s.data(), s.size());
  return b;
}

}  // namespace

TEST_CASE("detect_dump: arch lines in memory") {
  const auto empty = text("");
  auto detect = [&](std::string_view global, bool core_file) {
    const auto g = text(global);
    std::vector<tpuprof::io::dump_files::memory_file> files{{"global.profile", g}};
    if (core_file) files.push_back({"cdmlib0_0.profile", empty});
    return tpuprof::detect_dump(tpuprof::io::dump_files::from_memory(std::move(files), "m"),
                                tpuprof::chips::all{});
  };
  SUBCASE("SG2260 family needs a core file") {
    auto d = detect("arch=5\nmax_record_num=10\n", true);
    CHECK(d.chip == "aks");
    CHECK(d.family == tpuprof::dump_family::cdm);
    CHECK_FALSE(d.bmodel);
    CHECK(detect("arch=140814\n", true).chip == "aksv");
    CHECK(detect("bmodel\narch=8800\n", true).bmodel);
    // arch=5 is the SG2260 family: without a cdmlib file, that is the reason given
    CHECK_THROWS_WITH_AS(detect("arch=5\n", false),
                         "m: arch=5 (aks) in global.profile, but no cdmlib*.profile core file",
                         tpuprof::decode_error);
  }
  SUBCASE("BM1684X by number or name, only as a key") {
    CHECK(detect("[global]\nnet_name=x\narch=3\n", false).chip == "bm1684x");
    CHECK(detect("arch=BM1684X\r\n", false).chip == "bm1684x");
    CHECK(detect("\tarch=3\r\nx=1\n", false).chip ==
          "bm1684x");  // as the decoder's parser reads it
    CHECK(detect("arch=3\n", false).family == tpuprof::dump_family::bmprofile);
    CHECK_THROWS_WITH_AS(
        detect("subarch=3\n", false),
        "m/global.profile: at byte 10: no arch= line before the end of the file: cannot tell the "
        "chip (give it explicitly)",
        tpuprof::decode_error);
  }
  SUBCASE("only the chips of the list, named in the message") {
    const auto g = text("arch=3\n");
    const auto files = tpuprof::io::dump_files::from_memory({{"global.profile", g}}, "m");
    using sg2260 = tpuprof::chip_list<tpuprof::chips::aks, tpuprof::chips::aksv>;
    CHECK_THROWS_WITH_AS(tpuprof::detect_dump(files, sg2260{}),
                         "m/global.profile: at byte 0: arch=3 is not a supported chip (aks, aksv)",
                         tpuprof::decode_error);
    CHECK(tpuprof::detect_dump(files, tpuprof::chip_list<tpuprof::chips::bm1684x>{}).chip ==
          "bm1684x");
  }
  SUBCASE("no global.profile") {
    const auto c = text("x");
    CHECK_THROWS_WITH_AS(
        tpuprof::detect_dump(tpuprof::io::dump_files::from_memory({{"cmd_0.dat", c}}, "m"),
                             tpuprof::chips::all{}),
        "m: not a profile dump: no global.profile", tpuprof::decode_error);
  }
}

#ifdef TPUPROF_SAMPLES_DIR
TEST_CASE("detect_dump: the real captures and the vendor samples") {
  auto at = [](const std::string& rel) {
    return tpuprof::detect_dump(
        tpuprof::io::dump_files::open_directory(std::string(TPUPROF_SAMPLES_DIR) + "/" + rel),
        tpuprof::chips::all{});
  };
  CHECK(at("bm1684x/bmprofile_data-1").chip == "bm1684x");
  const auto bm1690 = at("bm1690/cdm_profile_data_dev0");
  CHECK(bm1690.chip == "aks");
  CHECK(bm1690.bmodel);
  CHECK(at("synthetic/aksv_mode0_cdma2_seed1/cdm_profile_data_dev0-0").chip == "aksv");
  CHECK_FALSE(at("synthetic/aks_mode1_seed1/cdm_profile_data_dev0-0").bmodel);
}
#endif
