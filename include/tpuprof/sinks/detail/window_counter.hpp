/// window_counter: streaming per-window utilization (% busy) and bandwidth
/// (GB/s) of one track, for the sinks' derived counter tracks.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tpuprof::detail {

/// Picks a "nice" window (1/2/5 x 10^k ns, >= 1 us) giving about 2000 windows
/// over [begin_ns, end_ns); 10 us when the span is unknown.
inline std::int64_t auto_window_ns(double begin_ns, double end_ns) noexcept {
  double span = end_ns - begin_ns;
  if (!(span > 0)) return 10'000;
  double want = std::max(1000.0, span / 2000.0);
  std::int64_t w = 1000;
  for (;;) {
    for (std::int64_t m : {1, 2, 5})
      if (static_cast<double>(w * m) >= want) return w * m;
    w *= 10;
    if (w > (std::int64_t{1} << 50)) return w;
  }
}

/// Feeds intervals of one track (in begin order) and calls
/// emit(ts_ns, util_percent, gbps) for each window whose values differ from
/// the previous sample (step counters hold their value until the next one).
class window_counter {
 public:
  void reset(std::int64_t origin_ns, std::int64_t window_ns) noexcept {
    *this = window_counter{};
    origin_ = origin_ns;
    w_ = std::max<std::int64_t>(1, window_ns);
  }

  /// Adds [b, e) moving `bytes` bytes (0 when none or unknown).
  template <class Emit>
  void add(std::int64_t b, std::int64_t e, double bytes, Emit&& emit) {
    if (e <= b) return;
    const double rate = bytes > 0 ? bytes / static_cast<double>(e - b) : 0.0;
    std::int64_t s = b;
    while (s < e) {
      // Before the open window's end (the common case, without a division) or an
      // overlap reaching back: book in the open window.
      std::int64_t w =
          cur_ != none && s - origin_ < (cur_ + 1) * w_ ? cur_ : floor_div(s - origin_, w_);
      if (cur_ != none && w < cur_) w = cur_;
      if (w != cur_) open(w, emit);
      const std::int64_t wb = origin_ + w * w_, we = wb + w_;
      // Whole windows covered by this interval: one sample, then skip ahead.
      if (s <= wb && e >= we + w_ && covered_ <= wb) {
        std::int64_t k = (e - wb) / w_;  // >= 2 full windows
        busy_ = static_cast<double>(w_);
        bytes_ = rate * static_cast<double>(w_);
        sample(wb, emit);
        cur_ = w + k - 1;
        covered_ = origin_ + (w + k) * w_;
        s = covered_;
        continue;
      }
      std::int64_t seg_e = std::min(e, we);
      std::int64_t from = std::max(s, covered_);
      if (seg_e > from) busy_ += static_cast<double>(seg_e - from);
      bytes_ += rate * static_cast<double>(seg_e - s);
      covered_ = std::max(covered_, seg_e);
      s = seg_e;
    }
  }

  /// Emits the last window and a closing zero.
  template <class Emit>
  void finish(Emit&& emit) {
    if (cur_ == none) return;
    sample(origin_ + cur_ * w_, emit);
    std::int64_t end = origin_ + (cur_ + 1) * w_;
    busy_ = bytes_ = 0;
    sample(end, emit);
    cur_ = none;
  }

 private:
  static constexpr std::int64_t none = std::numeric_limits<std::int64_t>::min();
  static std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept {
    std::int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
  }
  template <class Emit>
  void open(std::int64_t w, Emit& emit) {
    if (cur_ != none) {
      sample(origin_ + cur_ * w_, emit);
      if (w > cur_ + 1) {
        busy_ = bytes_ = 0;
        sample(origin_ + (cur_ + 1) * w_, emit);
      }
    }
    cur_ = w;
    busy_ = bytes_ = 0;
  }
  template <class Emit>
  void sample(std::int64_t ts, Emit& emit) {
    double util = std::min(100.0, 100.0 * busy_ / static_cast<double>(w_));
    double gbps = bytes_ / static_cast<double>(w_);
    if (util == last_util_ && gbps == last_gbps_) return;
    last_util_ = util;
    last_gbps_ = gbps;
    emit(ts, util, gbps);
  }

  std::int64_t origin_ = 0, w_ = 10'000, cur_ = none;
  std::int64_t covered_ = std::numeric_limits<std::int64_t>::min();
  double busy_ = 0, bytes_ = 0;
  double last_util_ = -1, last_gbps_ = -1;
};

}  // namespace tpuprof::detail
