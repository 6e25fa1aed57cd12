// BM1688 / CV184X dumps with a file missing, cut short or inconsistent (built in memory from the
// real captures): clear errors naming file, offset and reason, or counted diagnostics, as for
// BM1684X (tests/decode/bmprofile_errors_test.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/detect.hpp>

#include "../../test_util.hpp"

#ifdef TPUPROF_SAMPLES_DIR

using tpuprof::bmprofile_decoder;
using tpuprof::diag;
using tpuprof::chips::bm1688;

namespace {

/// The BM1688 capture's files as bytes, to edit before decoding.
struct dump {
  std::string dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1688/bmprofile_data-1/";
  std::vector<std::byte> global = load("global.profile"), iter = load("iter0.profile"),
                         tiu = load("cmd_12406e000_0_0.dat"), gdma = load("cmd_124071000_0_1.dat");
  bool with_tiu = true;

  std::vector<std::byte> load(const char* f) const {
    return test_util::bytes_of(test_util::read_text(dir + f));
  }
  void replace_in_global(const std::string& from, const std::string& to) {
    std::string g(reinterpret_cast<const char*>(global.data()), global.size());
    const auto p = g.find(from);
    REQUIRE(p != std::string::npos);
    g.replace(p, from.size(), to);
    global = test_util::bytes_of(g);
  }
  tpuprof::io::dump_files files() const {
    std::vector<tpuprof::io::dump_files::memory_file> v{
        {"global.profile", global}, {"iter0.profile", iter}, {"cmd_124071000_0_1.dat", gdma}};
    if (with_tiu) v.push_back({"cmd_12406e000_0_0.dat", tiu});
    return tpuprof::io::dump_files::from_memory(std::move(v), "d");
  }
};

bool has_note(const tpuprof::decode_diagnostics& d, diag k, const std::string& file,
              std::uint64_t offset, const std::string& text) {
  for (const auto& n : d.notes())
    if (n.kind == k && n.file == file && n.offset == offset &&
        n.text.find(text) != std::string::npos)
      return true;
  return false;
}

}  // namespace

TEST_CASE("BM1688: a missing command file is a diagnostic naming it; events are kept") {
  dump d;
  d.with_tiu = false;
  const bmprofile_decoder<bm1688> dec(d.files());
  const auto& g = dec.info().diagnostics;
  CHECK(g[diag::missing_file] == 1);
  CHECK(has_note(g, diag::missing_file, "d/cmd_12406e000_0_0.dat", tpuprof::decode_error::no_offset,
                 "command file missing"));
  CHECK(g[diag::unmatched_record] == 137);  // every TIU record, none of GDMA
  CHECK(dec.events().size() == 303);
  for (const auto& e : dec.events())
    if (e.engine == tpuprof::engine::tiu) CHECK(dec.command(e) == nullptr);
}

TEST_CASE("BM1688: a truncated command file ends its list with a diagnostic (file, offset)") {
  dump d;
  d.tiu.resize(5000);  // the command at 4976 is 64 bytes long
  const bmprofile_decoder<bm1688> dec(d.files());
  const auto& g = dec.info().diagnostics;
  CHECK(g[diag::truncated_tail] == 1);
  CHECK(has_note(g, diag::truncated_tail, "d/cmd_12406e000_0_0.dat", 4976,
                 "arith.copy needs 64 bytes, 24 remain"));
  CHECK(g[diag::unmatched_record] == 56);  // TIU records 81 .. 136
  CHECK(g.data_loss());
}

TEST_CASE("BM1688: a truncated iter0.profile is an error naming file, offset and reason") {
  dump d;
  d.iter.resize(30000);
  try {
    const bmprofile_decoder<bm1688> dec(d.files());
    FAIL("no error");
  } catch (const tpuprof::decode_error& e) {
    CHECK(e.file() == "d/iter0.profile");
    CHECK(e.offset() == 4488);
    CHECK(e.reason() == "block of type 4 claims 43264 bytes, only 25504 remain");
  }
}

TEST_CASE("BM1688: an unknown arch is refused by detection and by the decoder") {
  dump d;
  d.replace_in_global("arch=4", "arch=99");
  try {
    (void)tpuprof::detect_dump(d.files(), tpuprof::chips::all{});
    FAIL("no error");
  } catch (const tpuprof::decode_error& e) {
    CHECK(e.file() == "d/global.profile");
    CHECK(e.reason().find("arch=99 is not a supported chip") == 0);
  }
  try {
    const bmprofile_decoder<bm1688> dec(d.files());
    FAIL("no error");
  } catch (const tpuprof::decode_error& e) {
    CHECK(e.file() == "d/global.profile");
    CHECK(e.reason() == "arch=99 is not BM1688");
  }
  // a BM1688 dump is not CV184X
  const dump ok;
  CHECK_THROWS_WITH_AS(bmprofile_decoder<tpuprof::chips::cv184x>(ok.files()),
                       "d/global.profile: arch=4 is not CV184X", tpuprof::decode_error);
}

TEST_CASE("BM1688: a bad core list: unreadable is an error, cores the chip lacks are counted") {
  SUBCASE("not a number") {
    dump d;
    d.replace_in_global("core_list=0,", "core_list=0,x");
    try {
      const bmprofile_decoder<bm1688> dec(d.files());
      FAIL("no error");
    } catch (const tpuprof::decode_error& e) {
      CHECK(e.file() == "d/global.profile");
      CHECK(e.offset() == 103970);
      CHECK(e.reason() == "bad number 'x' for core_list");
    }
  }
  SUBCASE("a core BM1688 does not have") {
    dump d;
    d.replace_in_global("core_list=0,", "core_list=0,5,");
    const bmprofile_decoder<bm1688> dec(d.files());
    const auto& g = dec.info().diagnostics;
    CHECK(g[diag::other] == 1);
    CHECK(has_note(g, diag::other, "d/global.profile", tpuprof::decode_error::no_offset,
                   "core_list names core 5; BM1688 has 2"));
    CHECK(dec.events().size() == 303);
  }
}

#endif
