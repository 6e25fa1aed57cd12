/// cdm emit stage: turns the matched, aligned records of a decode into
/// engine_events in place (names, directions, bytes, kernel-function spans,
/// tracks), the last stage of cdm_decoder.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <tpuprof/decode/cdm/descriptors.hpp>
#include <tpuprof/decode/cdm/state.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::cdm::detail {

/// A working record's values, read out of its slot before the slot is reused.
struct rec {
  std::int64_t start, end;  ///< final cycles (pending shift applied)
  std::uint64_t id, bytes;
  const command* cmd;
  const command* tags;
  std::uint8_t flags;
};
/// The DYN tags of a record: its DES reference's, else its command's.
inline const dyn_tag& tag_of(const decode_state& st, const rec& r) noexcept {
  const command* c = r.tags ? r.tags : r.cmd;
  return st.tags[c ? c->tag : 0];
}
inline rec load(const list& l, std::size_t i) noexcept {
  const pmu_ref x = l[i];
  return {x.start() - l.shift, x.end() - l.shift, x.id(), x.bytes(), x.cmd(), x.tags(), x.flags()};
}

inline direction to_direction(mem_kind s, mem_kind d) noexcept {
  constexpr direction t[3][3] = {
      {direction::s2s, direction::s2m, direction::s2l},   // from DDR to DDR, L2M, LMEM
      {direction::m2s, direction::m2m, direction::m2l},   // from L2M
      {direction::l2s, direction::l2m, direction::l2l}};  // from LMEM
  const auto a = static_cast<unsigned>(s), b = static_cast<unsigned>(d);
  return a < 3 && b < 3 ? t[a][b] : direction::unknown;
}

/// Function Name and Function Type of an event, as the vendor tools print them:
/// register class and op name when the command has a register image, else the
/// condensed tables (bigTpuProfile; tpu-mlir's "DMA_sys" on the bmodel path).
template <class Chip>
auto event_names(pmu_kind kind, bool reg, bool is_short, std::uint8_t type, std::uint8_t sp,
                 mem_kind src, mem_kind dst, bool bmodel) {
  typename Chip::op_names n;
  if (kind == pmu_kind::tiu) {
    if (reg) {
      auto cls = Chip::tiu_class_of(type, sp, is_short);
      n.type = cls ? std::string(cls->name) : "unknown";
      n.name = std::string(Chip::tiu_op(type, sp));
    } else {
      n = Chip::tiu_names(type, sp);
    }
  } else if (kind == pmu_kind::cdma) {
    n = Chip::cdma_op_names(type, sp);
  } else {
    n = Chip::dma_op_names(type, sp, src, dst, bmodel ? "DMA_sys" : "sys");
  }
  return n;
}

