// The side files of a bmprofile_data-N dump: net_stat.sim and DYN_EXTRA.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>

#include "test_util.hpp"

using tpuprof::bmprofile::parse_net_stat;

namespace {
tpuprof::io::byte_reader reader_of(const std::vector<std::byte>& b) {
  return {b, "net_stat.sim"};
}
}  // namespace

TEST_CASE("net_stat.sim: numbers out of an id's or count's range skip the item") {
  // fuzz_net_stat found a byte count of 1e300 cast to uint64 (undefined behaviour).
  const std::string text =
      "-----\nh\n-----\nENGINE_BD ENGINE_GDMA\n"
      "A|GDMA_TENSOR|s:0|b:0|g:1|e:5|t:5|dr:0|sz:1e300 "
      "B|GDMA_TENSOR|s:5|b:0|g:2|e:9|t:4|dr:-1|sz:8 "
      "C|GDMA_TENSOR|s:9|b:0|g:4294967296|e:10|t:1|dr:1|sz:8 "
      "D|GDMA_TENSOR|s:10|b:0|g:3|e:12|t:2|dr:1|sz:nan "
      "E|GDMA_TENSOR|s:12|b:0|g:4|e:14|t:2|dr:1|sz:64\n"
      "flops: 1e300\n";
  auto bytes = test_util::bytes_of(text);
  tpuprof::decode_diagnostics d;
  auto ns = parse_net_stat(reader_of(bytes), d);
  REQUIRE(ns.gdma.size() == 1);
  CHECK(ns.gdma[0].name == "E");
  CHECK(ns.gdma[0].bytes == 64);
  CHECK(ns.flops == 0);
  CHECK(d[tpuprof::diag::other] == 4);  // A, B, C, D
}

TEST_CASE("net_stat.sim: sections, TIU and GDMA items, offsets between sections, flops") {
  const std::string text =
      "-----\nheader text\n-----\nENGINE_BD    ENGINE_GDMA\n"
      "      Load_20|GDMA_TENSOR|s:0|b:0|g:1|e:3638|t:3639|dr:0|sz:196608|bw:50.32\n"
      "Cast_23|AR|s:3639|b:1|g:1|e:4662|t:1024     "
      "Load_21|GDMA_TENSOR|s:3639|b:0|g:2|e:3922|t:284|dr:0|sz:7680\n"
      "------\nENGINE_BD ENGINE_GDMA\nAdd_7|AR|s:10|b:2|g:2|e:20|t:10\nbroken|AR|s:x\n----\n"
      "flops: 63714176, runtime: 0.224969ms\n";
  auto bytes = test_util::bytes_of(text);
  tpuprof::decode_diagnostics d;
  auto ns = parse_net_stat(reader_of(bytes), d);
  REQUIRE(ns.gdma.size() == 2);
  REQUIRE(ns.tiu.size() == 2);
  CHECK(ns.gdma[0].name == "Load_20");
  CHECK(ns.gdma[0].op == "GDMA_TENSOR");
  CHECK(ns.gdma[0].end_ns == 3638);
  CHECK(ns.gdma[0].cost_ns == 3639);
  CHECK(ns.gdma[0].gdma_id == 1);
  CHECK(ns.gdma[0].bytes == 196608);
  REQUIRE(ns.gdma[0].bw_gbps);
  CHECK(*ns.gdma[0].bw_gbps == doctest::Approx(50.32));
  CHECK_FALSE(ns.gdma[1].bw_gbps);
  CHECK(ns.gdma[0].layer_id == 20);
  CHECK(ns.tiu[0].name == "Cast_23");
  CHECK(ns.tiu[0].bd_id == 1);
  CHECK(ns.tiu[0].start_ns == 3639);
  // second section starts where the first ended (last end 4662)
  CHECK(ns.tiu[1].start_ns == 4662 + 10);
  CHECK(ns.tiu[1].end_ns == 4662 + 20);
  CHECK(ns.flops == 63714176);
  CHECK(d[tpuprof::diag::other] == 1);  // the broken item
}

#ifdef TPUPROF_SAMPLES_DIR
TEST_CASE("BM1684X capture: net_stat.sim and DYN_EXTRA are read") {
  const std::string dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";
  tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> dec(
      tpuprof::io::dump_files::open_directory(dir));
  REQUIRE(dec.net_stat());
  const auto& ns = *dec.net_stat();
  // counted independently: whitespace tokens with '|' and 's:' (252), those with '|dr:' are GDMA
  CHECK(ns.tiu.size() == 103);
  CHECK(ns.gdma.size() == 149);
  CHECK(ns.gdma.front().name == "Load_20");
  CHECK(ns.gdma.front().bytes == 196608);
  CHECK(ns.flops == 63714176);
  // DYN_EXTRA: 3 entries for the three NODE_SET records (profile ids 1, 4, 5), BINARY, empty
  const auto& ex = dec.dyn_extra(0);
  REQUIRE(ex.size() == 3);
  CHECK(ex[0].profile_id == 1);
  CHECK(ex[1].profile_id == 4);
  CHECK(ex[2].profile_id == 5);
  for (const auto& e : ex) {
    CHECK(e.type == 1);
    CHECK(e.content.size() == 0);
  }
}
#endif
