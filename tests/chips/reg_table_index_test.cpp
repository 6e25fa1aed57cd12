// reg_table's name-hash index (issue #17) must find exactly what a scan of the fields finds:
// every field of every table of every chip, the first of duplicate names, nothing for names a
// table does not have.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/regs.hpp>
#include <tpuprof/chips/aksv/regs.hpp>
#include <tpuprof/chips/bm1684x/regs.hpp>
#include <tpuprof/chips/bm1688/regs.hpp>
#include <tpuprof/chips/cv184x/regs.hpp>

namespace {
using tpuprof::regs::reg_field;
using tpuprof::regs::reg_table;

std::optional<std::size_t> scan(const reg_table& t, std::string_view name) {
  for (std::size_t i = 0; i < t.fields.size(); ++i)
    if (t.fields[i].name == name) return i;
  return std::nullopt;
}

/// Checks every field and some absent names; returns the number of fields checked.
template <class Tables>
std::size_t check_index(const Tables& all) {
  std::size_t n = 0;
  for (const auto* t : all) {
    CAPTURE(t->sheet);
    for (const auto& f : t->fields) {
      CAPTURE(f.name);
      REQUIRE(t->find(f.name) == scan(*t, f.name));
      CHECK(f.hash == tpuprof::regs::name_hash(f.name));
      ++n;
    }
    for (std::string_view absent : {"", "no_such_field", "res0_", "opd0_addrx", "cmd_id_dep_"})
      if (!scan(*t, absent)) CHECK_FALSE(t->find(absent).has_value());
  }
  return n;
}
}  // namespace

TEST_CASE("reg_table finds every field by its name hash as a scan of the fields does") {
  CHECK(check_index(tpuprof::regs::aks::all_tables) > 1000);
  CHECK(check_index(tpuprof::regs::aksv::all_tables) > 500);
  CHECK(check_index(tpuprof::regs::bm1684x::all_tables) > 1000);
  CHECK(check_index(tpuprof::regs::bm1688::all_tables) > 1000);
  CHECK(check_index(tpuprof::regs::cv184x::all_tables) > 1000);
}

TEST_CASE("reg_table: literal and run-time names, duplicates, colliding slots") {
  // Compile-time lookups (the converters' r("...")) agree with run-time names.
  constexpr auto& conv = tpuprof::regs::bm1688::conv;
  static_assert(conv.find("cmd_short") == std::optional<std::size_t>{0});
  static_assert(conv.find("tsk_typ").has_value());
  static_assert(!conv.find("no_such_field").has_value());
  const std::string built = std::string("tsk_") + "typ";
  CHECK(conv.find(std::string_view(built)) == conv.find("tsk_typ"));

  // Duplicate names: the first wins, as with a scan. 300 fields: not indexed, scanned.
  static constexpr reg_field dup[] = {{"a", 0, 1}, {"b", 1, 1}, {"a", 2, 1}};
  constexpr reg_table d{"dup", dup, 3};
  static_assert(d.find("a") == std::optional<std::size_t>{0});
  static_assert(d.find("b") == std::optional<std::size_t>{1});
  static_assert(!d.find("c").has_value());
  static std::array<reg_field, 300> many{};
  static std::array<std::string, 300> names;
  for (std::size_t i = 0; i < many.size(); ++i) {
    names[i] = "f" + std::to_string(i);
    many[i] = reg_field(names[i], static_cast<std::uint16_t>(i), 1);
  }
  const reg_table big{"big", many, 300};
  CHECK(big.find("f0") == std::optional<std::size_t>{0});
  CHECK(big.find("f299") == std::optional<std::size_t>{299});
  CHECK_FALSE(big.find("f300").has_value());
  // 255 fields: the index is full up to its limit and still finds them all.
  const reg_table full{"full", std::span<const reg_field>(many).first(255), 255};
  for (std::size_t i = 0; i < 255; ++i) CHECK(full.find(names[i]) == std::optional<std::size_t>{i});
  CHECK_FALSE(full.find("f255").has_value());
  tpuprof::regs::reg_view v(&conv, {});
  CHECK(v.has("tsk_typ"));
  CHECK_FALSE(v.has("no_such_field"));
}