/// Writes the event of `r` into slot `at` (at or below r's own slot).
template <class Chip>
void emit_one(decode_state& st, const rec& r, pmu_kind kind, engine eng, std::uint8_t unit,
              std::size_t at) {
  engine_event& ev = st.events[at];  // built in place: r holds everything read from it
  ev = engine_event{};
  ev.device = st.opt.device;
  ev.unit = unit;
  ev.engine = eng;
  ev.begin_cycle = static_cast<std::uint64_t>(r.start);
  ev.end_cycle = static_cast<std::uint64_t>(r.end);
  const double mhz = kind == pmu_kind::tiu ? st.tiu_mhz : st.dma_mhz;
  ev.begin_ns = static_cast<double>(r.start) * 1000.0 / mhz;
  ev.end_ns = static_cast<double>(r.end) * 1000.0 / mhz;
  // Cmd Id as printed: PMU id + 1, except CDMA ids, which are already 1-based.
  ev.cmd_id = static_cast<std::uint32_t>(kind == pmu_kind::cdma && !st.bmodel ? r.id : r.id + 1);
  const std::uint8_t sys = (r.flags & pmu_ref::sys_send)   ? 1
                           : (r.flags & pmu_ref::sys_wait) ? 2
                                                           : 0;
  const command* c = r.cmd;
  const dyn_tag& tg = tag_of(st, r);
  ev.function = tg.func;
  ev.group = static_cast<std::uint16_t>(tg.scope < 0 ? 0 : tg.scope);
  if (c)
    ev.set_flag(engine_event::flag_matched);
  else
    ++st.unmatched_out;
  if (at == 0 || ev.begin_ns < st.begin_ns) st.begin_ns = ev.begin_ns;
  if (at == 0 || ev.end_ns > st.end_ns) st.end_ns = ev.end_ns;
  // Type codes and memory kinds decide the names; cache the interned ids per
  // combination so the per-event path does no string work.
  std::uint8_t type = 31, sp = 0;
  mem_kind src = mem_kind::none, dst = mem_kind::none;
  if (kind == pmu_kind::tiu) {
    if (c) {
      type = c->tsk;
      sp = c->eu;
    } else if (!st.bmodel && sys) {
      type = tiu_sys_code;
      sp = sys == 1 ? 8 : 9;
    }
  } else {
    ev.bytes = r.bytes;
    ev.set_flag(engine_event::flag_has_bytes);
    const bool cdma = kind == pmu_kind::cdma;
    src = dst = mem_kind::ddr;
    if (c) {
      type = c->tsk;
      sp = c->eu;
      if (c->has_reg) {
        src = c->src;
        dst = c->dst;
      } else if (cdma || type == dma_sys_code) {
        // CDMA nodes: Direction forced DDR->DDR; sys nodes: extra_info forced 0.
      } else {
        const unsigned s = (c->extra >> 4) & 3, t = (c->extra >> 6) & 3;
        if (s == 3 || t == 3) {
          st.info.diagnostics.count(diag::unknown_enum);  // the vendor raises here
          src = dst = mem_kind::none;
        } else {
          src = static_cast<mem_kind>(s);
          dst = static_cast<mem_kind>(t);
        }
      }
    } else if (st.bmodel) {
      dst = mem_kind::lmem;  // tpu-mlir: no command = extra_info 0 = DDR->LMEM
    } else if (sys) {
      type = cdma ? cdma_sys_code : dma_sys_code;
      sp = sys == 1 ? 3 : 4;
    }
    ev.set_dir(to_direction(src, dst));
  }
  const bool reg = c && c->has_reg;
  const std::uint64_t nkey = std::uint64_t{static_cast<std::uint8_t>(kind)} |
                             std::uint64_t{reg} << 2 | std::uint64_t{reg && c->is_short} << 3 |
                             std::uint64_t{type} << 8 | std::uint64_t{sp} << 16 |
                             std::uint64_t{static_cast<std::uint8_t>(src)} << 24 |
                             std::uint64_t{static_cast<std::uint8_t>(dst)} << 32;
  // A direct-mapped cache in front of the map: the per-event path does one
  // multiply and one compare (mode 1 alternates kinds too often for a memo).
  decode_state::name_slot& slot =
      st.name_slots[(nkey * 0x9E3779B97F4A7C15ull) >> (64 - decode_state::name_slot_bits)];
  if (slot.key == nkey) {
    ev.op = slot.names.first;
    ev.op_type = slot.names.second;
    return;
  }
  auto it = st.name_cache.find(nkey);
  if (it == st.name_cache.end()) {
    const auto n = event_names<Chip>(kind, reg, reg && c->is_short, type, sp, src, dst, st.bmodel);
    it = st.name_cache
             .emplace(nkey,
                      std::make_pair(st.info.names.intern(n.name), st.info.names.intern(n.type)))
             .first;
  }
  slot.key = nkey;
  slot.names = it->second;
  ev.op = it->second.first;
  ev.op_type = it->second.second;
}

/// The track of events [before, end); sorts them by begin when needed.
inline void finish_track(decode_state& st, std::vector<track>& tracks, engine eng, unsigned unit,
                         double mhz, std::uint64_t records, std::size_t before, std::size_t end,
                         bool sorted, bool present) {
  auto first = st.events.begin() + static_cast<std::ptrdiff_t>(before);
  auto last = st.events.begin() + static_cast<std::ptrdiff_t>(end);
  auto by_begin = [](const engine_event& a, const engine_event& b) {
    return a.begin_cycle < b.begin_cycle;
  };
  if (!sorted) std::stable_sort(first, last, by_begin);
  if (!present && records == 0) return;
  track t;
  t.device = st.opt.device;
  t.unit = static_cast<std::uint8_t>(unit);
  t.eng = eng;
  t.freq_mhz = mhz;
  t.records = records;
  t.events = end - before;
  tracks.push_back(t);
}

