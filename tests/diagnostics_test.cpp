#include <doctest/doctest.h>

#include <tpuprof/diagnostics.hpp>

using tpuprof::diag;

TEST_CASE("diagnostics count per kind and flag data loss") {
  tpuprof::decode_diagnostics d;
  d.add(diag::id_wrap, "f", 8, "wrap");
  d.count(diag::id_wrap, 2);
  CHECK(d[diag::id_wrap] == 3);
  CHECK_FALSE(d.data_loss());
  CHECK(d.notes().size() == 1);
  CHECK(d.notes()[0].offset == 8);
  d.add(diag::unmatched_record, "g", 16, "no command");
  CHECK(d.data_loss());
  CHECK(d.total() == 4);
  tpuprof::decode_diagnostics e;
  e.merge(d);
  e.merge(d);
  CHECK(e[diag::id_wrap] == 6);
  CHECK(e.notes().size() == 4);
}

TEST_CASE("diagnostics keep at most max_notes notes but count everything") {
  tpuprof::decode_diagnostics d;
  for (int i = 0; i < 1000; ++i) d.add(diag::cycle_wrap, "f", static_cast<std::uint64_t>(i), "w");
  CHECK(d[diag::cycle_wrap] == 1000);
  CHECK(d.notes().size() == tpuprof::decode_diagnostics::max_notes);
}
