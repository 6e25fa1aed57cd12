// Bad input to the cdm decoder: decode_error with file, byte offset and reason.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/io/dump_files.hpp>

static_assert(tpuprof::decoded_trace<tpuprof::cdm::cdm_decoder<tpuprof::chips::aks>>);
static_assert(tpuprof::decoded_trace<tpuprof::cdm::cdm_decoder<tpuprof::chips::aksv>>);

namespace {

using bytes = std::vector<std::byte>;

void put32(bytes& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::byte>(v >> (8 * i)));
}
void block(bytes& b, std::uint32_t type, const bytes& content) {
  put32(b, type);
  put32(b, static_cast<std::uint32_t>(content.size()));
  b.insert(b.end(), content.begin(), content.end());
}
bytes text(std::string_view s) {
  bytes b(s.size());
  std::memcpy(b.data(), s.data(), s.size());
  return b;
}
/// A TIU monitor block of n records (start = 100 i, end = 100 i + 50, id = i).
bytes tiu_records(unsigned n) {
  bytes b;
  for (unsigned i = 0; i < n; ++i) {
    put32(b, 100 * i);
    put32(b, 100 * i + 50);
    put32(b, i);
    put32(b, 0);
  }
  return b;
}

struct fixture {
  bytes global = text("arch=5\nmax_record_num=1000\n");
  bytes core0;
  fixture() { block(core0, 3, tiu_records(4)); }

  template <class Chip = tpuprof::chips::aks>
  void decode(std::vector<tpuprof::io::dump_files::memory_file> extra = {},
              bool with_global = true) {
    std::vector<tpuprof::io::dump_files::memory_file> f{{"cdmlib0_0.profile", core0}};
    if (with_global) f.push_back({"global.profile", global});
    f.insert(f.end(), extra.begin(), extra.end());
    auto d = tpuprof::io::dump_files::from_memory(f, "mem");
    tpuprof::cdm::cdm_decoder<Chip> dec(d);
  }
};

}  // namespace

TEST_CASE("a minimal in-memory dump decodes") {
  fixture f;
  auto d = tpuprof::io::dump_files::from_memory(
      {{"global.profile", f.global}, {"cdmlib0_0.profile", f.core0}}, "mem");
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> dec(d);
  REQUIRE(dec.events().size() == 2);  // 4 records minus 2 init records
  CHECK(dec.events()[0].begin_cycle == 0);
  CHECK(dec.events()[0].cmd_id == 3);
  CHECK(dec.info().diagnostics[tpuprof::diag::empty_block] == 2);  // no GDMA, no SDMA block
}

TEST_CASE("corrupt core files give decode_error at the right offset") {
  fixture f;
  SUBCASE("truncated block header") {
    f.core0.resize(f.core0.size() + 5, std::byte{1});
    const auto at = f.core0.size() - 5;
    try {
      f.decode();
      FAIL("no error");
    } catch (const tpuprof::decode_error& e) {
      CHECK(e.file() == "mem/cdmlib0_0.profile");
      CHECK(e.offset() == at);
      CHECK(e.reason().find("truncated block header") != std::string::npos);
    }
  }
  SUBCASE("absurd block length") {
    const auto at = f.core0.size();
    put32(f.core0, 4);
    put32(f.core0, 0xFFFFFFF0u);
    f.core0.resize(f.core0.size() + 64);
    try {
      f.decode();
      FAIL("no error");
    } catch (const tpuprof::decode_error& e) {
      CHECK(e.offset() == at);
      CHECK(e.reason().find("declares 4294967280 bytes") != std::string::npos);
    }
  }
  SUBCASE("truncated block content") {
    bytes b;
    block(b, 3, tiu_records(2));
    b.resize(b.size() - 3);
    f.core0 = b;
    CHECK_THROWS_WITH_AS(f.decode(), doctest::Contains("at byte 0: block type 3 declares 32 bytes"),
                         tpuprof::decode_error);
  }
  SUBCASE("unknown block type") {
    const auto at = f.core0.size();
    block(f.core0, 99, bytes(8));
    CHECK_THROWS_WITH_AS(
        f.decode(),
        ("mem/cdmlib0_0.profile: at byte " + std::to_string(at) + ": unknown block type 99")
            .c_str(),
        tpuprof::decode_error);
  }
  SUBCASE("core number out of range") {
    f.global = text("arch=6\n");
    CHECK_THROWS_WITH_AS(f.decode<tpuprof::chips::aksv>({{"cdmlib0_4.profile", f.core0}}),
                         doctest::Contains("core number out of range"), tpuprof::decode_error);
  }
  SUBCASE("CDMA port out of range") {
    CHECK_THROWS_WITH_AS(f.decode({{"cdma_11.profile", bytes{}}}),
                         doctest::Contains("CDMA port 11 exceeds the 11 ports"),
                         tpuprof::decode_error);
  }
}