/// `f` holds three runs (TIU, GDMA, SDMA) at runs[0..3]; each is usually

/// already in (begin, end) order, and merging sorted runs stably gives what
/// one stable_sort of everything gives, in linear time (`runs_sorted`: checked by emit).
inline void emit_spans(decode_state& st, std::vector<span_src>& f, const std::size_t (&runs)[4],
                       bool runs_sorted, std::uint8_t core) {
  const auto less = span_less;
  if (runs_sorted) {
    const auto at = [&](int k) { return f.begin() + static_cast<std::ptrdiff_t>(runs[k]); };
    std::inplace_merge(at(0), at(1), at(2), less);
    std::inplace_merge(at(0), at(2), at(3), less);
  } else {
    std::stable_sort(f.begin(), f.end(), less);
  }
  for (std::size_t i = 0; i < f.size();) {
    std::size_t j = i + 1;
    std::int64_t b = f[i].b, e = f[i].e;
    auto same = [&](const span_src& x) {
      return f[i].scope >= 0 ? x.scope == f[i].scope
                             : (x.scope < 0 && x.func == f[i].func && x.batch == f[i].batch);
    };
    while (j < f.size() && same(f[j])) {
      b = std::min(b, f[j].b);
      e = std::max(e, f[j].e);
      ++j;
    }
    engine_event s;
    s.engine = engine::kernel_function;
    s.unit = core;
    s.device = st.opt.device;
    s.begin_cycle = static_cast<std::uint64_t>(b);
    s.end_cycle = static_cast<std::uint64_t>(e);
    s.begin_ns = static_cast<double>(b) * 1000.0 / st.tiu_mhz;
    s.end_ns = static_cast<double>(e) * 1000.0 / st.tiu_mhz;
    s.op = f[i].func;
    s.function = f[i].func;
    s.group = static_cast<std::uint16_t>(f[i].scope < 0 ? 0 : f[i].scope);
    st.spans.push_back(s);
    i = j;
  }
}

/// Core `cd`'s lists into events from slot `out` on (in place: records only
/// move down), its tracks into `tracks`, its kernel-function spans into
/// st.spans (`funcs` is scratch). Returns the next free slot.
template <class Chip>
std::size_t emit_core(decode_state& st, core_data& cd, std::size_t out, std::vector<track>& tracks,
                      std::vector<span_src>& funcs) {
  funcs.clear();
  funcs.reserve(cd.pmu[0].size() + cd.pmu[1].size() + cd.pmu[2].size());
  std::size_t runs[4] = {0, 0, 0, 0};  // funcs of engine k: [runs[k], runs[k + 1])
  bool runs_sorted = true;             // each run in span_less order
  for (int k = 0; k < 3; ++k) {
    const auto kind = pmu_kind(k);
    const engine eng = k == 0 ? engine::tiu : k == 1 ? engine::gdma : engine::sdma;
    const std::size_t before = out;
    const list l = cd.pmu[k];  // a copy: see pmu_list
    // Order checks ride along with the conversion instead of extra passes.
    bool sorted = true;
    std::uint64_t prev = 0;
    for (std::size_t i = 0; i < l.size(); ++i) {
      const rec r = load(l, i);
      emit_one<Chip>(st, r, kind, eng, static_cast<std::uint8_t>(cd.core), out);
      if (r.cmd && r.cmd->offset) attach_descriptor<Chip>(st, cd, *r.cmd, st.events[out]);
      ++out;
      const auto begin = static_cast<std::uint64_t>(r.start);
      sorted &= begin >= prev;  // prev starts at 0, below any u64
      prev = begin;
      const dyn_tag& t = tag_of(st, r);
      if (t.func || t.scope >= 0) {
        const span_src f{r.start, r.end, t.scope, t.batch, t.func};
        runs_sorted = runs_sorted && (funcs.size() == runs[k] || !span_less(f, funcs.back()));
        funcs.push_back(f);
      }
    }
    finish_track(st, tracks, eng, cd.core, k == 0 ? st.tiu_mhz : st.dma_mhz, cd.raw_records[k],
                 before, out, sorted, cd.has_monitor[k]);
    runs[k + 1] = funcs.size();
  }
  emit_spans(st, funcs, runs, runs_sorted, static_cast<std::uint8_t>(cd.core));
  return out;
}

