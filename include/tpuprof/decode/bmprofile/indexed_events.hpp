/// Events of position-paired bmprofile dumps (indexed.hpp): the vendor's ns arithmetic on the
/// 32-bit counters widened across wraps, the leading send_msg drop, core alignment on the first
/// wait_msg and one common origin.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/indexed.hpp>
#include <tpuprof/decode/bmprofile/records.hpp>
#include <tpuprof/decode/bmprofile/time.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::bmprofile {

/// One record's times in ns, as the vendor computes them: int(raw / MHz * 1000).
struct ns_span {
  std::int64_t s = 0, e = 0;
};

inline std::int64_t vendor_ns(std::uint64_t raw, double mhz) noexcept {
  return to_i64(static_cast<double>(raw) / mhz * 1000.0);
}

/// A list's 32-bit counter values widened to 64 bits: +2^32 from a start that falls more than
/// 2^31 below the previous start on, and for an end below its start (the vendor does not
/// unwrap: docs/chips/bm1688.md). Returns how many wraps it undid.
inline std::uint64_t unwrap_counters(const std::vector<pmu_record>& v,
                                     std::vector<std::uint64_t>& out) {
  constexpr std::uint64_t wrap = std::uint64_t{1} << 32;
  std::uint64_t base = 0, wraps = 0;
  std::uint32_t last = 0;
  out.clear();
  for (std::size_t k = 0; k < v.size(); ++k) {
    const auto& r = v[k];
    if (k > 0 && r.start < last && last - r.start > (wrap >> 1)) {
      base += wrap;
      ++wraps;
    }
    last = r.start;
    out.push_back(base + r.start);
    out.push_back(base + r.end + (r.end < r.start ? wrap : 0));
    if (r.end < r.start) ++wraps;
  }
  return wraps;
}

/// Lists of an iteration whose first record lies more than half a counter period before the
/// latest first record of that iteration's lists wrapped before it: +2^32 (the engines and
/// cores count one time base). `raw[e][i]` are list i's widened values. Returns the wraps undone.
template <class Core>
std::uint64_t align_list_wraps(const std::vector<Core>& cores,
                               std::vector<std::vector<std::uint64_t>> (&raw)[2],
                               const double (&mhz)[2]) {
  constexpr std::uint64_t wrap = std::uint64_t{1} << 32;
  std::uint64_t n = 0;
  for (std::size_t b = 0; b < cores.size();) {
    std::size_t end = b;
    while (end < cores.size() && cores[end].iteration == cores[b].iteration) ++end;
    std::int64_t latest = std::numeric_limits<std::int64_t>::min();
    for (int e = 0; e < 2; ++e)
      for (std::size_t i = b; i < end; ++i)
        if (!raw[e][i].empty()) latest = std::max(latest, vendor_ns(raw[e][i][0], mhz[e]));
    for (int e = 0; e < 2; ++e) {
      const std::int64_t half = vendor_ns(wrap / 2, mhz[e]);
      for (std::size_t i = b; i < end; ++i)
        while (!raw[e][i].empty() && vendor_ns(raw[e][i][0], mhz[e]) < latest - half) {
          for (auto& x : raw[e][i]) x += wrap;
          ++n;
        }
    }
    b = end;
  }
  return n;
}

/// The start (ns) of the record of the core's first wait command, if it has one.
template <indexed_chip Chip>
std::optional<std::int64_t> first_wait_ns(const indexed_core& c, const std::vector<ns_span>& tiu) {
  const auto& cmds = c.cmds[0];
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    if (cmds[i].frame.op != Chip::wait_msg_op) continue;
    for (std::size_t k = 0; k < c.recs[0].size(); ++k)
      if (c.recs[0][k].id == i) return tiu[k].s;
    return std::nullopt;
  }
  return std::nullopt;
}

/// The event of record k of engine `e` of core `c`, its times relative to `origin`.
template <indexed_chip Chip>
engine_event indexed_event(const indexed_core& c, int e, std::size_t k, ns_span t,
                           std::int64_t origin, double mhz, name_table& names) {
  const auto& r = c.recs[e][k];
  engine_event ev;
  ev.engine = e == 0 ? engine::tiu : engine::gdma;
  ev.unit = c.core;
  ev.group = c.iteration;
  ev.cmd_id = r.id;
  const auto cyc = [mhz](std::int64_t ns) {
    return static_cast<std::uint64_t>(
        std::max<std::int64_t>(0, to_i64(static_cast<double>(ns) * mhz / 1000.0)));
  };
  ev.begin_cycle = cyc(t.s - origin);
  ev.end_cycle = cyc(t.e - origin);
  ev.begin_ns = static_cast<double>(t.s - origin);
  ev.end_ns = static_cast<double>(t.e - origin);
  if (r.has_bytes) {
    ev.bytes = r.bytes;
    ev.set_flag(engine_event::flag_has_bytes);
  }
  if (r.start == 0xFFFFFFFFu || r.end == 0xFFFFFFFFu) ev.set_flag(engine_event::flag_invalid);
  if (r.id < c.cmds[e].size()) {
    const auto& cmd = c.cmds[e][r.id];
    ev.set_flag(engine_event::flag_matched);
    ev.op = names.intern(cmd.frame.op);
    ev.op_type = names.intern(cmd.cls);
    if (e == 1) ev.set_dir(Chip::gdma_direction(cmd.bytes));
    if constexpr (requires { Chip::uarch_rate(cmd.cls, cmd.frame.op, cmd.bytes); })
      if (e == 0) ev.uarch_rate = Chip::uarch_rate(cmd.cls, cmd.frame.op, cmd.bytes);
  }
  return ev;
}

