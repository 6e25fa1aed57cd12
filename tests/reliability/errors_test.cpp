// Issue #17, wrong reasons: every global.profile, host-trace and output error
// says the real reason with its file and byte offset.
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/clock_check.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/decode/detect.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/chrome_json_reader.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/synth/cdm_synth.hpp>

namespace fs = std::filesystem;
using tpuprof::decode_error;

namespace {
std::vector<std::byte> text(std::string_view s) {
  std::vector<std::byte> b(s.size());
  if (!s.empty()) std::memcpy(b.data(), s.data(), s.size());
  return b;
}
/// A generated AKS dump whose global.profile is replaced by `global`.
std::string detect_message(const std::string& global) {
  auto r = tpuprof::synth::synthesize_cdm<tpuprof::chips::aks>({.cores = 1, .records = 8});
  r.files["global.profile"] = text(global);
  try {
    tpuprof::detect_dump(tpuprof::synth::as_dump_files(r, "d"), tpuprof::chips::all{});
  } catch (const decode_error& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("SG2260 global.profile parse errors give the real reason, not 'not a supported chip'") {
  CHECK(detect_message("arch=5\nmax_record_num=x\n") ==
        "d/global.profile: at byte 7: max_record_num 'x' is not a number");
  CHECK(detect_message("arch=5\ntpu_freq=1000\ntail_offset_ns=abc\n") ==
        "d/global.profile: at byte 21: tail_offset_ns 'abc' is not a number");
  CHECK(detect_message("arch=8800\ncore0_tiu_record=1e3\n") ==
        "d/global.profile: at byte 10: core0_tiu_record '1e3' is not a number");
  // not this chip at all: still "not a supported chip", with the arch line's offset
  CHECK(detect_message("x=1\narch=9\n") ==
        "d/global.profile: at byte 4: arch=9 is not a supported chip (bm1684x, aks, aksv, "
        "bm1688, cv184x)");
  // a malformed dump is a decode_error, not an undetected_dump (no "give the chip" hint)
  auto r = tpuprof::synth::synthesize_cdm<tpuprof::chips::aks>({.cores = 1, .records = 8});
  r.files["global.profile"] = text("arch=5\nmax_record_num=x\n");
  CHECK_THROWS_AS(
      (void)tpuprof::detect_dump(tpuprof::synth::as_dump_files(r), tpuprof::chips::all{}),
      decode_error);
  bool undetected = false;
  try {
    (void)tpuprof::detect_dump(tpuprof::synth::as_dump_files(r), tpuprof::chips::all{});
  } catch (const tpuprof::undetected_dump&) {
    undetected = true;
  } catch (const decode_error&) {
  }
  CHECK_FALSE(undetected);
}

TEST_CASE(
    "tpu_freq that is not a usable clock: the chip default, with the real reason and offset") {
  for (const auto& [value, why] :
       std::vector<std::pair<std::string, std::string>>{{"-1", "is negative"},
                                                        {"nan", "is not a number"},
                                                        {"1e308", "is above 100000 MHz"},
                                                        {"0", "is 0"}}) {
    CAPTURE(value);
    auto r = tpuprof::synth::synthesize_cdm<tpuprof::chips::aks>({.cores = 1, .records = 8});
    r.files["global.profile"] = text("arch=5\ntpu_freq=" + value + "\n");
    tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(tpuprof::synth::as_dump_files(r));
    const auto& dg = d.info().diagnostics;
    CHECK(dg[tpuprof::diag::default_frequency] == 2);  // TIU and DMA clocks
    REQUIRE(dg.notes().size() >= 2);
    CHECK(dg.notes()[0].offset == 7);
    CHECK(dg.notes()[0].text == "tpu_freq " + why + ": chip default used for the TIU clock");
    CHECK(dg.notes()[1].offset == 7);  // one note per clock, each naming its own
    CHECK(dg.notes()[1].text == "tpu_freq " + why + ": chip default used for the DMA clock");
    CHECK(d.info().end_ns > 0);  // a span, not 0 as with tpu_freq=1e308 before
  }
  CHECK(tpuprof::usable_clock_mhz(1000));
  CHECK_FALSE(tpuprof::usable_clock_mhz(std::nan("")));
  CHECK_FALSE(tpuprof::usable_clock_mhz(-1));
  CHECK_FALSE(tpuprof::usable_clock_mhz(1e308));
}

TEST_CASE("atomic_file: a failed rename keeps its errno") {
  const auto dir = fs::path(TPUPROF_TEST_TMP) / "reliab_rename";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // the target is a non-empty directory: rename(2) fails with EISDIR whoever runs it
  fs::create_directories(dir / "out.txt" / "x");
  tpuprof::io::atomic_file f(dir / "out.txt");
  f.write("abc");
  CHECK_THROWS_WITH_AS(
      f.commit(),
      ((dir / "out.txt").string() + ": rename failed: " + std::strerror(EISDIR)).c_str(),
      tpuprof::io::output_error);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}) == 1);  // no temp
  if (::geteuid() != 0) {  // a read-only directory (root ignores the permission)
    const auto ro = dir / "ro";
    fs::create_directories(ro);
    tpuprof::io::atomic_file g(ro / "out.txt");
    fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
    CHECK_THROWS_WITH_AS(g.commit(), doctest::Contains(std::strerror(EACCES)),
                         tpuprof::io::output_error);
    fs::permissions(ro, fs::perms::owner_all);
  }
}

TEST_CASE("host trace: a ts or dur that is not a number is rejected with its offset") {
  const std::string j = R"({"traceEvents":[{"ph":"X","ts":"abc","dur":1,"pid":1,"tid":1}]})";
  CHECK_THROWS_WITH_AS(tpuprof::io::parse_chrome_json(j, "h.json"),
                       "h.json: at byte 36: chrome json: \"ts\" is not a number: \"abc\"",
                       decode_error);
  const std::string d = R"([{"ph":"X","ts":1,"dur":"1x","pid":1,"tid":1}])";
  CHECK_THROWS_WITH_AS(tpuprof::io::parse_chrome_json(d, "h.json"),
                       doctest::Contains("\"dur\" is not a number: \"1x\""), decode_error);
  // numeric strings stay accepted (non-standard traces write them)
  const std::string ok = R"([{"ph":"X","ts":"2.5","dur":"1","pid":1,"tid":1,"name":"a"}])";
  const auto h = tpuprof::io::parse_chrome_json(ok, "h.json");
  REQUIRE(h.spans.size() == 1);
  CHECK(h.spans[0].ts_ns == 2500);
}
