// uArch rate of the BM1688 / CV184X TIU classes the real captures lack (MM, MM2, CMP, SFU, LIN,
// RQ&DQ, plus more AR / CW&BC / SG forms) against the vendor's opdef.py `ops(is_arch)` on
// synthetic commands: tests/data/{bm1688,cv184x}_vendor_uarch.csv, made by
// tools/vendor_check/bm1688_cv184x_uarch.py (tests/data/README.md). Where the vendor raises (VC,
// SGL), tpuprof has no rate.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/io/byte_reader.hpp>

#include "../../test_util.hpp"

namespace {

std::vector<std::byte> from_hex(const std::string& h) {
  std::vector<std::byte> out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2)
    out.push_back(static_cast<std::byte>(std::stoul(h.substr(i, 2), nullptr, 16)));
  return out;
}

struct counts {
  std::map<std::string, int> rated, none;
};

template <class Chip>
counts check(const char* chip) {
  auto rows = test_util::read_csv(std::string(TPUPROF_SOURCE_DIR) + "/tests/data/" + chip +
                                  "_vendor_uarch.csv");
  REQUIRE(rows.size() > 100);
  rows.erase(rows.begin());
  counts n;
  for (const auto& r : rows) {
    REQUIRE(r.size() == 6);
    CAPTURE(r[1]);
    CAPTURE(r[2]);
    CAPTURE(r[3]);
    const auto bytes = from_hex(r[3]);
    const auto w0 = tpuprof::io::load_le<std::uint64_t>(bytes.data());
    const auto f = Chip::frame_tiu(w0);
    const bool vendor_raised = r[4] == "error";
    // an eu type the vendor's opdef (AssertionError) or converter (KeyError: CV184X quant.rq0,
    // quant.dq1) rejects: no vendor number to compare with
    if (vendor_raised && (r[5] == "KeyError" || r[5] == "AssertionError")) continue;
    REQUIRE(f);
    CHECK(Chip::command_class(tpuprof::engine::tiu, w0) == r[1]);
    CHECK(f->op == r[2]);
    const float rate = Chip::uarch_rate(r[1], f->op, bytes);
    if (vendor_raised) {
      if (r[5] == "ValueError") continue;  // a precision / sign the vendor has no dtype for
      CHECK(std::isnan(rate));
      ++n.none[r[1]];
      continue;
    }
    const double alg = std::stod(r[4]), arch = std::stod(r[5]);
    CHECK(rate == static_cast<float>(alg / arch));
    ++n.rated[r[1]];
  }
  return n;
}

}  // namespace

TEST_CASE("BM1688: uArch rate of every TIU class equals the vendor's (synthetic commands)") {
  const auto n = check<tpuprof::chips::bm1688>("bm1688");
  for (const char* c : {"sMM", "sMM2", "sCMP", "sSFU", "sLIN", "sRQ&sDQ", "sAR", "sCW&sBC", "sSG"})
    CHECK(n.rated.count(c));
  CHECK(n.rated.at("sCMP") == 20);
  CHECK(n.rated.at("sRQ&sDQ") == 16);
  CHECK(n.none.at("sVC") == 12);
  CHECK(n.none.at("sSGL") == 8);
}

TEST_CASE("CV184X: uArch rate of every TIU class equals the vendor's (synthetic commands)") {
  const auto n = check<tpuprof::chips::cv184x>("cv184x");
  for (const char* c : {"sMM", "sMM2", "sCMP", "sSFU", "sLIN", "sRQ&sDQ", "sAR", "sCW&sBC", "sSG"})
    CHECK(n.rated.count(c));
  CHECK(n.none.at("sVC") == 12);
  CHECK(n.none.at("sSGL") == 8);
}
