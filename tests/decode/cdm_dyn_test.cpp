// The DYN_DATA walk on hand-made words: kernel-function / scope / batch tags
// (kept in a table, command::tag), DES references, several blocks, and the
// DYN_EXTRA items (mode 2) consumed in file order across blocks.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/decode/cdm/dyn.hpp>

namespace {

namespace cdm = tpuprof::cdm;
constexpr unsigned sdma_engine = tpuprof::chips::aks::dyn_engines.sdma;  // 3 on AKS (2 is HAU)

struct words {
  std::vector<std::byte> b;
  void put(std::uint32_t w) {
    for (int k = 0; k < 4; ++k) b.push_back(static_cast<std::byte>(w >> (8 * k)));
  }
  void node(unsigned eng, unsigned tsk = 3, unsigned eu = 0) {
    put(cdm::dyn_word::make(1, eng, tsk, eu, 0).raw);
  }
  void func(const std::string& name) {
    put(static_cast<std::uint32_t>(name.size()) << 7 | 0);  // FUNC, packed = length
    std::vector<std::byte> s(((name.size() + 3) / 4) * 4);
    std::memcpy(s.data(), name.data(), name.size());
    b.insert(b.end(), s.begin(), s.end());
  }
  void func_end() { put(15); }
  void batch(std::uint32_t v) { put(v << 7 | 14); }
  void des_tiu(std::uint32_t key, std::uint32_t n) {
    put(key << 7 | 8);
    put(n);
  }
};

struct walked {
  tpuprof::name_table names;
  std::vector<cdm::dyn_tag> tags = std::vector<cdm::dyn_tag>(1);
  cdm::dyn_lists lists;
  tpuprof::decode_diagnostics dg;
  cdm::dyn_extra_items extra;
  cdm::dyn_context ctx{&names, &tags, 0};
  void walk(const words& w, std::uint64_t base = 0) {
    cdm::walk_dyn_data<tpuprof::chips::aks>(tpuprof::io::byte_reader(w.b, "core.profile", base),
                                            ctx, extra, lists, dg);
  }
  const cdm::dyn_tag& tag(const cdm::command& c) const { return tags.at(c.tag); }
};

}  // namespace

TEST_CASE("walk_dyn_data: function, scope and batch tags per command, across blocks") {
  walked w;
  words a;
  a.node(0);           // tiu 0: no tag
  a.func("kernel_a");  // scope 0
  a.node(0);           // tiu 1
  a.node(1);           // gdma 0
  a.batch(3);
  a.node(0);  // tiu 2: kernel_a, scope 0, batch 3
  a.func_end();
  a.node(0);  // tiu 3: batch 3 only
  a.des_tiu(0x1234, 5);
  a.func("kernel_b");   // scope 1
  a.node(sdma_engine);  // sdma 0
  w.walk(a);
  words b;  // a second block starts untagged; scopes keep counting
  b.node(0);
  b.func("kernel_b");  // scope 2
  b.node(0);
  w.walk(b, 4096);

  const auto& T = w.lists.tiu;
  REQUIRE(T.size() == 7);  // 4 nodes, the DES reference, then 2 nodes of block b
  CHECK(T[0].tag == 0);
  CHECK(w.names[w.tag(T[1]).func] == "kernel_a");
  CHECK(w.tag(T[1]).scope == 0);
  CHECK(w.tag(T[1]).batch == -1);
  CHECK(T[1].tag == w.lists.gdma.at(0).tag);  // same tags: one table entry
  CHECK(w.names[w.tag(T[2]).func] == "kernel_a");
  CHECK(w.tag(T[2]).batch == 3);
  CHECK(w.tag(T[3]).func == 0);
  CHECK(w.tag(T[3]).scope == -1);
  CHECK(w.tag(T[3]).batch == 3);
  CHECK(T[3].tag != 0);
  CHECK(T[4].kind == cdm::command::des_ref);
  CHECK(T[4].offset == 0x1234);
  CHECK(T[4].cmd_num == 5);
  CHECK(w.tag(T[4]).batch == 3);
  REQUIRE(w.lists.sdma.size() == 1);
  CHECK(w.names[w.tag(w.lists.sdma[0]).func] == "kernel_b");
  CHECK(w.tag(w.lists.sdma[0]).scope == 1);
  CHECK(T[5].tag == 0);  // block b before its FUNC
  CHECK(w.names[w.tag(T[6]).func] == "kernel_b");
  CHECK(w.tag(T[6]).scope == 2);
  CHECK(w.tag(T[6]).batch == -1);
  CHECK(w.tags.size() == 6);  // none, a, a+3, 3, b, b (block b): one entry per change used
  CHECK(w.dg.notes().empty());
}

TEST_CASE(
    "dyn_extra_items: items in file order across blocks; cut items reported, leftovers counted") {
  auto item = [](std::vector<std::byte>& v, std::uint32_t id, std::vector<std::byte> body) {
    for (std::uint32_t x : {id, 0u, static_cast<std::uint32_t>(body.size())})
      for (int k = 0; k < 4; ++k) v.push_back(static_cast<std::byte>(x >> (8 * k)));
    v.insert(v.end(), body.begin(), body.end());
  };
  std::vector<std::byte> b1, b2;
  item(b1, 1, std::vector<std::byte>(16, std::byte{0x11}));
  item(b1, 2, std::vector<std::byte>(8, std::byte{0x22}));
  item(b2, 3, std::vector<std::byte>(4, std::byte{0x33}));
  item(b2, 4, std::vector<std::byte>(40, std::byte{0x44}));
  b2.resize(b2.size() - 10);  // item 4 runs past its block
  tpuprof::decode_diagnostics dg;
  cdm::dyn_extra_items x;
  x.add(tpuprof::io::byte_reader(b1, "f", 100), dg);
  x.add(tpuprof::io::byte_reader(b2, "f", 1000), dg);
  CHECK(x.size() == 3);
  REQUIRE(dg.notes().size() == 1);
  CHECK(dg.notes()[0].offset == 1000 + 16);  // item 4's header
  cdm::dyn_extra_item it;
  REQUIRE(x.next(it));
  CHECK(it.profile_id == 1);
  CHECK(it.content.size() == 16);
  CHECK(it.content.base() == 112);
  REQUIRE(x.next(it));
  CHECK(it.profile_id == 2);
  CHECK(it.content.base() == 100 + 28 + 12);
  CHECK(x.consumed() == 2);
  REQUIRE(x.next(it));
  CHECK(it.profile_id == 3);
  CHECK(it.content.base() == 1012);
  CHECK(std::to_integer<int>(it.content.bytes()[0]) == 0x33);
  CHECK(!x.next(it));
  CHECK(x.consumed() == 3);
}
