#include <filesystem>
#include <fstream>
#include <iterator>
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

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
}
}  // namespace

TEST_CASE("atomic_file replaces an existing file, and only a file") {
  // Over a regular file the names are swapped (io/replace_file.hpp) for
  // durability::crash and renamed for power_loss: either way the old bytes go,
  // an open reader keeps them, and no temporary is left.
  auto dir = fs::path(TPUPROF_TEST_TMP) / "atomic_replace";
  for (auto d : {tpuprof::io::durability::crash, tpuprof::io::durability::power_loss}) {
    CAPTURE(static_cast<int>(d));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto p = dir / "out.txt";
    std::ofstream(p) << "old contents";
    std::ifstream reader(p, std::ios::binary);  // opened before the commit
    {
      tpuprof::io::atomic_file f(p, d);
      f.write("new");
      f.commit();
    }
    CHECK(slurp(p) == "new");
    std::stringstream was;
    was << reader.rdbuf();
    CHECK(was.str() == "old contents");
    CHECK(entries(dir) == 1);

    // a symlink in the way is replaced by the file; what it pointed to stays
    std::ofstream(dir / "target.txt") << "target";
    fs::remove(p);
    fs::create_symlink("target.txt", p);
    {
      tpuprof::io::atomic_file f(p, d);
      f.write("over the link");
      f.commit();
    }
    CHECK_FALSE(fs::is_symlink(p));
    CHECK(slurp(p) == "over the link");
    CHECK(slurp(dir / "target.txt") == "target");

    // a directory in the way is an error; it and its contents stay
    fs::remove(p);
    fs::create_directories(p);
    std::ofstream(p / "keep") << "k";
    tpuprof::io::atomic_file f(p, d);
    f.write("x");
    CHECK_THROWS_AS(f.commit(), tpuprof::io::output_error);
    CHECK(slurp(p / "keep") == "k");
    CHECK(entries(dir) == 2);  // the directory and target.txt: no temporary
  }
}

TEST_CASE("exchange_into swaps two regular files, and nothing else") {
  // The primitive under atomic_file and output_set (io/replace_file.hpp).
  namespace d = tpuprof::io::detail;
  auto dir = fs::path(TPUPROF_TEST_TMP) / "exchange_into";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "a") << "new";
  std::ofstream(dir / "b") << "old";
  CHECK(d::exchange_into(dir / "a", dir / "b"));
  CHECK(slurp(dir / "b") == "new");
  CHECK(slurp(dir / "a") == "old");
  // no target: nothing changes (the caller renames)
  CHECK_FALSE(d::exchange_into(dir / "a", dir / "none"));
  CHECK(slurp(dir / "a") == "old");
  CHECK_FALSE(fs::exists(dir / "none"));
  // a directory or a symlink in the way is not swapped
  fs::create_directories(dir / "sub");
  CHECK_FALSE(d::exchange_into(dir / "a", dir / "sub"));
  CHECK(fs::is_directory(dir / "sub"));
  fs::create_symlink("b", dir / "link");
  CHECK_FALSE(d::exchange_into(dir / "a", dir / "link"));
  CHECK(fs::is_symlink(dir / "link"));
  CHECK(slurp(dir / "a") == "old");
  CHECK(slurp(dir / "b") == "new");
}
