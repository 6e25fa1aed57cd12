/// The events a correct decoder must yield for a synthetic position-paired dump, computed from
/// the counters' unwrapped values with the vendor's arithmetic (bm1688-notes.md §4): ns =
/// int(raw / MHz * 1000), the leading send_msg record dropped, cores aligned on their first
/// wait_msg, one origin (the earliest first record), cycle = int(ns * MHz / 1000).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/synth/indexed/iter_profile.hpp>
#include <tpuprof/synth/indexed/options.hpp>
#include <tpuprof/synth/indexed/program.hpp>

namespace tpuprof::synth::indexed_detail {

/// One kept PMU record: its command and ns times.
struct kept {
  const icmd* cmd;
  std::uint32_t id;
  std::int64_t s, e;
};

inline std::int64_t ns_of(std::uint64_t raw, std::uint64_t mhz) {
  return static_cast<std::int64_t>(static_cast<double>(raw) / static_cast<double>(mhz) * 1000.0);
}

/// Interns into a plain vector of names ([0] = "").
inline name_id intern(std::vector<std::string>& names, std::string_view s) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == s) return static_cast<name_id>(i);
  names.emplace_back(s);
  return static_cast<name_id>(names.size() - 1);
}

/// Every expected hardware event: TIU lists of cores 0.., then GDMA lists, in record order.
inline std::vector<engine_event> expected_events(const program& p, const counters& k,
                                                 std::vector<std::string>& names) {
  const std::size_t n = p.cores.size();
  std::vector<std::vector<kept>> lists[2];
  for (unsigned c = 0; c < n; ++c) {
    const auto& core = p.cores[c];
    for (int e = 0; e < 2; ++e) {
      auto& l = lists[e].emplace_back();
      const auto& cmds = e == 0 ? core.tiu : core.gdma;
      const std::size_t count = e == 0 ? cmds.size() : cmds.size() - 1;  // chain end: no record
      for (std::size_t i = 0; i < count; ++i)
        l.push_back({&cmds[i], static_cast<std::uint32_t>(i),
                     ns_of(k.raw(e, c, cmds[i].begin), k.mhz[e]),
                     ns_of(k.raw(e, c, cmds[i].end), k.mhz[e])});
    }
    auto& t = lists[0].back();
    if (!t.empty() && t.front().cmd->op == "system.send_msg") t.erase(t.begin());
  }
  // cores aligned on their first wait_msg record (core 0 is the reference)
  bool have_ref = false;
  std::int64_t ref = 0;
  for (std::size_t c = 0; c < n; ++c) {
    const auto w = std::find_if(lists[0][c].begin(), lists[0][c].end(),
                                [](const kept& r) { return r.cmd->op == "system.wait_msg"; });
    if (w == lists[0][c].end()) continue;
    if (!have_ref) {
      have_ref = true;
      ref = w->s;
      continue;
    }
    const std::int64_t d = w->s - ref;
    for (auto& l : {&lists[0][c], &lists[1][c]})
      for (auto& r : *l) r.s -= d, r.e -= d;
  }
  std::int64_t origin = std::numeric_limits<std::int64_t>::max();
  for (const auto& v : lists)
    for (const auto& l : v)
      if (!l.empty()) origin = std::min(origin, l.front().s);
  std::vector<engine_event> out;
  for (int e = 0; e < 2; ++e)
    for (std::size_t c = 0; c < n; ++c)
      for (const auto& r : lists[e][c]) {
        const double mhz = static_cast<double>(k.mhz[e]);
        const auto cyc = [&](std::int64_t ns) {
          return static_cast<std::uint64_t>(std::max<std::int64_t>(
              0, static_cast<std::int64_t>(static_cast<double>(ns - origin) * mhz / 1000.0)));
        };
        engine_event ev;
        ev.engine = e == 0 ? engine::tiu : engine::gdma;
        ev.unit = static_cast<std::uint8_t>(c);
        ev.cmd_id = r.id;
        ev.begin_cycle = cyc(r.s);
        ev.end_cycle = cyc(r.e);
        ev.begin_ns = static_cast<double>(r.s - origin);
        ev.end_ns = static_cast<double>(r.e - origin);
        ev.set_flag(engine_event::flag_matched);
        ev.op = intern(names, r.cmd->op);
        ev.op_type = intern(names, r.cmd->cls);
        ev.layer_id = r.cmd->layer_id;
        if (e == 0) {
          ev.uarch_rate = r.cmd->rate;
        } else {
          ev.bytes = r.cmd->bytes;
          ev.set_flag(engine_event::flag_has_bytes);
          ev.set_dir(r.cmd->dir);
        }
        out.push_back(ev);
      }
  return out;
}

}  // namespace tpuprof::synth::indexed_detail
