/// algo::summary: per core, the numbers of bigTpuProfile's summary.txt
/// (engine working time and ratio, uArch rate, DDR/L2 bandwidth per DMA
/// engine, parallelism): the summary model. Its formatters (txt, CSV, JSON,
/// the HTML page's section) are in sinks/summary_format.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/functional/bind_back.hpp>
#include <range/v3/view/view.hpp>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/event_range.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof {

/// How the summary counts one event. The vendor's rules use command fields an
/// engine_event does not carry, so a classifier supplies them.
struct summary_class {
  bool sys = false;   ///< a sync command: TIU send/wait_msg, DMA sys_send/sys_wait, CDMA sys
  bool wait = false;  ///< a sync *wait* (SDMA excludes only these from working time)
  bool ddr = false;   ///< the transfer's direction involves DDR
  bool l2 = false;    ///< the transfer's direction involves L2 memory (L2M)
};

/// Anything callable as `summary_class(const engine_event&)`.
template <class C>
concept summary_classifier =
    std::invocable<const C&, const engine_event&> &&
    std::convertible_to<std::invoke_result_t<const C&, const engine_event&>, summary_class>;

/// The default classifier, bigTpuProfile's rules on engine_event fields: sync
/// commands by name (op names send_msg, wait_msg, sys_send, sys_wait,
/// sys_msg_tx_send, sys_msg_tx_wait, or op type "sys"); waits are the *_wait
/// names; DDR / L2 when the direction's long name ("DDR->L2M") contains "DDR" /
/// "L2", as the vendor tests its Direction text.
class name_classifier {
 public:
  name_classifier() = default;
  /// Flags are copied out of `names` here; the table need not outlive this.
  explicit name_classifier(const name_table& names) {
    flags_.assign(names.size(), 0);
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::string_view n = names[static_cast<name_id>(i)];
      if (n == "wait_msg" || n == "sys_wait" || n == "sys_msg_tx_wait")
        flags_[i] = k_sys | k_wait;
      else if (n == "send_msg" || n == "sys_send" || n == "sys_msg_tx_send")
        flags_[i] = k_sys;
      else if (n == "sys" || n == "SYS")
        flags_[i] = k_sys_type;
    }
  }
  summary_class operator()(const engine_event& e) const noexcept {
    summary_class c;
    const std::uint8_t fo = flag(e.op), ft = flag(e.op_type);
    c.sys = (fo & k_sys) || (ft & k_sys_type);
    c.wait = (fo & k_wait) != 0;
    const auto d = static_cast<std::size_t>(e.dir());
    if (d < direction_count) {
      c.ddr = mem_[d] & 1;
      c.l2 = mem_[d] & 2;
    }
    return c;
  }

 private:
  static constexpr std::uint8_t k_sys = 1, k_wait = 2, k_sys_type = 4;
  // Bit 0: long name contains "DDR"; bit 1: contains "L2".
  static constexpr auto mem_ = [] {
    std::array<std::uint8_t, direction_count> m{};
    for (std::size_t i = 0; i < direction_count; ++i) {
      const std::string_view n = direction_long_names[i];
      m[i] = static_cast<std::uint8_t>((n.find("DDR") != std::string_view::npos ? 1 : 0) |
                                       (n.find("L2") != std::string_view::npos ? 2 : 0));
    }
    return m;
  }();
  std::uint8_t flag(name_id id) const noexcept { return id < flags_.size() ? flags_[id] : 0; }
  std::vector<std::uint8_t> flags_;
};

/// One core's row. Cycle counts are the vendor's "Asic Cycle" sums, which
/// count both ends (end - begin + 1 per command).
struct core_summary {
  std::uint8_t device = 0;
  std::uint8_t core = 0;
  std::uint64_t tiu_events = 0, gdma_events = 0, sdma_events = 0;
  std::uint64_t tiu_cycles = 0;  ///< TIU commands except sync ones (totalTiuCycle)
  std::uint64_t tiu_sys_cycles = 0;
  std::uint64_t gdma_cycles = 0, gdma_sys_cycles = 0;  ///< all, and sync commands
  std::uint64_t gdma_ddr_bytes = 0, gdma_ddr_cycles = 0;
  std::uint64_t gdma_l2_bytes = 0, gdma_l2_cycles = 0;
  std::uint64_t sdma_cycles = 0, sdma_wait_cycles = 0;
  std::uint64_t sdma_ddr_bytes = 0, sdma_ddr_cycles = 0;
  /// Mean uArch rate of the non-sync TIU commands that know it, weighted by
  /// cycles; NaN when none does (never 0 or 100% for unknown).
  double uarch_rate = std::numeric_limits<double>::quiet_NaN();
  // Times in ns (cycles / MHz * 1000).
  double tiu_ns = 0, gdma_working_ns = 0, sdma_working_ns = 0;
  double gdma_ddr_ns = 0, gdma_l2_ns = 0, sdma_ddr_ns = 0;
  double total_ns = 0;  ///< the run's length (same for every core)

