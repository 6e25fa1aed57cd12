// critical-path and whatif --format json, parsed with simdjson: the documented keys.
#include <simdjson.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI) && defined(TPUPROF_SAMPLES_DIR)
namespace {

std::string run_json(const std::string& args) {
  const auto r = test_util::run_shell(std::string(TPUPROF_CLI) + " " + args);
  CHECK(r.code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("cli critical-path --format json on the BM1684X capture") {
  const std::string dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";
  simdjson::dom::parser parser;
  const simdjson::padded_string js(run_json("critical-path " + dir + " --format json"));
  simdjson::dom::element doc = parser.parse(js);
  CHECK(double(doc["span_ns"]) == 213519);
  CHECK(int64_t(doc["dependencies"]["resolved"]) == 246);
  CHECK(int64_t(doc["dependencies"]["none"]) == 4);
  CHECK(int64_t(doc["dependencies"]["unresolved"]) == 0);
  CHECK(int64_t(doc["dependencies"]["violations"]) == 0);
  simdjson::dom::array path = doc["path"];
  CHECK(path.size() == 197);
  double sum = 0;
  for (simdjson::dom::element s : path) {
    sum += double(s["end_ns"]) - double(s["begin_ns"]) + double(s["latency_ns"]);
    const std::string_view via = s["via"];
    CHECK((via == "start" || via == "engine_order" || via == "dependency" || via == "sync"));
  }
  CHECK(sum == doctest::Approx(213519));
  CHECK(std::string_view(path.at(0)["via"]) == "start");
  double by_engine = double(doc["path_by_engine_ns"]["tiu"]) +
                     double(doc["path_by_engine_ns"]["gdma"]) +
                     double(doc["path_by_engine_ns"]["latency"]);
  CHECK(by_engine == doctest::Approx(213519));
  simdjson::dom::array idle = doc["idle"];
  REQUIRE(idle.size() == 2);
  for (simdjson::dom::element q : idle) {
    double c = 0;
    for (auto k : {"dependency", "sync", "dispatch", "edge", "unknown"})
      c += double(q["by_cause_ns"][k]);
    CHECK(c == doctest::Approx(double(q["total_ns"])));
  }
  CHECK(std::string_view(idle.at(0)["engine"]) == "tiu");
}

TEST_CASE("cli whatif --format json on the BM1684X capture") {
  const std::string dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";
  simdjson::dom::parser parser;
  const simdjson::padded_string js(run_json("whatif " + dir + " --scale gdma=0.5 --format json"));
  simdjson::dom::element doc = parser.parse(js);
  CHECK(double(doc["measured_span_ns"]) == 213519);
  CHECK(double(doc["replayed_span_ns"]) == 213519);
  CHECK(double(doc["predicted_span_ns"]) == doctest::Approx(137987.5));
  CHECK(double(doc["path_by_engine_ns"]["gdma"]) > 0);
}
#endif
