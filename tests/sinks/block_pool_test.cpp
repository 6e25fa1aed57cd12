// out_buffer's block mode (the Perfetto parts formatted on worker threads):
// bytes land in place across blocks, a record longer than a block gets a block
// of its own, and block_pool hands given-back blocks out again. Block sizes
// and contents are counted by hand below.
#include <cstring>
#include <string>
#include <utility>

#include <doctest/doctest.h>

#include <tpuprof/sinks/detail/block_pool.hpp>
#include <tpuprof/sinks/output.hpp>

TEST_CASE("out_buffer block mode: bytes in place, across blocks") {
  tpuprof::detail::block_pool pool(4);
  auto list = pool.list();
  tpuprof::detail::out_buffer o(list, 8);
  o.append("hello, ");                         // block 1: 7 of 8 bytes
  o.append("a record longer than one block");  // 30 bytes: block 2, 30 bytes long
  o.put('x');                                  // block 3
  char* p = o.reserve(3);
  std::memcpy(p, "123", 3);
  o.commit(p + 3);   // block 3: "x123"
  o.pass("passed");  // 6 bytes do not fit the 4 left: block 4
  CHECK(o.bytes_written() == 7 + 30 + 4 + 6);
  CHECK(list.full.size() == 3);  // block 4 is still being written
  o.flush();
  REQUIRE(list.full.size() == 4);
  CHECK(list.full[0].second == 7);
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

TEST_CASE("block_pool: given-back blocks are taken again, at most `keep` are kept") {
  tpuprof::detail::block_pool pool(1);
  auto a = pool.take(16), b = pool.take(16);
  CHECK(a.size() == 16);
  const char* pa = a.data();
  pool.give(std::move(a));
  pool.give(std::move(b));  // over `keep`: freed
  auto c = pool.take(8);    // the kept block (16 >= 8)
  CHECK(c.data() == pa);
  CHECK(c.size() == 16);
  auto d = pool.take(8);  // the pool is empty: a new block
  CHECK(d.size() == 8);
  pool.give(std::move(d));
  auto e = pool.take(32);  // the kept block is too small: a new one
  CHECK(e.size() == 32);
}
