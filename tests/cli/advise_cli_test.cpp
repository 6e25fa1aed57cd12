// advise --format json, parsed with simdjson: the documented keys, the invariants, --top and
// the --fail-on exit code.
#include <simdjson.h>

#include <cstdint>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI) && defined(TPUPROF_SAMPLES_DIR)
TEST_CASE("cli advise --format json on the BM1684X capture") {
  const std::string dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";
  const auto r =
      test_util::run_shell(std::string(TPUPROF_CLI) + " advise -q " + dir + " --format json");
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  const simdjson::padded_string js(r.out);
  simdjson::dom::element doc = parser.parse(js);
  const double span = double(doc["span_ns"]);
  CHECK(span == 213519);
  simdjson::dom::array findings = doc["findings"];
  REQUIRE(findings.size() >= 2);
  double sum = 0, last = 1e300;
  std::set<std::string_view> rules;
  for (simdjson::dom::element f : findings) {
    const double rec = double(f["recoverable_ns"]);
    CHECK(rec <= double(f["bucket_ns"]) + 1e-6);
    CHECK(rec <= last);
    last = rec;
    sum += rec;
    rules.insert(std::string_view(f["rule"]));
    const std::string_view sev = f["severity"];
    CHECK((sev == "info" || sev == "warn" || sev == "error"));
    CHECK(!std::string_view(f["message"]).empty());
    for (simdjson::dom::element c : simdjson::dom::array(f["commands"]))
      CHECK(double(c["end_ns"]) >= double(c["begin_ns"]));
    CHECK(std::string_view(f["id"]).substr(0, 1) == "F");
  }
  CHECK(sum <= span);
  CHECK(rules.count("starved-tiu") == 1);  // GDMA 145 and 155: 13-15x slower than their size
  CHECK(rules.count("lane-underuse") == 1);
  CHECK(std::string_view(findings.at(0)["rule"]) == "lane-underuse");
  simdjson::dom::array layers = doc["layers"];
  CHECK(layers.size() == 183);
  int with_ops = 0, with_peak = 0;
  for (simdjson::dom::element l : layers) {
    const std::string_view b = l["bound"];
    CHECK((b == "compute" || b == "bandwidth" || b == "latency" || b == "dependency"));
    // alg ops from the register decode (docs/analysis.md, "Roofline"); null without TIU work
    if (!l["alg_ops"].is_null()) ++with_ops;
    if (std::int64_t(l["layer_id"]) == 29)  // conv 14 alone (tests/algo/roofline_alg_ops_test)
      CHECK(double(l["alg_ops"]) == 42467328);
    if (l["attainable_ops_per_s"].is_null()) continue;
    ++with_peak;
    CHECK(double(l["achieved_ops_per_s"]) <= double(l["attainable_ops_per_s"]));
    if (std::int64_t(l["layer_id"]) == 300)  // Permute: 8192 ops / 32 KiB x 58 GiB/s
      CHECK(double(l["attainable_ops_per_s"]) ==
            doctest::Approx(8192.0 / 32768 * 58 * 1073741824.0));
  }
  CHECK(with_ops == 63);
  CHECK(with_peak == 9);

  const auto top = test_util::run_shell(std::string(TPUPROF_CLI) + " advise -q " + dir +
                                        " --format json --top 1");
  simdjson::dom::parser p2;
  const simdjson::padded_string js2(top.out);
  CHECK(simdjson::dom::array(p2.parse(js2)["findings"]).size() == 1);

  CHECK(test_util::run_shell(std::string(TPUPROF_CLI) + " advise -q " + dir + " --fail-on warn")
            .code == 6);
  CHECK(test_util::run_shell(std::string(TPUPROF_CLI) + " advise -q " + dir + " --fail-on error")
            .code == 0);
}

TEST_CASE("cli advise on SG2260 mode 1: no dependency data, bound classes unknown") {
  const std::string dir = std::string(TPUPROF_SAMPLES_DIR) + "/synthetic/aks_mode1_seed1";
  const auto r = test_util::run_shell(std::string(TPUPROF_CLI) + " advise -q " + dir);
  CHECK(r.code == 0);
  CHECK(r.out.find("no dependency data") != std::string::npos);
}
#endif
