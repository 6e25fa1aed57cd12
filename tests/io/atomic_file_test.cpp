#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include <tpuprof/io/atomic_file.hpp>

namespace fs = std::filesystem;

TEST_CASE("atomic_file appears only on commit and leaves nothing on abandon") {
  auto dir = fs::path(TPUPROF_TEST_TMP) / "atomic";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto p = dir / "out.txt";
  {
    tpuprof::io::atomic_file f(p);
    f.write("abc");
    CHECK_FALSE(fs::exists(p));
  }
  CHECK_FALSE(fs::exists(p));
  CHECK(fs::is_empty(dir));
  {
    tpuprof::io::atomic_file f(p);
    f.write("abc");
    f.commit();
  }
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str() == "abc");
  CHECK_THROWS_AS(tpuprof::io::atomic_file(dir / "no" / "such" / "x"), tpuprof::io::output_error);
}
