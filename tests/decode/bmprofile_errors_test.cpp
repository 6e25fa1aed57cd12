#include <cstring>
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>

using decoder = tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x>;
using tpuprof::decode_error;
using tpuprof::diag;

namespace {
tpuprof::synth::generated_dump small_dump() {
  tpuprof::synth::bm1684x_options o;
  o.layers = 20;
  return tpuprof::synth::bm1684x_dump(o);
}
std::vector<std::byte>& file(tpuprof::synth::generated_dump& g, const std::string& name) {
  for (auto& [n, b] : g.files)
    if (n == name) return b;
  FAIL("no file " << name);
  throw 0;
}
void put_u32(std::vector<std::byte>& b, std::size_t off, std::uint32_t v) {
  std::memcpy(b.data() + off, &v, 4);
}
void set_text(std::vector<std::byte>& b, const std::string& s) {
  b.resize(s.size());
  std::memcpy(b.data(), s.data(), s.size());
}
std::string text(const std::vector<std::byte>& b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}
}  // namespace

TEST_CASE("missing files are named") {
  auto g = small_dump();
  SUBCASE("global.profile") {
    std::erase_if(g.files, [](auto& f) { return f.first == "global.profile"; });
    CHECK_THROWS_WITH_AS(decoder(g.as_files("d")), "d/global.profile: missing file", decode_error);
  }
  SUBCASE("iter0.profile") {
    std::erase_if(g.files, [](auto& f) { return f.first == "iter0.profile"; });
    CHECK_THROWS_WITH_AS(decoder(g.as_files("d")), "d/iter0.profile: missing file", decode_error);
  }
  SUBCASE("command files: decoded without op names, reported") {
    std::erase_if(g.files, [](auto& f) { return f.first.rfind("cmd_", 0) == 0; });
    decoder d(g.as_files("d"));
    CHECK(d.events().size() == g.expected.size());
    CHECK(d.info().diagnostics[diag::missing_file] == 2);
  }
}

TEST_CASE("a block longer than its file is an error at the block header") {
  auto g = small_dump();
  auto& it = file(g, "iter0.profile");
  // blocks: SUMMARY (8+36) @0, COMMAND (8+44) @44, MONITOR_BD @96
  SUBCASE("truncated file") {
    it.resize(it.size() - 10);
    CHECK_THROWS_WITH_AS(decoder(g.as_files("d")), doctest::Contains("iter0.profile: at byte"),
                         decode_error);
  }
  SUBCASE("absurd length: no allocation, clear message") {
    put_u32(it, 96 + 4, 0xFFFFFFF0u);
    CHECK_THROWS_WITH_AS(
        decoder(g.as_files("d")),
        doctest::Contains("d/iter0.profile: at byte 96: block of type 3 claims 4294967280 bytes"),
        decode_error);
  }
  SUBCASE("header cut short: trailing bytes reported, not fatal") {
    it.push_back(std::byte{1});
    it.push_back(std::byte{2});
    decoder d(g.as_files("d"));
    CHECK(d.info().diagnostics[diag::truncated_tail] == 1);
  }
}

TEST_CASE("unknown block types are skipped and counted") {
  auto g = small_dump();
  auto& it = file(g, "iter0.profile");
  put_u32(it, 44, 99);  // the COMMAND block becomes type 99
  decoder d(g.as_files("d"));
  CHECK(d.info().diagnostics[diag::skipped_block] == 1);
  CHECK(d.events().size() == g.expected.size());
}

TEST_CASE("a dump of another chip is rejected with the reason") {
  auto g = small_dump();
  auto& gp = file(g, "global.profile");
  std::string t = text(gp);
  t.replace(t.find("arch=3"), 6, "arch=5");
  set_text(gp, t);
  CHECK_THROWS_WITH_AS(
      decoder(g.as_files("d")),
      doctest::Contains("arch=5 is not BM1684X (an SG2260-family arch: open it without "
                        "naming a chip"),
      decode_error);
}

TEST_CASE("tpu_freq=0 falls back to 1000 MHz with a diagnostic") {
  auto g = small_dump();
  auto& gp = file(g, "global.profile");
  std::string t = text(gp);
  t.replace(t.find("tpu_freq=1000"), 13, "tpu_freq=0");
  set_text(gp, t);
  decoder d(g.as_files("d"));
  CHECK(d.info().diagnostics[diag::default_frequency] == 1);
  CHECK(d.info().tracks[0].freq_mhz == 1000);
}

TEST_CASE("a malformed number in global.profile names the line's byte offset") {
  auto g = small_dump();
  auto& gp = file(g, "global.profile");
  std::string t = text(gp);
  const auto pos = t.find("[bmprofile] bd cmd_id");
  t.replace(t.find("bd_func=", pos) + 8, 1, "x");
  set_text(gp, t);
  CHECK_THROWS_WITH_AS(decoder(g.as_files("d")),
                       doctest::Contains(("d/global.profile: at byte " + std::to_string(pos) +
                                          ": bad number 'x' for bd_func")
                                             .c_str()),
                       decode_error);
}

TEST_CASE("a partial PMU record at the end of a block is ignored and reported") {
  auto g = small_dump();
  auto& it = file(g, "iter0.profile");
  // shorten the MONITOR_BD block by 4 bytes: its last record becomes partial
  std::uint32_t len;
  std::memcpy(&len, it.data() + 100, 4);
  put_u32(it, 100, len - 4);
  it.erase(it.begin() + 104 + len - 4, it.begin() + 104 + len);
  decoder d(g.as_files("d"));
  CHECK(d.info().diagnostics[diag::truncated_tail] == 1);
  CHECK(d.events(tpuprof::engine::tiu).size() == len / 32 - 1);
}

TEST_CASE("cycle wraps: an end that wrapped alone is not a wrap of the next record") {
  // Hand-made TIU list: record 1 ends after the counter wrapped, record 2 starts after it.
  auto g = small_dump();
  auto& it = file(g, "iter0.profile");
  const std::size_t bd = 104;  // first TIU record
  put_u32(it, bd + 0, 0xFFFFFF00u);
  put_u32(it, bd + 4, 0xFFFFFF80u);
  put_u32(it, bd + 32 + 0, 0xFFFFFFC0u);
  put_u32(it, bd + 32 + 4, 0x00000040u);  // wrapped: 0x80 cycles long
  put_u32(it, bd + 64 + 0, 0x00000050u);
  put_u32(it, bd + 64 + 4, 0x00000060u);
  decoder d(g.as_files("d"));
  std::vector<tpuprof::engine_event> e;
  for (const auto& x : d.events(tpuprof::engine::tiu)) e.push_back(x);
  REQUIRE(e.size() >= 3);
  CHECK(e[1].end_cycle - e[1].begin_cycle == 0x80);
  CHECK(e[2].begin_cycle - e[1].begin_cycle == 0x90);
  CHECK(e[2].end_cycle - e[2].begin_cycle == 0x10);
}
