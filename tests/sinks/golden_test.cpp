// Golden files: the CSV sinks on the real captures, byte for byte. The
// values in them are checked against the vendor decoders by the decoder tests
// (tests/decode/*); these tests catch any unintended change of the output.
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks.hpp>
#include <tpuprof/chips/bm1684x.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/sinks/csv.hpp>
#include <tpuprof/sinks/sink.hpp>

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
}  // namespace

TEST_CASE("golden: events.csv and summary.csv of the real BM1684X capture") {
  tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d(
      tpuprof::io::dump_files::open_directory(samples + "/bm1684x/bmprofile_data-1"));
  CHECK(render<tpuprof::sinks::csv_sink>(d) ==
        test_util::read_text(golden + "bm1684x_real_events.csv"));
  CHECK(render<tpuprof::sinks::csv_summary_sink>(d) ==
        test_util::read_text(golden + "bm1684x_real_summary.csv"));
}

TEST_CASE("golden: events.csv of the real BM1690 capture") {
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(
      tpuprof::io::dump_files::open_directory(samples + "/bm1690/cdm_profile_data_dev0"));
  CHECK(render<tpuprof::sinks::csv_sink>(d) ==
        test_util::read_text(golden + "bm1690_real_events.csv"));
}
#endif
