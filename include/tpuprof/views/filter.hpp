/// views::only, views::on_core, views::on_device, views::op_is,
/// views::op_type_is, views::function_is, views::only_dma: lazy filters over any event range,
/// composable with `|`.
#pragma once

#include <cstdint>
#include <utility>

#include <range/v3/functional/bind_back.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/view.hpp>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// Predicates behind the filter adaptors (usable with any algorithm).
struct engine_is {
  engine eng;
  constexpr bool operator()(const engine_event& e) const noexcept { return e.engine == eng; }
};
/// True for events of per-core queues on `core`; CDMA (per port) never matches.
struct core_is {
  std::uint8_t core;
  constexpr bool operator()(const engine_event& e) const noexcept {
    return e.unit == core && e.engine != engine::cdma;
  }
};
struct device_is {
  std::uint8_t device;
  constexpr bool operator()(const engine_event& e) const noexcept { return e.device == device; }
};
struct op_id_is {
  name_id op;
  constexpr bool operator()(const engine_event& e) const noexcept { return e.op == op; }
};
struct op_type_id_is {
  name_id op_type;
  constexpr bool operator()(const engine_event& e) const noexcept { return e.op_type == op_type; }
};
struct function_id_is {
  name_id function;
  constexpr bool operator()(const engine_event& e) const noexcept { return e.function == function; }
};
/// True for GDMA, SDMA and CDMA events.
struct is_dma_event {
  constexpr bool operator()(const engine_event& e) const noexcept { return is_dma(e.engine); }
};

namespace views {
namespace detail {

/// range-v3's two-struct adaptor pattern for a filter on predicate `P` built
/// from one argument `A`.
template <class P, class A>
struct filter_base_fn {
  template <event_range R>
  auto operator()(R&& r, A a) const {
    return ranges::views::filter(std::forward<R>(r), P{a});
  }
};
template <class P, class A>
struct filter_fn : filter_base_fn<P, A> {
  using filter_base_fn<P, A>::operator();
  constexpr auto operator()(A a) const {
    return ranges::make_view_closure(ranges::bind_back(filter_base_fn<P, A>{}, a));
  }
};

struct only_dma_base_fn {
  template <event_range R>
  auto operator()(R&& r) const {
    return ranges::views::filter(std::forward<R>(r), is_dma_event{});
  }
};

}  // namespace detail

/// `events | views::only(engine::tiu)`: events of one engine kind.
inline constexpr detail::filter_fn<engine_is, engine> only{};
/// `events | views::on_core(3)`: events of per-core queues (TIU, GDMA, SDMA, and
/// derived rows) on core 3 of any device; CDMA events (per port) are dropped.
inline constexpr detail::filter_fn<core_is, std::uint8_t> on_core{};
/// `events | views::on_device(1)`.
inline constexpr detail::filter_fn<device_is, std::uint8_t> on_device{};
/// `events | views::op_is(id)`: events whose op name id is `id` (look the id up
/// with trace_info::names; 0 = unknown op).
inline constexpr detail::filter_fn<op_id_is, name_id> op_is{};
/// `events | views::op_type_is(id)`: events whose op type (function class, e.g.
/// "sys", "mm/mm2") has name id `id`.
inline constexpr detail::filter_fn<op_type_id_is, name_id> op_type_is{};
/// `events | views::function_is(id)`: events run inside the kernel function
/// whose name id is `id`.
inline constexpr detail::filter_fn<function_id_is, name_id> function_is{};
/// `events | views::only_dma`: GDMA, SDMA and CDMA events.
inline constexpr auto only_dma = ranges::make_view_closure(detail::only_dma_base_fn{});

}  // namespace views
}  // namespace tpuprof
