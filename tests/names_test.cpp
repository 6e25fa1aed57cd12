#include <string>

#include <doctest/doctest.h>

#include <tpuprof/names.hpp>

TEST_CASE("name_table interns once and keeps views stable") {
  tpuprof::name_table t;
  CHECK(t[0] == "");
  auto a = t.intern("arith.cast");
  auto b = t.intern("dma.tensor");
  CHECK(a != b);
  CHECK(t.intern(std::string("arith.cast")) == a);
  std::string_view va = t[a];
  for (int i = 0; i < 1000; ++i) t.intern("n" + std::to_string(i));
  CHECK(va == "arith.cast");  // still valid after growth
  CHECK(t[b] == "dma.tensor");
  CHECK(t[60000] == "");
}

TEST_CASE("name_table counts names past the 16-bit id space") {
  tpuprof::name_table t;
  for (int i = 0; i < 65600; ++i) t.intern("x" + std::to_string(i));
  CHECK(t.size() == 65536);
  CHECK(t.overflowed() == 65600 - 65535);
  CHECK(t.intern("x1") != 0);
  CHECK(t.intern("brand-new") == 0);
}

TEST_CASE("name_table copies own their text; moves keep it") {
  auto make = [] {
    tpuprof::name_table t;
    t.intern("a.long.op.name.that.is.not.short.string.optimized");
    t.intern("mm");
    return t;
  };
  tpuprof::name_table copy;
  {
    tpuprof::name_table original = make();
    copy = original;
    tpuprof::name_table copy2(original);
    CHECK(copy2[2] == "mm");
  }  // original destroyed: the copy must not point into it
  CHECK(copy[1] == "a.long.op.name.that.is.not.short.string.optimized");
  CHECK(copy[2] == "mm");
  CHECK(copy.intern("mm") == 2);
  tpuprof::name_table moved(std::move(copy));
  CHECK(moved[2] == "mm");
  CHECK(moved.intern("new") == 3);
}