  std::uint64_t gdma_working_cycles() const noexcept { return gdma_cycles - gdma_sys_cycles; }
  std::uint64_t sdma_working_cycles() const noexcept { return sdma_cycles - sdma_wait_cycles; }
  /// (TIU + GDMA working + SDMA working) / total: sum of engine ratios, may pass 1.
  double parallelism() const noexcept { return ratio(tiu_ns + gdma_working_ns + sdma_working_ns); }
  double tiu_working_ratio() const noexcept { return ratio(tiu_ns); }
  /// GB/s over the DDR (L2) commands' own time; 0 when there are none.
  double gdma_ddr_gbps() const noexcept {
    return gdma_ddr_ns > 0 ? gdma_ddr_bytes / gdma_ddr_ns : 0;
  }
  double gdma_l2_gbps() const noexcept { return gdma_l2_ns > 0 ? gdma_l2_bytes / gdma_l2_ns : 0; }
  double sdma_ddr_gbps() const noexcept {
    return sdma_ddr_ns > 0 ? sdma_ddr_bytes / sdma_ddr_ns : 0;
  }

 private:
  double ratio(double x) const noexcept { return total_ns > 0 ? x / total_ns : 0; }
};

/// The "Overall" row: ratios over all cores' time, the busiest core's cycles,
/// bandwidth pooled over cores.
struct overall_summary {
  double parallelism = 0;
  double tiu_working_ratio = 0;
  double uarch_rate = std::numeric_limits<double>::quiet_NaN();
  std::uint64_t max_tiu_cycles = 0, max_gdma_working_cycles = 0, max_sdma_working_cycles = 0;
  double gdma_ddr_gbps = 0, gdma_l2_gbps = 0, sdma_ddr_gbps = 0;
};

/// CDMA, pooled over all ports (the vendor computes it but does not print it).
struct cdma_summary {
  std::uint64_t events = 0, cycles = 0, sys_cycles = 0;
  std::uint64_t ddr_bytes = 0, ddr_cycles = 0, l2_bytes = 0, l2_cycles = 0;
  double ddr_gbps = 0, l2_gbps = 0;
  std::uint64_t working_cycles() const noexcept { return cycles - sys_cycles; }
};

struct summary_report {
  double begin_ns = 0, end_ns = 0, total_ns = 0;
  double tiu_mhz = 1000, dma_mhz = 1000;
  std::vector<core_summary> cores;  ///< (device, core) order; cores without events included
  overall_summary overall;
  cdma_summary cdma;
};

struct summary_options {
  /// Names for the default classifier and default clocks/cores; may be null.
  const trace_info* info = nullptr;
  /// Cores per device; 0 = info->cores, else the highest core seen + 1.
  unsigned cores = 0;
  /// Clocks; 0 = the first TIU (DMA) track's freq_mhz in info, else 1000.
  double tiu_mhz = 0;
  double dma_mhz = 0;
};

