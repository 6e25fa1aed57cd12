// Numeric CLI options: finite, positive, in range, with short messages (exit 2).
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI) && defined(TPUPROF_SAMPLES_DIR)
namespace {
using result = test_util::shell_result;
result run(const std::string& args) {
  return test_util::run_cli(args);
}
}  // namespace

TEST_CASE("cli: numeric options are validated with short messages") {
  const std::string dir = std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1";
  const auto first_line = [](const std::string& s) { return s.substr(0, s.find('\n')); };
  auto r = run("info -q --tiu-freq nan " + dir);
  CHECK(r.code == 2);
  CHECK(first_line(r.out) == "--tiu-freq: clock nan is not a number (give MHz in (0, 100000])");
  r = run("info -q --dma-freq -5 " + dir);
  CHECK(r.code == 2);
  CHECK(first_line(r.out) == "--dma-freq: clock -5 is negative (give MHz in (0, 100000])");
  r = run("info -q --tiu-freq 1e308 " + dir);
  CHECK(r.code == 2);
  CHECK(first_line(r.out) ==
        "--tiu-freq: clock 1e308 is above 100000 MHz (give MHz in (0, 100000])");
  r = run("info -q --num-core 0 " + dir);
  CHECK(r.code == 2);
  CHECK(first_line(r.out) == "--num-core: core count 0 is not in 1..1024");
  r = run("convert -q --host-offset-ns inf -o /nonexistent " + dir);
  CHECK(r.code == 2);
  CHECK(first_line(r.out) == "--host-offset-ns: 'inf' is not a finite number");
  CHECK(run("info -q --tiu-freq 1000 --num-core 1 " + dir).code == 0);
}
#endif
