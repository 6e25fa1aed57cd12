#include <string>

#include <doctest/doctest.h>

#include <tpuprof/chip_traits.hpp>

namespace {
struct chip_a {
  static constexpr std::string_view name = "CHIPA";
  static constexpr std::string_view cli_name = "a";
  static constexpr unsigned core_count = 1;
  static constexpr double tiu_freq_mhz = 1000;
  static constexpr double dma_freq_mhz = 1000;
  static constexpr bool has_engine(tpuprof::engine e) { return e == tpuprof::engine::tiu; }
};
struct chip_b : chip_a {
  static constexpr std::string_view name = "CHIPB";
  static constexpr std::string_view cli_name = "b";
  static constexpr unsigned core_count = 8;
};
struct half_chip {
  static constexpr std::string_view name = "X";
};
}  // namespace

static_assert(tpuprof::chip_traits<chip_a>);
static_assert(tpuprof::chip_traits<chip_b>);
static_assert(!tpuprof::chip_traits<half_chip>);
static_assert(!tpuprof::chip_traits<int>);

TEST_CASE("with_chip dispatches a runtime name to the traits type") {
  tpuprof::chip_list<chip_a, chip_b> chips;
  CHECK(tpuprof::with_chip(chips, "b", []<class C>() { return C::core_count; }) == 8);
  CHECK(tpuprof::with_chip(chips, "CHIPA", []<class C>() { return C::core_count; }) == 1);
  CHECK_THROWS_WITH_AS(tpuprof::with_chip(chips, "zz", []<class C>() { return 0; }),
                       "unknown chip 'zz'", std::invalid_argument);
  unsigned seen = 0;
  tpuprof::with_chip(chips, "B", [&]<class C>() { seen = C::core_count; });
  CHECK(seen == 8);
}