/// Port `pd`'s list into events from slot `out` on; returns the next free slot.
template <class Chip>
std::size_t emit_port(decode_state& st, const port_data& pd, std::size_t out,
                      std::vector<track>& tracks) {
  const std::size_t before = out;
  const list l = pd.pmu;
  bool sorted = true;
  std::uint64_t prev = 0;
  for (std::size_t i = 0; i < l.size(); ++i) {
    const rec r = load(l, i);
    emit_one<Chip>(st, r, pmu_kind::cdma, engine::cdma, static_cast<std::uint8_t>(pd.port), out++);
    const auto begin = static_cast<std::uint64_t>(r.start);
    sorted &= begin >= prev;  // prev starts at 0, below any u64
    prev = begin;
  }
  finish_track(st, tracks, engine::cdma, pd.port, st.dma_mhz, pd.raw_records, before, out, sorted,
               true);
  return out;
}

/// The matcher's properties and the counts of a finished emit (st.stats,
/// st.unmatched_out, st.descriptors_unsupported), in trace_info.
inline void emit_notes(decode_state& st) {
  // Mode 0 has no commands by design: records without one are not data loss.
  const bool pmu_only = st.info.mode.starts_with("mode 0");
  for (const auto& [k, ms] : st.stats) {
    const auto kind = pmu_kind(k >> 8);
    std::string name = std::string(engine_key(kind)) + std::to_string(k & 0xFF);
    st.info.properties.emplace_back("match." + name,
                                    "matched=" + std::to_string(ms.matched) +
                                        " inserted=" + std::to_string(ms.inserted) +
                                        " deleted=" + std::to_string(ms.deleted));
    count(st, diag::inserted_record, ms.inserted, st.info.source,
          "matcher " + name + ": commands without record");
    if (!pmu_only)
      count(st, diag::deleted_record, ms.deleted, st.info.source,
            "matcher " + name + ": records without command");
    if (ms.fallback)
      st.info.diagnostics.add(
          diag::other, st.info.source, decode_error::no_offset,
          "matcher " + name + ": alignment too large, sections paired in order");
  }
  // unmatched_out (counted by emit_one) includes the sys records the vendor names too.
  if (!pmu_only)
    count(st, diag::unmatched_record, st.unmatched_out, st.info.source,
          "events without a command (named unknown / sys)");
  if (st.descriptors_unsupported)
    st.info.diagnostics.add(diag::other, st.info.source, decode_error::no_offset,
                            "TIU descriptors without a vendor converter or ops formula: uArch "
                            "rate unknown for them",
                            st.descriptors_unsupported);
}

/// Turns the working slots into events in place: each list's records move
/// down to the next free slot (never up, lists are laid out in output order)
/// and become their engine_event there.
template <class Chip>
void emit(decode_state& st) {
  std::vector<track> tracks;
  std::vector<span_src> funcs;
  std::size_t out = 0;  // next free slot
  for (auto& cd : st.cores) out = emit_core<Chip>(st, cd, out, tracks, funcs);
  for (auto& pd : st.ports) out = emit_port<Chip>(st, pd, out, tracks);
  st.events.resize(out);  // only shrinks: no slot is constructed again
  st.spans.shrink_to_fit();
  st.info.tracks = std::move(tracks);
  st.info.sort_tracks();
  // st.events is in core order, then ports: matches track_less (ports after cores).
  if (!st.events.empty()) {
    st.info.begin_ns = st.begin_ns;
    st.info.end_ns = st.end_ns;
  }
  emit_notes(st);
  std::sort(st.ins_index.begin(), st.ins_index.end(), ins_less);
  // Free the working data.
  st.tags.assign(1, dyn_tag{});
  st.tags.shrink_to_fit();
  st.cores.clear();
  st.cores.shrink_to_fit();
  st.ports.clear();
  st.ports.shrink_to_fit();
}

}  // namespace tpuprof::cdm::detail
