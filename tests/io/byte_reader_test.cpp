#include <array>

#include <doctest/doctest.h>

#include <tpuprof/io/byte_reader.hpp>

using tpuprof::decode_error;
using tpuprof::io::byte_reader;

TEST_CASE("byte_reader reads little-endian and names file and offset on overrun") {
  std::array<std::byte, 12> b{};
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::byte(i + 1);
  byte_reader r(b, "x.profile", 100);
  CHECK(r.u8(0) == 1);
  CHECK(r.u16(0) == 0x0201);
  CHECK(r.u32(4) == 0x08070605u);
  CHECK(r.u64(4) == 0x0C0B0A0908070605ull);
  CHECK_THROWS_WITH_AS(r.u64(8), "x.profile: at byte 108: truncated field: need 8 bytes, have 4",
                       decode_error);
  auto s = r.sub(4, 4);
  CHECK(s.base() == 104);
  CHECK(s.u32(0) == 0x08070605u);
  CHECK_THROWS_WITH_AS(r.sub(10, 4, "block"), doctest::Contains("at byte 110: truncated block"),
                       decode_error);
  CHECK_THROWS_AS(r.u32(~std::size_t{0} - 1), decode_error);
}

TEST_CASE("bits extracts LSB-first fields") {
  CHECK(tpuprof::io::bits(0x1000190000100000ull, 20, 20) == 1);
  CHECK(tpuprof::io::bits(0x1000190000100000ull, 60, 4) == 1);
  CHECK(tpuprof::io::bits(~0ull, 0, 64) == ~0ull);
}

TEST_CASE("decode_error without offset omits the byte position") {
  decode_error e("dir/global.profile", decode_error::no_offset, "missing file");
  CHECK(std::string(e.what()) == "dir/global.profile: missing file");
  CHECK(e.offset() == decode_error::no_offset);
}
