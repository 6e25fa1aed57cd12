/// views::bandwidth (lazy: one sample per DMA event, GB/s). The eager series
/// (bytes per time window) is algo::bandwidth_series (algo/bandwidth_series.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <range/v3/functional/bind_back.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/view.hpp>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// Bandwidth of one DMA command. GB/s = bytes per ns (10^9 bytes/s).
struct dma_bandwidth {
  track_key track;
  double begin_ns = 0;
  double end_ns = 0;
  std::uint64_t bytes = 0;
  direction dir = direction::none;  ///< DDR/L2M, read/write where the decoder knows it
  std::uint32_t cmd_id = 0;
  double gbps = 0;  ///< bytes / duration; NaN for a zero-length command
};

/// True for DMA events whose byte count is known.
struct moves_known_bytes {
  constexpr bool operator()(const engine_event& e) const noexcept {
    return is_dma(e.engine) && e.has_bytes();
  }
};
struct to_dma_bandwidth {
  dma_bandwidth operator()(const engine_event& e) const noexcept {
    return {track_of(e), e.begin_ns, e.end_ns, e.bytes, e.dir(), e.cmd_id, e.bandwidth_gbps()};
  }
};

namespace views {
namespace detail {

struct bandwidth_base_fn {
  template <event_range R>
  auto operator()(R&& r) const {
    return ranges::views::transform(ranges::views::filter(std::forward<R>(r), moves_known_bytes{}),
                                    to_dma_bandwidth{});
  }
};

}  // namespace detail

/// `events | views::bandwidth`: lazily, one dma_bandwidth per DMA event with
/// known bytes (GDMA, SDMA, CDMA), in input order.
inline constexpr auto bandwidth = ranges::make_view_closure(detail::bandwidth_base_fn{});

}  // namespace views
}  // namespace tpuprof