namespace algo {
namespace detail {

struct core_acc {
  core_summary s;
  double uarch_w = 0, uarch_sum = 0;
};

}  // namespace detail

/// The one-pass reduction behind algo::summary, fed event by event (for
/// streams: cdm::stream, tpuprof::stream_trace); `report()` once at the end.
template <summary_classifier C>
class summary_accumulator {
 public:
  summary_accumulator(summary_options opt, C classify) : classify_(std::move(classify)) {
    rep.tiu_mhz = engine_clock_mhz(opt.info, true, opt.tiu_mhz);
    rep.dma_mhz = engine_clock_mhz(opt.info, false, opt.dma_mhz);
    fixed_cores = opt.cores ? opt.cores : (opt.info ? opt.info->cores : 0);
  }
  void add(const engine_event& e) {
    const C& classify = classify_;
    if (!is_hardware(e.engine)) return;
    const std::uint64_t asic = e.cycles() + 1;  // the vendor's inclusive Asic Cycle
    if (e.engine == engine::cdma) {
      const summary_class c = classify(e);
      auto& d = rep.cdma;
      ++d.events;
      d.cycles += asic;
      if (c.sys) {
        d.sys_cycles += asic;
      } else {
        if (c.ddr) d.ddr_bytes += e.bytes, d.ddr_cycles += asic;
        if (c.l2) d.l2_bytes += e.bytes, d.l2_cycles += asic;
      }
      lo = std::min(lo, e.begin_ns);
      hi = std::max(hi, e.end_ns);
      return;
    }
    if (fixed_cores && e.unit >= fixed_cores) return;
    const std::size_t i = static_cast<std::size_t>(e.device) * 256 + e.unit;
    if (i >= acc.size()) acc.resize(i + 1);
    max_core = std::max<unsigned>(max_core, e.unit);
    max_device = std::max<unsigned>(max_device, e.device);
    detail::core_acc& a = acc[i];
    core_summary& s = a.s;
    const summary_class c = classify(e);
    switch (e.engine) {
      case engine::tiu:
        ++s.tiu_events;
        if (c.sys) {
          s.tiu_sys_cycles += asic;
        } else {
          s.tiu_cycles += asic;
          if (!std::isnan(e.uarch_rate)) {
            a.uarch_w += static_cast<double>(asic);
            a.uarch_sum += static_cast<double>(asic) * e.uarch_rate;
          }
        }
        break;
      case engine::gdma:
        ++s.gdma_events;
        s.gdma_cycles += asic;
        if (c.sys) {
          s.gdma_sys_cycles += asic;
        } else if (c.ddr && e.bytes) {
          s.gdma_ddr_bytes += e.bytes, s.gdma_ddr_cycles += asic;
        } else if (c.l2 && e.bytes) {
          s.gdma_l2_bytes += e.bytes, s.gdma_l2_cycles += asic;
        }
        break;
      case engine::sdma:
        ++s.sdma_events;
        s.sdma_cycles += asic;
        if (c.sys && c.wait) {
          s.sdma_wait_cycles += asic;
        } else if (c.ddr) {
          s.sdma_ddr_bytes += e.bytes, s.sdma_ddr_cycles += asic;
        }
        break;
      default:
        break;
    }
    lo = std::min(lo, e.begin_ns);
    hi = std::max(hi, e.end_ns);
  }
  /// An empty accumulator with these clocks and cores for a share of the
  /// events (a core formatted on a worker thread); merge() adds it back.
  summary_accumulator share(C classify) const {
    summary_accumulator a(summary_options{}, std::move(classify));
    a.rep.tiu_mhz = rep.tiu_mhz;
    a.rep.dma_mhz = rep.dma_mhz;
    a.fixed_cores = fixed_cores;
    return a;
  }
  /// Adds the events `o` took; the same report as adding them here when they
  /// are of cores (and CDMA) this one has none of, as a stream's shares are
  /// (otherwise floating-point sums may differ in the last bits).
  void merge(const summary_accumulator& o) {
    if (acc.size() < o.acc.size()) acc.resize(o.acc.size());
    for (std::size_t i = 0; i < o.acc.size(); ++i) {
      core_summary& s = acc[i].s;
      const core_summary& t = o.acc[i].s;
      for (auto f :
           {&core_summary::tiu_events, &core_summary::gdma_events, &core_summary::sdma_events,
            &core_summary::tiu_cycles, &core_summary::tiu_sys_cycles, &core_summary::gdma_cycles,
            &core_summary::gdma_sys_cycles, &core_summary::gdma_ddr_bytes,
            &core_summary::gdma_ddr_cycles, &core_summary::gdma_l2_bytes,
            &core_summary::gdma_l2_cycles, &core_summary::sdma_cycles,
            &core_summary::sdma_wait_cycles, &core_summary::sdma_ddr_bytes,
            &core_summary::sdma_ddr_cycles})
        s.*f += t.*f;
      acc[i].uarch_w += o.acc[i].uarch_w;
      acc[i].uarch_sum += o.acc[i].uarch_sum;
    }
    auto& d = rep.cdma;
    for (auto f : {&cdma_summary::events, &cdma_summary::cycles, &cdma_summary::sys_cycles,
                   &cdma_summary::ddr_bytes, &cdma_summary::ddr_cycles, &cdma_summary::l2_bytes,
                   &cdma_summary::l2_cycles})
      d.*f += o.rep.cdma.*f;
    max_core = std::max(max_core, o.max_core);
    max_device = std::max(max_device, o.max_device);
    lo = std::min(lo, o.lo);
    hi = std::max(hi, o.hi);
  }
  summary_report report() {
    if (hi < lo) return rep;  // no hardware events
    rep.begin_ns = lo;
    rep.end_ns = hi;
    rep.total_ns = hi - lo;
    const unsigned ncores = fixed_cores ? fixed_cores : max_core + 1;
    const double tns = 1000.0 / rep.tiu_mhz, dns = 1000.0 / rep.dma_mhz;
    auto ns = [](std::uint64_t cyc, double per) { return static_cast<double>(cyc) * per; };
    overall_summary& o = rep.overall;
    double sum_time = 0, sum_tiu = 0, uw = 0, us = 0;
    std::uint64_t gdb = 0, gdc = 0, glb = 0, glc = 0, sdb = 0, sdc = 0;
    for (unsigned d = 0; d <= max_device; ++d) {
      for (unsigned k = 0; k < ncores; ++k) {
        const std::size_t i = static_cast<std::size_t>(d) * 256 + k;
        detail::core_acc a = i < acc.size() ? acc[i] : detail::core_acc{};
        core_summary& s = a.s;
        s.device = static_cast<std::uint8_t>(d);
        s.core = static_cast<std::uint8_t>(k);
        s.total_ns = rep.total_ns;
        s.tiu_ns = ns(s.tiu_cycles, tns);
        s.gdma_working_ns = ns(s.gdma_working_cycles(), dns);
        s.sdma_working_ns = ns(s.sdma_working_cycles(), dns);
        s.gdma_ddr_ns = ns(s.gdma_ddr_cycles, dns);
        s.gdma_l2_ns = ns(s.gdma_l2_cycles, dns);
        s.sdma_ddr_ns = ns(s.sdma_ddr_cycles, dns);
        if (a.uarch_w > 0) s.uarch_rate = a.uarch_sum / a.uarch_w;
        uw += a.uarch_w;
        us += a.uarch_sum;
        sum_time += s.tiu_ns + s.gdma_working_ns + s.sdma_working_ns;
        sum_tiu += s.tiu_ns;
        o.max_tiu_cycles = std::max(o.max_tiu_cycles, s.tiu_cycles);
        o.max_gdma_working_cycles = std::max(o.max_gdma_working_cycles, s.gdma_working_cycles());
        o.max_sdma_working_cycles = std::max(o.max_sdma_working_cycles, s.sdma_working_cycles());
        gdb += s.gdma_ddr_bytes, gdc += s.gdma_ddr_cycles;
        glb += s.gdma_l2_bytes, glc += s.gdma_l2_cycles;
        sdb += s.sdma_ddr_bytes, sdc += s.sdma_ddr_cycles;
        rep.cores.push_back(s);
      }
    }
    const double avail = rep.total_ns * static_cast<double>(rep.cores.size());
    o.parallelism = avail > 0 ? sum_time / avail : 0;
    o.tiu_working_ratio = avail > 0 ? sum_tiu / avail : 0;
    if (uw > 0) o.uarch_rate = us / uw;
    auto bw = [&](std::uint64_t bytes, std::uint64_t cyc) {
      const double t = ns(cyc, dns);
      return t > 0 ? static_cast<double>(bytes) / t : 0.0;
    };
    o.gdma_ddr_gbps = bw(gdb, gdc);
    o.gdma_l2_gbps = bw(glb, glc);
    o.sdma_ddr_gbps = bw(sdb, sdc);
    rep.cdma.ddr_gbps = bw(rep.cdma.ddr_bytes, rep.cdma.ddr_cycles);
    rep.cdma.l2_gbps = bw(rep.cdma.l2_bytes, rep.cdma.l2_cycles);
    return rep;
  }

