// The generated field-name indexes (tools/gen_regdefs.py): every table of every chip has one,
// and a lookup through it finds exactly what a scan of the fields finds.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/regs.hpp>
#include <tpuprof/chips/aksv/regs.hpp>
#include <tpuprof/chips/bm1684x/regs.hpp>
#include <tpuprof/chips/bm1688/regs.hpp>
#include <tpuprof/chips/cv184x/regs.hpp>

namespace {
using tpuprof::regs::reg_table;

/// find() without the index: the first field of that name.
std::optional<std::size_t> scan(const reg_table& t, std::string_view name) {
  for (std::size_t i = 0; i < t.fields.size(); ++i)
    if (t.fields[i].name == name) return i;
  return std::nullopt;
}

/// Per table: the index is there, a power of two with room (at least twice the fields), every
/// field's name finds the field a scan finds, names one character off and unknown names find
/// nothing (where a scan finds nothing either). Returns the number of lookups checked.
template <class Tables>
std::size_t check_index(const Tables& all) {
  std::size_t checked = 0;
  for (const reg_table* t : all) {
    CAPTURE(t->sheet);
    REQUIRE(t->index != nullptr);
    const std::size_t slots = t->index_mask + 1u;
    CHECK((slots & (slots - 1)) == 0);
    CHECK(slots >= 2 * t->fields.size());
    CHECK(std::string_view(t->index).size() == slots);  // no slot char is NUL
    for (const auto& f : t->fields) {
      CAPTURE(f.name);
      CHECK(t->find(f.name) == scan(*t, f.name));
      const std::string longer = std::string(f.name) + "x";
      const std::string shorter(f.name.substr(0, f.name.size() - 1));
      CHECK(t->find(longer) == scan(*t, longer));
      CHECK(t->find(shorter) == scan(*t, shorter));
      checked += 3;
    }
    CHECK(!t->find("no_such_field").has_value());
    CHECK(!t->find("").has_value());
  }
  return checked;
}
}  // namespace

TEST_CASE("generated register-name indexes find what a scan of the fields finds") {
  CHECK(check_index(tpuprof::regs::bm1684x::all_tables) > 1000);
  CHECK(check_index(tpuprof::regs::bm1688::all_tables) > 1000);
  CHECK(check_index(tpuprof::regs::cv184x::all_tables) > 1000);
  CHECK(check_index(tpuprof::regs::aks::all_tables) > 1000);
  CHECK(check_index(tpuprof::regs::aksv::all_tables) > 1000);
}

TEST_CASE("register-name index: hash and slots as tools/gen_regdefs.py writes them") {
  // FNV-1a test vectors (the generator's name_hash is the same function).
  CHECK(tpuprof::regs::name_hash("") == 2166136261u);
  CHECK(tpuprof::regs::name_hash("a") == 0xe40c292cu);
  CHECK(tpuprof::regs::name_hash("foobar") == 0xbf9cf968u);
  // BM1688 CONV: 87 fields in 256 slots; "cmd_short" is field 0, so its probe chain from
  // name_hash("cmd_short") mod 256 reaches a slot holding '#' + 1 before an empty one ('#').
  const reg_table& conv = tpuprof::regs::bm1688::conv;
  REQUIRE(conv.index_mask == 255u);
  std::size_t k = tpuprof::regs::name_hash("cmd_short") & 255u;
  while (conv.index[k] != '#' + 1) {
    REQUIRE(conv.index[k] != '#');
    k = (k + 1) & 255u;
  }
  CHECK(conv.find("cmd_short") == std::optional<std::size_t>(0));
  // Hand-built tables have no index: find() scans.
  static constexpr tpuprof::regs::reg_field f[] = {{"a", 0, 4}, {"b", 4, 4}, {"a", 8, 4}};
  constexpr reg_table hand{"hand", f, 12};
  static_assert(hand.index == nullptr);
  static_assert(*hand.find("a") == 0 && *hand.find("b") == 1 && !hand.find("c"));
  // Lookups by index at compile time too (regs::field<T, "name">).
  static_assert(*tpuprof::regs::bm1688::conv.find("cmd_short") == 0);
  static_assert(!tpuprof::regs::bm1688::conv.find("no_such_field"));
}