/// Every core's events as PMU lists (all TIU lists, then all GDMA lists) with their tracks.
template <indexed_chip Chip>
std::vector<pmu_list> indexed_lists(std::vector<indexed_core>& cores, const clocks& clk,
                                    const std::string& label, trace_info& info) {
  const double mhz[2] = {clk.tiu_mhz, clk.dma_mhz};
  std::vector<std::vector<ns_span>> ns[2];
  std::vector<std::vector<std::uint64_t>> raw[2];
  std::uint64_t unmatched = 0, wraps = 0;
  for (auto& c : cores) {
    auto& t = c.recs[0];
    // a leading send command belongs to the previous run (the vendor drops it)
    if (!t.empty() && t[0].id < c.cmds[0].size() &&
        c.cmds[0][t[0].id].frame.op == Chip::send_msg_op) {
      t.erase(t.begin());
    }
    for (int e = 0; e < 2; ++e) {
      wraps += unwrap_counters(c.recs[e], raw[e].emplace_back());
      for (const auto& r : c.recs[e])
        if (r.id >= c.cmds[e].size()) ++unmatched;
    }
  }
  wraps += align_list_wraps(cores, raw, mhz);
  for (int e = 0; e < 2; ++e)
    for (const auto& r : raw[e]) {
      auto& v = ns[e].emplace_back();
      for (std::size_t k = 0; k + 1 < r.size(); k += 2)
        v.push_back({vendor_ns(r[k], mhz[e]), vendor_ns(r[k + 1], mhz[e])});
    }
  if (wraps)
    info.diagnostics.add(diag::cycle_wrap, label, decode_error::no_offset,
                         std::to_string(wraps) + " PMU cycle-counter wraps undone", wraps);
  // cores of an iteration aligned on their first wait command (the first core is the reference)
  // (a flag and a value, not std::optional: GCC 12 -O3 reports a false
  // maybe-uninitialized on the optional's payload)
  bool have_ref = false;
  std::int64_t ref = 0;
  for (std::size_t i = 0; i < cores.size(); ++i) {
    if (i > 0 && cores[i].iteration != cores[i - 1].iteration) have_ref = false;
    const auto w = first_wait_ns<Chip>(cores[i], ns[0][i]);
    if (!w) continue;
    if (!have_ref) {
      have_ref = true;
      ref = *w;
      continue;
    }
    const std::int64_t d = *w - ref;
    for (int e = 0; e < 2; ++e)
      for (auto& t : ns[e][i]) t = {t.s - d, t.e - d};
  }
  std::int64_t origin = std::numeric_limits<std::int64_t>::max();
  for (int e = 0; e < 2; ++e)
    for (const auto& v : ns[e])
      if (!v.empty()) origin = std::min(origin, v.front().s);
  if (origin == std::numeric_limits<std::int64_t>::max()) origin = 0;
  if (unmatched)
    info.diagnostics.add(diag::unmatched_record, label, decode_error::no_offset,
                         std::to_string(unmatched) + " PMU records have no command", unmatched);

  std::vector<pmu_list> out;
  unsigned ran = 0;
  for (int e = 0; e < 2; ++e)
    for (std::size_t i = 0; i < cores.size(); ++i) {
      const auto& c = cores[i];
      pmu_list l;
      l.eng = e == 0 ? engine::tiu : engine::gdma;
      l.core = c.core;
      l.iteration = c.iteration;
      l.bytes = c.blocks[e];
      l.record_size = e == 0 ? Chip::tiu_record_size : Chip::gdma_record_size;
      l.freq_mhz = mhz[e];
      for (std::size_t k = 0; k < c.recs[e].size(); ++k)
        l.events.push_back(indexed_event<Chip>(c, e, k, ns[e][i][k], origin, mhz[e], info.names));
      l.count = l.events.size();
      l.pair.assign(l.count, no_pair);
      if (!c.raw_records[e]) continue;
      ran = std::max<unsigned>(ran, c.core + 1u);
      track t;
      t.unit = c.core;
      t.eng = l.eng;
      t.freq_mhz = mhz[e];
      auto found = std::find(info.tracks.begin(), info.tracks.end(), t);
      if (found == info.tracks.end()) found = info.tracks.insert(info.tracks.end(), t);
      found->records += c.raw_records[e];
      found->events += l.count;
      out.push_back(std::move(l));
    }
  std::sort(info.tracks.begin(), info.tracks.end(), track_less);
  info.cores = std::max(ran, 1u);
  return out;
}

/// Layer ids from global.profile's node lines: the k-th line of an engine and core is its
/// command k (the vendor's tensor_location.json attribution gives the same ids on the captures).
inline void attach_layers(std::vector<pmu_list>& lists, const global_profile& g,
                          const std::vector<iter_blocks>& iters) {
  for (auto& l : lists) {
    const subnet_info* s = g.find_subnet(iters[l.iteration].summary.subnet_id);
    if (!s && g.subnets.size() == 1) s = &g.subnets[0];
    if (!s) continue;
    std::vector<std::int32_t> layer;
    for (const auto& n : l.eng == engine::tiu ? s->tiu_nodes : s->gdma_nodes)
      if (n.core == l.core)
        layer.push_back(n.layer >= 0 && static_cast<std::size_t>(n.layer) < s->layers.size()
                            ? s->layers[static_cast<std::size_t>(n.layer)].layer_id
                            : -1);
    for (auto& e : l.events)
      if (e.cmd_id < layer.size()) e.layer_id = layer[e.cmd_id];
  }
}

}  // namespace tpuprof::bmprofile
