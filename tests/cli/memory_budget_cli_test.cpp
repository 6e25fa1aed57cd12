// convert --memory-budget: the same files whatever the budget (a small one
// decodes every core twice, one at a time; the default keeps them all), and
// sizes checked with the real reason.
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI)
namespace fs = std::filesystem;

TEST_CASE("cli: convert --memory-budget changes how cores are decoded, not one output byte") {
  const auto root = fs::path(TPUPROF_TEST_TMP) / "cli_memory_budget";
  fs::remove_all(root);
  // 4 cores of 4500 PMU records (~450 KB each by the streamer's estimate):
  // 1M holds two at a time and keeps none; the default 224M keeps all four.
  REQUIRE(test_util::run_cli("synth -q --chip aks --records 2000 --cores 4 --cdma-ports 2 "
                             "--seed 5 -o " +
                             (root / "in").string())
              .code == 0);
  const std::string outputs[] = {"trace.pftrace", "summary.txt", "trace.json", "events.csv",
                                 "summary.csv"};
  for (const std::string budget : {"", "1M", "1.5MiB", "4G"}) {
    CAPTURE(budget);
    const auto out = root / ("out" + budget);
    const auto r = test_util::run_cli("convert -q --perfetto --json --csv " +
                                      (budget.empty() ? "" : "--memory-budget " + budget + " ") +
                                      (root / "in").string() + " -o " + out.string());
    REQUIRE(r.code == 0);
    CHECK(r.out.empty());
    if (budget.empty()) continue;
    for (const auto& f : outputs) {
      CAPTURE(f);
      const std::string got = test_util::read_text((out / f).string());
      CHECK(got.size() > 100);
      CHECK(got == test_util::read_text((root / "out" / f).string()));
    }
  }
  for (const auto& [bad, why] : {std::pair<std::string, std::string>{"lots", "not a size"},
                                 {"512K", "give 1M to 2^60 bytes"},
                                 {"2T", "give 1M to 2^60 bytes"}}) {
    CAPTURE(bad);
    const auto r = test_util::run_cli("convert -q --memory-budget " + bad + " " +
                                      (root / "in").string() + " -o " + (root / "bad").string());
    CHECK(r.code == 2);
    CHECK(r.out.find("--memory-budget: '" + bad + "': " + why) != std::string::npos);
    CHECK_FALSE(fs::exists(root / "bad"));
  }
}
#endif
