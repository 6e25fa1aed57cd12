// out_buffer's block mode (the Perfetto parts formatted on worker threads):
// bytes land in place across blocks, a record longer than a block gets a block
// of its own, and a flush leaves no empty block. Block sizes and contents are
// counted by hand below.
#include <cstring>
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/sinks/detail/block_list.hpp>
#include <tpuprof/sinks/output.hpp>

TEST_CASE("out_buffer block mode: bytes in place, across blocks") {
  tpuprof::detail::block_list list;
  tpuprof::detail::out_buffer o(list.hooks(), 8);
  CHECK(o.bytes_written() == 0);
  o.flush();  // nothing written: no block
  CHECK(list.full.empty());
  o.append("hello, ");                         // block 1: 7 of 8 bytes
  o.append("a record longer than one block");  // 30 bytes: block 2, 30 bytes long
  o.put('x');                                  // block 3
  char* p = o.reserve(3);
  std::memcpy(p, "123", 3);
  o.commit(p + 3);   // block 3: "x123"
  o.pass("passed");  // 6 bytes do not fit the 4 left: block 4
  o.pass("");
  CHECK(o.bytes_written() == 7 + 30 + 4 + 6);
  CHECK(list.full.size() == 3);  // block 4 is still being written
  o.flush();
  REQUIRE(list.full.size() == 4);
  CHECK(list.full[0].second == 7);
  CHECK(list.full[0].first.size() == 8);
  CHECK(list.full[1].second == 30);
  CHECK(list.full[1].first.size() == 30);
  CHECK(list.full[2].second == 4);
  CHECK(list.full[3].second == 6);
  std::string got;
  for (const auto& [b, n] : list.full) got.append(b.data(), n);
  CHECK(got == "hello, a record longer than one blockx123passed");
  o.flush();  // nothing new: no empty block
  CHECK(list.full.size() == 4);
}
