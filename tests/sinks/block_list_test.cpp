// out_buffer's block mode (the Perfetto parts formatted on worker threads):
// bytes land in place across blocks, a record longer than a block gets a block
// of its own, and a flush leaves no empty block. Block sizes and contents are
// counted by hand below.
#include <cstring>
#include <memory>
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

TEST_CASE("block_list: blocks written out are taken again by the next part, as they are") {
  auto pool = std::make_shared<tpuprof::detail::block_pool>();
  tpuprof::detail::block_list first;
  first.pool = pool;
  {
    tpuprof::detail::out_buffer o(first.hooks(), 8);
    o.append("abcdefgh");  // one full block
    o.append("ij");        // a second block
    o.flush();
  }
  REQUIRE(first.full.size() == 2);
  const char* b0 = first.full[0].first.data();
  const char* b1 = first.full[1].first.data();
  first.give_back();  // after join wrote them out
  CHECK(first.full.empty());
  REQUIRE(pool->spare.size() == 2);

  tpuprof::detail::block_list second;
  second.pool = pool;
  tpuprof::detail::out_buffer o(second.hooks(), 8);
  o.append("k");  // takes the last block given back, its old bytes not cleared
  o.flush();
  REQUIRE(second.full.size() == 1);
  CHECK(second.full[0].first.data() == b1);
  CHECK(second.full[0].second == 1);
  CHECK(std::string(second.full[0].first.data(), 2) == "kj");
  o.append("a record of 12");  // longer than the spare 8-byte block: a fresh one
  o.flush();
  REQUIRE(second.full.size() == 2);
  CHECK(second.full[1].first.data() != b0);
  CHECK(second.full[1].first.size() == 14);
  CHECK(pool->spare.size() == 1);

  for (std::size_t k = 0; k < tpuprof::detail::block_pool::max_blocks + 5; ++k)
    pool->give(std::vector<char>(8));
  CHECK(pool->spare.size() == tpuprof::detail::block_pool::max_blocks);  // bounded
}