 private:
  C classify_;
  summary_report rep;
  unsigned fixed_cores = 0;
  std::vector<detail::core_acc> acc;  // index: device * 256 + core, grown on demand
  unsigned max_core = 0, max_device = 0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
};

namespace detail {

struct summary_base_fn {
  template <event_range R, summary_classifier C>
  summary_report operator()(R&& events, summary_options opt, const C& classify) const {
    summary_accumulator<C> a(opt, classify);
    for (const engine_event& e : events) a.add(e);
    return a.report();
  }
  template <event_range R>
  summary_report operator()(R&& events, summary_options opt = {}) const {
    const name_classifier c = opt.info ? name_classifier(opt.info->names) : name_classifier();
    return (*this)(std::forward<R>(events), opt, c);
  }
};

struct summary_fn : summary_base_fn {
  using summary_base_fn::operator();
  auto operator()(summary_options opt = {}) const {
    return ranges::make_view_closure(ranges::bind_back(summary_base_fn{}, opt));
  }
  template <summary_classifier C>
  auto operator()(summary_options opt, C classify) const {
    return ranges::make_view_closure(
        ranges::bind_back(summary_base_fn{}, opt, std::move(classify)));
  }
};

}  // namespace detail

/// `events | algo::summary({&info})` or `algo::summary(events, opt, classifier)`:
/// eager, one pass, any input order; returns a summary_report. Reproduces
/// bigTpuProfile's summary.txt formulas except for the fixes listed in
/// docs/views.md (uArch rate unknown instead of 100%, exact ns instead of
/// truncated integers, SDMA counted in single-core parallelism).
inline constexpr detail::summary_fn summary{};

}  // namespace algo

}  // namespace tpuprof
