#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/io/dump_files.hpp>

using tpuprof::io::dump_files;

TEST_CASE("dump_files serves caller-owned buffers without the file system") {
  std::vector<std::byte> a(16, std::byte{7});
  auto d = dump_files::from_memory({{"b.profile", {}}, {"a.profile", a}}, "mem");
  auto names = d.names();
  REQUIRE(names.size() == 2);
  CHECK(names[0] == "a.profile");
  auto r = d.find("a.profile");
  REQUIRE(r);
  CHECK(r->size() == 16);
  CHECK(r->file() == "mem/a.profile");
  CHECK_FALSE(d.find("c.profile"));
  CHECK_THROWS_WITH_AS(d.get("c.profile"), "mem/c.profile: missing file", tpuprof::decode_error);
}

TEST_CASE("dump_files maps directory files lazily and rejects missing directories") {
  auto dir = std::filesystem::path(TPUPROF_TEST_TMP) / "dump_files_dir";
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "x.bin", std::ios::binary) << "hello"; }
  { std::ofstream(dir / "empty.bin", std::ios::binary); }
  auto d = dump_files::open_directory(dir);
  auto r = d.get("x.bin");
  CHECK(r.size() == 5);
  CHECK(r.u8(0) == 'h');
  CHECK(d.get("empty.bin").size() == 0);
  CHECK_THROWS_WITH_AS(dump_files::open_directory(dir / "nope"),
                       doctest::Contains("no such directory"), tpuprof::decode_error);
  CHECK_THROWS_WITH_AS(dump_files::open_directory(dir / "x.bin"),
                       doctest::Contains("not a directory"), tpuprof::decode_error);
}
