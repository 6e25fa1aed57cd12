// frame_command_list takes its start offset from the dump (iter*.profile's command info): an
// offset near 2^64 once wrapped `off + 8` and read before the buffer (fuzz_bmprofile, session 9).
// Every offset at or past the end, or with fewer than 8 bytes left, frames nothing.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/decode/bmprofile/indexed.hpp>

namespace {

template <class Chip>
std::size_t framed(const std::vector<std::byte>& buf, std::uint64_t offset, tpuprof::engine eng) {
  const tpuprof::io::byte_reader r({buf.data(), buf.size()}, "cmd_0_0_0.dat");
  tpuprof::decode_diagnostics diag;
  return tpuprof::bmprofile::frame_command_list<Chip>(r, offset, eng, diag).size();
}

template <class Chip>
void check_offsets() {
  // 64 bytes of 0xff preceded by 16 bytes of zeros: whatever the chip frames from any of them,
  // the offsets below must not read any of them.
  std::vector<std::byte> buf(80, std::byte{0xff});
  for (std::size_t i = 0; i < 16; ++i) buf[i] = std::byte{0};
  constexpr auto max = std::numeric_limits<std::uint64_t>::max();
  for (auto eng : {tpuprof::engine::tiu, tpuprof::engine::gdma}) {
    for (std::uint64_t off : {max, max - 2, max - 7, max - 15, std::uint64_t{80}, std::uint64_t{81},
                              std::uint64_t{73}, std::uint64_t{79}}) {
      CAPTURE(off);
      CHECK(framed<Chip>(buf, off, eng) == 0);
    }
  }
}

}  // namespace

TEST_CASE("indexed command lists: an offset at or past the end frames nothing") {
  check_offsets<tpuprof::chips::bm1688>();
  check_offsets<tpuprof::chips::cv184x>();
}
