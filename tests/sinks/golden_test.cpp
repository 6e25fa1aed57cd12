// Golden files: the CSV, Chrome JSON and Perfetto sinks on the real
// captures, byte for byte. The values in them are checked against the vendor
// decoders by the decoder tests (tests/decode/*); these tests catch any
// unintended change of the output. Regenerate: tools/update_goldens.sh.
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/sinks/chrome_json.hpp>
#include <tpuprof/sinks/csv.hpp>
#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/sinks/sink.hpp>

#include "sinks/sample_trace.hpp"
#include "test_util.hpp"

#ifdef TPUPROF_SAMPLES_DIR
namespace {
const std::string golden = std::string(TPUPROF_SOURCE_DIR) + "/tests/golden/";
const std::string samples = TPUPROF_SAMPLES_DIR;

template <class Sink, class Trace>
std::string render(const Trace& t) {
  std::string out;
  Sink s{tpuprof::sinks::byte_output{out}};
  tpuprof::write_trace(t, s);
  return out;
}

/// POSIX `cksum` of `s` ("CRC size"): CRC-32 (poly 0x04C11DB7, MSB first)
/// over the bytes then the length, complemented. The golden's first line,
/// written by the shell tool, so the test needs no protoc to compare bytes.
std::string cksum(std::string_view s) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i << 24;
      for (int k = 0; k < 8; ++k) c = (c & 0x80000000u) ? (c << 1) ^ 0x04C11DB7u : c << 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t crc = 0;
  auto step = [&](unsigned char b) { crc = (crc << 8) ^ table[((crc >> 24) ^ b) & 0xFF]; };
  for (char c : s) step(static_cast<unsigned char>(c));
  for (auto n = s.size(); n; n >>= 8) step(static_cast<unsigned char>(n & 0xFF));
  return std::to_string(~crc) + " " + std::to_string(s.size());
}

/// Compares a .pftrace with its text golden: the cksum line always (exact),
/// and protoc's decoding with the rest of the golden when protoc exists (a
/// readable diff of what changed).
void check_perfetto_golden(const std::string& bytes, const std::string& golden_file) {
  auto golden_text = test_util::read_text(golden + golden_file);
  auto eol = golden_text.find('\n');
  REQUIRE(eol != std::string::npos);
  CHECK(golden_text.substr(0, eol) == "# cksum: " + cksum(bytes));
  if (sink_test::run("command -v protoc") != 0) {
    MESSAGE("protoc not found: " << golden_file << " compared by cksum only");
    return;
  }
  auto dir = sink_test::tmp_dir("golden_" + golden_file);
  {
    std::FILE* f = std::fopen((dir / "trace.pftrace").c_str(), "wb");
    REQUIRE(f != nullptr);
    CHECK(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
    std::fclose(f);
  }
  std::string err;
  int rc =
      sink_test::run("protoc --proto_path=" TPUPROF_SOURCE_DIR
                     "/tests/data --decode=perfetto.protos.Trace perfetto_trace.proto < " +
                         (dir / "trace.pftrace").string() + " > " + (dir / "trace.txt").string(),
                     &err);
  INFO(err);
  REQUIRE(rc == 0);
  CHECK(sink_test::slurp(dir / "trace.txt") == golden_text.substr(eol + 1));
}
}  // namespace

TEST_CASE("golden: events.csv and summary.csv of the real BM1684X capture") {
  tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d(
      tpuprof::io::dump_files::open_directory(samples + "/bm1684x/bmprofile_data-1"));
  CHECK(render<tpuprof::sinks::csv_sink>(d) ==
        test_util::read_text(golden + "bm1684x_real_events.csv"));
  CHECK(render<tpuprof::sinks::csv_summary_sink>(d) ==
        test_util::read_text(golden + "bm1684x_real_summary.csv"));
}

TEST_CASE("golden: trace.json and trace.pftrace of the real BM1684X capture") {
  tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d(
      tpuprof::io::dump_files::open_directory(samples + "/bm1684x/bmprofile_data-1"));
  CHECK(render<tpuprof::sinks::chrome_json_sink>(d) ==
        test_util::read_text(golden + "bm1684x_real_trace.json"));
  check_perfetto_golden(render<tpuprof::sinks::perfetto_sink>(d), "bm1684x_real_trace.pftrace.txt");
}

TEST_CASE("golden: events.csv of the real BM1690 capture") {
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(
      tpuprof::io::dump_files::open_directory(samples + "/bm1690/cdm_profile_data_dev0"));
  CHECK(render<tpuprof::sinks::csv_sink>(d) ==
        test_util::read_text(golden + "bm1690_real_events.csv"));
}

TEST_CASE("golden: trace.json and trace.pftrace of the real BM1690 capture") {
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(
      tpuprof::io::dump_files::open_directory(samples + "/bm1690/cdm_profile_data_dev0"));
  CHECK(render<tpuprof::sinks::chrome_json_sink>(d) ==
        test_util::read_text(golden + "bm1690_real_trace.json"));
  check_perfetto_golden(render<tpuprof::sinks::perfetto_sink>(d), "bm1690_real_trace.pftrace.txt");
}
#endif
