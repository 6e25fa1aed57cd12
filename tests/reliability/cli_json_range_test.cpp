// CLI review fixes: --host-offset-ns must fit an int64 (no undefined cast),
// and the critical-path / whatif JSON stays JSON when a number is not finite.
#include <string>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI) && defined(TPUPROF_SAMPLES_DIR)
TEST_CASE("cli: --host-offset-ns out of the int64 range is rejected with a short message") {
  const std::string dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";
  const auto first_line = [](const std::string& s) { return s.substr(0, s.find('\n')); };
  auto r = test_util::run_cli("convert -q --host-offset-ns 1e300 -o /nonexistent " + dir);
  CHECK(r.code == 2);
  CHECK(first_line(r.out) == "--host-offset-ns: 1e300 ns is out of range (|ns| < 2^63)");
  r = test_util::run_cli("convert -q --host-offset-ns -9.3e18 -o /nonexistent " + dir);
  CHECK(r.code == 2);
  CHECK(first_line(r.out) == "--host-offset-ns: -9.3e18 ns is out of range (|ns| < 2^63)");
  r = test_util::run_cli("convert -q --host-offset-ns nan -o /nonexistent " + dir);
  CHECK(r.code == 2);
  CHECK(first_line(r.out) == "--host-offset-ns: 'nan' is not a finite number");
}

TEST_CASE("cli: whatif --format json writes null, not nothing, for an infinite prediction") {
  const std::string dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";
  // every GDMA duration times 1e308 overflows to inf: the prediction is not finite
  const auto r = test_util::run_cli("whatif -q --scale gdma=1e308 --format json " + dir);
  CHECK(r.code == 0);
  CHECK(r.out ==
        "{\"measured_span_ns\":213519.000,\"replayed_span_ns\":213519.000,"
        "\"predicted_span_ns\":null,\"path_by_engine_ns\":{\"tiu\":null,\"gdma\":null,"
        "\"latency\":null}}\n");
}
#endif
