/// Dependency-driven schedules for the generators (`tpuprof synth --deps`): each engine runs
/// its commands in order, and a command starts at max(previous end on its engine + issue
/// latency, end of the command it waits for + sync latency). Durations can be scaled per engine
/// (`--scale gdma=0.5`), so that a dump generated with a faster engine and the same seed is the
/// ground truth for a what-if prediction: same commands, same dependencies, only durations scaled.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <tpuprof/engine.hpp>

namespace tpuprof::synth {

/// Whether and how a generator schedules its commands from the dependencies it writes.
struct dep_options {
  /// Off: the generators' historical schedules (dumps byte-identical to before).
  bool enabled = false;
  /// Duration multiplier per hardware engine (index: engine::tiu, gdma, sdma, cdma).
  std::array<double, 4> scale{1.0, 1.0, 1.0, 1.0};
  /// Cycles between the end of an awaited command and the start of the waiting one.
  std::int64_t sync_latency = 4;

  /// `dur` cycles of engine `e` scaled (rounded to nearest, at least 1 cycle).
  std::int64_t scaled(engine e, std::int64_t dur) const noexcept {
    const auto i = static_cast<std::size_t>(e);
    const double s = i < scale.size() ? scale[i] : 1.0;
    if (s == 1.0) return dur;
    return std::max<std::int64_t>(1, std::llround(static_cast<double>(dur) * s));
  }
  /// Applies one `ENGINE=FACTOR` term (engine tiu, gdma, sdma or cdma; factor > 0, finite);
  /// throws std::invalid_argument naming the term otherwise.
  void parse_scale(std::string_view term) {
    const auto eq = term.find('=');
    const auto e = parse_engine(term.substr(0, eq == std::string_view::npos ? 0 : eq));
    double f = 0;
    std::size_t used = 0;
    const std::string num(eq == std::string_view::npos ? std::string_view{} : term.substr(eq + 1));
    try {
      f = std::stod(num, &used);
    } catch (...) {
      used = 0;
    }
    if (!e || static_cast<std::size_t>(*e) >= scale.size() || num.empty() || used != num.size() ||
        !(f > 0) || !std::isfinite(f))
      throw std::invalid_argument("bad --scale '" + std::string(term) +
                                  "' (ENGINE=FACTOR, ENGINE tiu|gdma|sdma|cdma, FACTOR > 0)");
    scale[static_cast<std::size_t>(*e)] = f;
  }
};

/// One command of a program, in program (issue) order.
struct sched_cmd {
  engine eng = engine::tiu;
  std::uint8_t queue = 0;           ///< in-order queue (an engine of one core), < queue count
  std::int64_t dur = 0;             ///< unscaled duration, cycles
  std::int64_t issue = 1;           ///< cycles after the previous end on its queue
  std::int64_t dep = -1;            ///< index of the awaited command (earlier in the list); -1 none
  std::int64_t begin = 0, end = 0;  ///< set by schedule()
  /// Dispatch stall (`synth --inject dispatch`): issued only this many cycles after every
  /// earlier command of queues 0 and 1 (TIU, GDMA) has ended; 0 = none.
  std::int64_t stall = 0;
};

/// Schedules `cmds` (program order; every dependency points backwards). `queue_free[q]` is the
/// time the first command of queue q counts its issue latency from; it ends as the last end.
inline void schedule(std::span<sched_cmd> cmds, std::span<std::int64_t> queue_free,
                     const dep_options& o) {
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    auto& c = cmds[i];
    if (c.queue >= queue_free.size() || c.dep >= static_cast<std::int64_t>(i))
      throw std::logic_error("schedule: bad queue or forward dependency");
    if (c.stall > 0) {  // nothing pending, then a late issue: no queue starts before
      std::int64_t all = 0;
      for (std::size_t q = 0; q < queue_free.size() && q < 2; ++q)
        all = std::max(all, queue_free[q]);
      for (std::size_t q = 0; q < queue_free.size() && q < 2; ++q)
        queue_free[q] = std::max(queue_free[q], all + c.stall);
    }
    std::int64_t t = queue_free[c.queue] + c.issue;
    if (c.dep >= 0) t = std::max(t, cmds[static_cast<std::size_t>(c.dep)].end + o.sync_latency);
    c.begin = t;
    c.end = t + o.scaled(c.eng, c.dur);
    queue_free[c.queue] = c.end;
  }
}

}  // namespace tpuprof::synth
