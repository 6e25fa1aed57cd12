// The summary model's formatters: the bytes of `tpuprof summary` (txt, CSV,
// JSON) on the real captures, written by the baseline CLI into tests/golden/
// (*_real_summary.txt, *_real_summary_cli.csv / .json), and the HTML section.
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/algo/summary.hpp>
#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/sinks/summary_format.hpp>

#include "test_util.hpp"

namespace {

template <class D>
void check_formats(const D& d, const std::string& chip) {
  const std::string golden = std::string(TPUPROF_SOURCE_DIR) + "/tests/golden/" + chip;
  tpuprof::summary_options so;
  so.info = &d.info();
  const tpuprof::summary_report rep = tpuprof::algo::summary(d.events(), so);
  CHECK(tpuprof::format_summary_txt(rep) == test_util::read_text(golden + "_real_summary.txt"));
  CHECK(tpuprof::format_summary_csv(rep) == test_util::read_text(golden + "_real_summary_cli.csv"));
  CHECK(tpuprof::format_summary_json(rep) ==
        test_util::read_text(golden + "_real_summary_cli.json"));
}

}  // namespace

TEST_CASE("summary formatters: an unknown value is empty in CSV and null in JSON") {
  tpuprof::summary_report rep;
  rep.total_ns = 2000;
  tpuprof::core_summary c;
  c.total_ns = 2000;
  c.tiu_cycles = 500;
  c.tiu_ns = 500;
  rep.cores.push_back(c);  // uarch_rate NaN
  const std::string csv = tpuprof::format_summary_csv(rep);
  CHECK(csv.substr(csv.find('\n') + 1) == "0,0,25.00,2.000,25.00,500,,0,0.00,0.00,0,0.00\n");
  const std::string json = tpuprof::format_summary_json(rep);
  CHECK(json.find("\"uarch_rate_pct\":null") != std::string::npos);
  CHECK(json.substr(0, 48) == "{\"total_time_us\":2.000,\"tiu_mhz\":1000,\"dma_mhz\":");
  std::string page;
  {
    tpuprof::detail::out_buffer o(tpuprof::sinks::byte_output{page}, 4096);
    tpuprof::write_summary_page_json(o, rep);
    o.flush();
  }
  CHECK(page.find("\"uarch\":null") != std::string::npos);
  CHECK(page.substr(0, 46) == "{\"tiu_mhz\":1000,\"dma_mhz\":1000,\"total_ns\":2000");
}

#ifdef TPUPROF_SAMPLES_DIR
TEST_CASE("summary formatters give the CLI's bytes on the real BM1684X and BM1690 captures") {
  const std::string s = TPUPROF_SAMPLES_DIR;
  check_formats(tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x>(
                    tpuprof::io::dump_files::open_directory(s + "/bm1684x/bmprofile_data-1")),
                "bm1684x");
  check_formats(tpuprof::cdm::cdm_decoder<tpuprof::chips::aks>(
                    tpuprof::io::dump_files::open_directory(s + "/bm1690/cdm_profile_data_dev0")),
                "bm1690");
}
#endif