TEST_CASE("global.profile problems give decode_error") {
  fixture f;
  SUBCASE("missing global.profile") {
    CHECK_THROWS_WITH_AS(f.decode({}, false), "mem/global.profile: missing file",
                         tpuprof::decode_error);
  }
  SUBCASE("wrong arch names the line") {
    f.global = text("tpu_freq=1000\narch=3\n");
    CHECK_THROWS_WITH_AS(f.decode(), "mem/global.profile: at byte 14: arch=3 is not SG2260",
                         tpuprof::decode_error);
  }
  SUBCASE("AKSV arch on the AKS decoder") {
    f.global = text("arch=140814\n");
    CHECK_THROWS_WITH_AS(f.decode(), doctest::Contains("arch=140814 is not SG2260"),
                         tpuprof::decode_error);
    CHECK_NOTHROW(f.decode<tpuprof::chips::aksv>());
  }
  SUBCASE("no arch line") {
    f.global = text("tpu_freq=1000\n");
    CHECK_THROWS_WITH_AS(f.decode(), "mem/global.profile: at byte 14: no arch line",
                         tpuprof::decode_error);
  }
  SUBCASE("arch is not a number") {
    f.global = text("arch=five\n");
    CHECK_THROWS_WITH_AS(f.decode(), doctest::Contains("at byte 0: arch 'five' is not a number"),
                         tpuprof::decode_error);
  }
}

TEST_CASE("data problems are diagnostics, not errors") {
  fixture f;
  f.global = text("arch=5\nmax_record_num=4\ncore0_tiu_record=4\ncore2_tiu_record=3\n");
  auto d = tpuprof::io::dump_files::from_memory({{"global.profile", f.global},
                                                 {"cdmlib0_0.profile", f.core0},
                                                 {"cdmlib0_2.profile", f.core0}},
                                                "mem");
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> dec(d);
  const auto& dg = dec.info().diagnostics;
  CHECK(dg[tpuprof::diag::buffer_full] == 1);   // core0_tiu_record reached max_record_num
  CHECK(dg[tpuprof::diag::missing_file] == 1);  // core 1 has no file
  // Core ids come from the file names: core 2 stays core 2.
  CHECK(dec.info().find_track(0, 2, tpuprof::engine::tiu) != nullptr);
  CHECK(dec.info().find_track(0, 1, tpuprof::engine::tiu) == nullptr);
}

TEST_CASE("detect_cdm recognises SG2260-family dumps only") {
  using sg2260_chips = tpuprof::chip_list<tpuprof::chips::aks, tpuprof::chips::aksv>;
  fixture f;
  // The buffers must outlive the dump_files: keep them here.
  bytes g1 = text("arch=8800\n"), g2 = text("arch=6\nbmodel\n"), g3 = text("arch=3\n");
  auto d1 = tpuprof::io::dump_files::from_memory(
      {{"global.profile", g1}, {"cdmlib0_0.profile", f.core0}});
  auto d2 = tpuprof::io::dump_files::from_memory(
      {{"global.profile", g2}, {"cdmlib0_0.profile", f.core0}});
  auto d3 = tpuprof::io::dump_files::from_memory(
      {{"global.profile", g3}, {"cdmlib0_0.profile", f.core0}});
  auto d4 = tpuprof::io::dump_files::from_memory({{"global.profile", g1}});
  auto r1 = tpuprof::cdm::detect_cdm(d1, sg2260_chips{});
  REQUIRE(r1);
  CHECK(r1->chip == "aks");
  auto r2 = tpuprof::cdm::detect_cdm(d2, sg2260_chips{});
  REQUIRE(r2);
  CHECK(r2->chip == "aksv");
  CHECK(r2->bmodel);
  CHECK_FALSE(tpuprof::cdm::detect_cdm(d3, sg2260_chips{}));
  // the arch says SG2260 family: a missing core file is that dump's error, not "not this chip"
  CHECK_THROWS_WITH_AS(
      tpuprof::cdm::detect_cdm(d4, sg2260_chips{}),
      "<memory>: arch=8800 (aks) in global.profile, but no cdmlib*.profile core file",
      tpuprof::decode_error);
}
