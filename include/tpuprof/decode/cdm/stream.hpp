/// cdm stream: decodes an SG2260-family dump core by core into a sink, with
/// memory bounded by a few cores instead of the whole dump. A first pass per
/// core (read, repair, match; no emit) finds what every core needs from the
/// others (anchors, the zero shift, CDMA attachment, system-command removal,
/// the time span, tracks, names, scope numbers); a second pass decodes each
/// core again (or takes it from the first pass when the whole dump fits the
/// memory budget), on worker threads, and hands its events to the sink in
/// core order. The sink sees exactly what write_trace() of the materialized
/// cdm_decoder gives it: begin(info), hardware events, spans, finish().
#pragma once

#include <pthread.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tpuprof/decode/cdm/bmodel_path.hpp>
#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/decode/cdm/emit.hpp>
#include <tpuprof/decode/cdm/operator_path.hpp>
#include <tpuprof/decode/cdm/options.hpp>
#include <tpuprof/decode/cdm/read.hpp>
#include <tpuprof/decode/cdm/state.hpp>
#include <tpuprof/decode/cdm/stream_facts.hpp>
#include <tpuprof/detail/ordered_window.hpp>
#include <tpuprof/forkable_sink.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::cdm {

namespace detail {

template <class Chip>
class streamer {
 public:
  streamer(const io::dump_files& files, const cdm_options& opt) : files_(files) {
    g_.opt = opt;
    g_.opt.keep_instructions = false;  // a stream gives no operands
  }

  template <class S>
  trace_info run(S& sink, const stream_options& so) {
    first_pass(so);
    sinks_begin(sink);
    const std::size_t per_core = per_core_ + (attach_ ? ports_records_ * 100 : 0);
    std::size_t window = std::max<std::size_t>(1, so.memory_budget / per_core);
    std::vector<core_output> outs(g_.cores.size());
    std::optional<core_output> ports;  // the ports' events, written after every core
    std::vector<engine_event> spans;
    // A forkable sink formats each core on its worker (the calling thread
    // joins) when two cores with their formatted bytes fit the budget and
    // cores are large enough (stream_options::fork_records).
    // Core i's new names get ids in commit order: its worker renames on a
    // copy of the table (names[i]) in which it interned the names of cores
    // [0, i) as commit() will, once their workers emitted them (names_for).
    std::vector<trace_info> names(outs.size());
    using part_t = decltype(fork_part(sink, 0, names[0]));
    std::vector<part_t> parts(outs.size());
    bool fork = false;
    if constexpr (forkable_sink<S>) {
      const std::size_t w = so.memory_budget / (per_core + per_core / 2);
      const unsigned threads = so.threads ? so.threads : tpuprof::detail::hardware_threads();
      fork = w >= 2 && threads >= 2 && outs.size() >= 2 && per_core >= so.fork_records * 100;
      if (fork) {
        window = w;
        emitted_.resize(outs.size());
        for (std::size_t i = 0; i < outs.size(); ++i) parts[i] = fork_part(sink, i, names[i]);
      }
    }
    auto failing = [&](auto&& f) {  // a failure wakes the workers waiting for names
      try {
        f();
      } catch (...) {
        fail_waiters();
        throw;
      }
    };
    tpuprof::detail::ordered_window(
        outs.size(), so.threads, window,
        [&](std::size_t i) {
          failing([&] {
            outs[i] = second_pass(i);
            if constexpr (forkable_sink<S>)
              if (fork && names_for(i, outs[i], names[i]))
                rename(outs[i], names[i].names, [&](const engine_event& e) { parts[i]->write(e); });
          });
        },
        [&](std::size_t i) {
          failing([&] { commit(outs[i], sink, spans, parts[i]); });
          names[i] = trace_info{};
          if (attach_ && *attach_ == i) {
            ports = std::move(outs[i]);
          } else {
            give(std::move(outs[i].events), spare_events_);
            outs[i] = core_output{};
          }
        });
    if (ports) write_ports(*ports, sink);
    for (const auto& s : spans) sink.write(s);
    emit_notes(g_);
    sink.finish();
    return std::move(g_.info);
  }

 private:
  template <class S>
  void sinks_begin(S& sink) {
    if constexpr (requires { sink.begin(g_.info); }) sink.begin(g_.info);
  }

  /// A fresh state for one core, sharing the dump's global facts.
  void start(decode_state& s, std::int32_t scope_base) {
    s.opt = g_.opt;
    s.global = g_.global;
    s.info.chip = g_.info.chip;
    s.info.source = g_.info.source;
    s.info.cores = g_.info.cores;
    s.tiu_mhz = g_.tiu_mhz;
    s.dma_mhz = g_.dma_mhz;
    s.bmodel = g_.bmodel;
    s.next_scope = scope_base;
    s.cores.reserve(1);
    pthread_mutex_lock(&m_);
    if (!spare_events_.empty()) {
      s.events = std::move(spare_events_.back());
      spare_events_.pop_back();
      s.events.clear();
    }
    if (!spare_cmds_.empty()) {
      s.reuse_cmds = std::move(spare_cmds_.back());
      spare_cmds_.pop_back();
    }
    pthread_mutex_unlock(&m_);
  }
  /// A core's event buffer or command lists (once no event points into
  /// them), kept for a later core: their pages are already there (fresh ones
  /// cost a fault and a clear each, a fifth of the time).
  template <class T>
  void give(T&& v, std::vector<std::remove_cvref_t<T>>& pool) {
    pthread_mutex_lock(&m_);
    pool.push_back(std::move(v));
    pthread_mutex_unlock(&m_);
  }

  /// Core i's records (and the ports' when they attach to it), repaired and
  /// matched. With `f` (first pass): its read-stage diagnostics go there and
  /// the ports' core is chosen: the first core with CDMA commands, else the last.
  void decode_core(decode_state& s, std::size_t i, core_facts* f) {
    bool attach = false;
    if (f) {
      try {
        read_core<Chip>(s, files_, core_files_[i].first, core_files_[i].second);
      } catch (...) {
        decide_attach(i, false);  // later cores wait for this one's answer
        throw;
      }
      f->read = std::exchange(s.info.diagnostics, {});
      attach = decide_attach(i, s.cores.front().cmds.any_cdma());
    } else {
      read_core<Chip>(s, files_, core_files_[i].first, core_files_[i].second);
      attach = !g_.bmodel && attach_ && *attach_ == i;
    }
    if (attach) {
      for (auto& [p, n] : port_files_) read_port(s, files_, p, n);
      s.info.diagnostics = {};  // first_pass has them
    }
    read_records(files_, s);
    core_data& cd = s.cores.front();
    if (g_.bmodel) {
      bmodel_core<Chip>(s, cd);
      return;
    }
    for (auto& pd : s.ports) repair_port(s, pd);
    if (f && attach) port_repair_ = std::exchange(s.info.diagnostics, {});
    std::vector<bool> attached(s.ports.size(), false);
    operator_core<Chip>(s, cd, attach, attached);
    unattached_ports(s, attached);
  }

  void first_pass(const stream_options& so);
  void first_pass_core(std::size_t i, std::map<std::uint32_t, match_stats>& stats);
  bool decide_attach(std::size_t i, bool cdma);
  void global_facts();
  core_output second_pass(std::size_t i);
  template <class S>
  auto fork_part(S& sink, std::size_t i, const trace_info& names) {
    if constexpr (forkable_sink<S>)
      return std::optional(
          sink.fork(g_.opt.device, static_cast<std::uint8_t>(g_.cores[i].core), names));
    else
      return 0;
  }
  /// A job or commit failed: wakes the workers waiting in names_for.
  void fail_waiters() {
    pthread_mutex_lock(&m_);
    failed_ = true;
    pthread_cond_broadcast(&cv_);
    pthread_mutex_unlock(&m_);
  }
  /// A copy of the dump's names in `to`, in which core output `o`'s names
  /// have the ids commit() will give them (emitted_names): at once when they
  /// all have one, else once cores [0, i) were emitted. False when a job failed.
  bool names_for(std::size_t i, const core_output& o, trace_info& to) {
    pthread_mutex_lock(&m_);
    emitted_.publish(i, o.names, o.core_names);
    pthread_cond_broadcast(&cv_);
    bool known = true;
    for (std::size_t k = 1; known && k < o.core_names; ++k)
      known = g_.info.names.find(o.names[static_cast<name_id>(k)], 0) != 0;
    while (!known && emitted_.prefix < i && !failed_) pthread_cond_wait(&cv_, &m_);
    const bool ok = !failed_;
    if (ok) {
      to.chip = g_.info.chip;
      to.names = g_.info.names;
    }
    pthread_mutex_unlock(&m_);
    if (ok && !known) emitted_.intern_before(i, to.names);
    return ok;
  }
  template <class F>
  void rename(core_output& o, name_table& names, F&& each) const;
  template <class S, class P>
  void commit(core_output& o, S& sink, std::vector<engine_event>& spans, P& part);
  template <class S>
  void write_ports(core_output& o, S& sink);

  const io::dump_files& files_;
  decode_state g_;  ///< info, global profile, stats; cores and ports without records
  file_list core_files_, port_files_;
  std::vector<core_facts> facts_;
  std::vector<list_facts> port_facts_;
  decode_diagnostics port_read_, port_repair_;
  std::optional<std::size_t> attach_;  ///< index of the core the CDMA ports attach to
  /// First pass: per core, -1 = not read yet, else whether it has CDMA commands.
  std::vector<signed char> cdma_;
  std::size_t cdma_known_ = 0;                           ///< cdma_[0, cdma_known_) are known
  std::vector<std::vector<engine_event>> spare_events_;  ///< give()
  std::vector<dyn_lists> spare_cmds_;                    ///< give()
  emitted_names emitted_;  ///< second pass: each core's names once emitted (names_for)
  bool failed_ = false;    ///< a job or commit threw
  pthread_mutex_t m_ = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv_ = PTHREAD_COND_INITIALIZER;
  std::size_t ports_records_ = 0;
  std::size_t per_core_ = 1;  ///< memory estimate of the largest core (first_pass)
  bool remain_ = false;       ///< a CDMA port keeps records after system-command removal
  std::int64_t t0_ = 0;       ///< the zero shift
  std::vector<std::int64_t> anchor_shift_;
  std::vector<std::int32_t> scope_base_;
  /// First pass: every core kept as decoded when the dump is small enough
  /// (first_pass): the second pass only emits them.
  std::vector<std::unique_ptr<decode_state>> kept_;
};

/// Global profile, file lists, ports; then every core once (on worker
/// threads), keeping only its facts; then the global facts.
template <class Chip>
void streamer<Chip>::first_pass(const stream_options& so) {
  read_global<Chip>(files_, g_);
  split_files<Chip>(files_, core_files_, port_files_);
  report_missing_cores<Chip>(files_, g_, core_files_);
  // The rule set needs every core's blocks: a look at their headers only.
  bool has_des = false, has_dyn = false;
  std::size_t most_records = 0;  // of one core, for the memory estimate
  for (auto& [c, n] : core_files_) {
    std::size_t records = 0;
    for (const auto& b : read_blocks(files_.get(n))) {
      if (b.type == block_type::monitor_bd) records += b.content.size() / tiu_record_size;
      if (b.type == block_type::monitor_gdma || b.type == block_type::monitor_sdma)
        records += b.content.size() / dma_record_size;
      has_dyn = has_dyn || b.type == block_type::dyn_data;
      has_des = has_des || b.type == block_type::block_des_bdc ||
                b.type == block_type::block_des_gdma || b.type == block_type::block_des_sdma;
    }
    most_records = std::max(most_records, records);
  }
  const auto path = g_.opt.path;
  g_.bmodel = path == capture_path::bmodel ||
              (path == capture_path::automatic && (g_.global.bmodel || (has_des && !has_dyn)));
  {
    auto keep = std::exchange(g_.info.diagnostics, {});
    for (auto& [p, n] : port_files_) read_port(g_, files_, p, n);
    port_read_ = std::exchange(g_.info.diagnostics, std::move(keep));
  }
  for (const auto& pd : g_.ports) ports_records_ += pd.raw_records;
  const std::size_t n = core_files_.size();
  facts_.resize(n);
  g_.cores.resize(n);
  port_facts_.resize(g_.ports.size());
  cdma_.assign(n, -1);
  // The cores being read are the first pass's memory: as many as the budget
  // holds (an estimate from the block headers, which run() uses too). The
  // bmodel path reads more files, lazily: one core at a time.
  per_core_ = std::max<std::size_t>(1, most_records * 100);
  const std::size_t window = g_.bmodel ? 1 : std::max<std::size_t>(1, so.memory_budget / per_core_);
  // A dump whose cores all fit the budget, with room for one more (two
  // cores' formatted bytes), is decoded once: the first pass keeps its cores.
  // Only then: a kept core is fresh memory where a decoded-again one reuses
  // pages (give), and the kernel's page clearing costs as much as the
  // decode it saves (measured, docs/performance.md).
  if (!g_.bmodel && (n + 1) * per_core_ + ports_records_ * 100 <= so.memory_budget) kept_.resize(n);
  std::vector<std::map<std::uint32_t, match_stats>> stats(n);
  tpuprof::detail::ordered_window(
      n, so.threads, window, [&](std::size_t i) { first_pass_core(i, stats[i]); },
      [&](std::size_t i) {
        for (const auto& [k, ms] : stats[i]) g_.stats[k] = ms;
        stats[i] = {};
      });
  global_facts();
}

/// The first pass decides, core by core, which core the CDMA ports attach
/// to: the first with CDMA commands, else the last. Core i learns whether it
/// is that core once every earlier core was read.
template <class Chip>
bool streamer<Chip>::decide_attach(std::size_t i, bool cdma) {
  pthread_mutex_lock(&m_);
  cdma_[i] = cdma ? 1 : 0;
  while (cdma_known_ < cdma_.size() && cdma_[cdma_known_] >= 0) ++cdma_known_;
  pthread_cond_broadcast(&cv_);
  while (cdma_known_ < i) pthread_cond_wait(&cv_, &m_);
  bool attach = false;
  if (!g_.bmodel && !attach_ && (cdma || i + 1 == cdma_.size())) {
    attach_ = i;
    attach = true;
  }
  pthread_mutex_unlock(&m_);
  return attach;
}

/// Core i decoded up to system-command removal; what the others need is kept.
template <class Chip>
void streamer<Chip>::first_pass_core(std::size_t i, std::map<std::uint32_t, match_stats>& stats) {
  decode_state s;
  start(s, 0);
  core_facts& f = facts_[i];
  decode_core(s, i, &f);
  core_data& cd = s.cores.front();
  f.op = std::exchange(s.info.diagnostics, {});
  for (std::size_t k = 1; k < s.info.names.size(); ++k)
    f.names.emplace_back(s.info.names[static_cast<name_id>(k)]);
  f.scopes = s.next_scope;
  f.anchor = cd.anchor;
  f.has_dyn = cd.has_dyn;
  f.has_extra = cd.has_extra;
  stats = std::move(s.stats);
  for (int k = 0; k < 3; ++k) {
    facts_before(cd.pmu[k], f.l[k]);  // the lists stay as decoded
    if (g_.bmodel)
      facts_same(cd.pmu[k], f.l[k]);
    else
      facts_removal(cd.pmu[k], k == 0 ? tiu_sys_code : dma_sys_code, f.l[k]);
  }
  for (std::size_t p = 0; p < s.ports.size(); ++p) {
    auto& pd = s.ports[p];
    facts_before(pd.pmu, port_facts_[p]);
    omit_system_op(pd.pmu, cdma_sys_code, false);
    facts_same(pd.pmu, port_facts_[p]);
    remain_ = remain_ || !pd.pmu.empty();  // the second pass's removal changes nothing more
    g_.ports[p].core = pd.core;
  }
  core_data& light = g_.cores[i];  // what account_records and the tracks read
  light.core = cd.core;
  light.file = cd.file;
  light.bytes = cd.bytes;
  for (int k = 0; k < 3; ++k) {
    light.raw_records[k] = cd.raw_records[k];
    light.has_monitor[k] = cd.has_monitor[k];
  }
  if (i < kept_.size()) {
    kept_[i] = std::make_unique<decode_state>(std::move(s));
  } else {
    give(std::move(s.events), spare_events_);
    give(std::move(cd.cmds), spare_cmds_);
  }
}
/// Diagnostics in the materialized decode's order, names, scope numbers,
/// alignment, time span, tracks and mode: trace_info as begin() needs it.
template <class Chip>
void streamer<Chip>::global_facts() {
  auto& dg = g_.info.diagnostics;
  for (auto& f : facts_) dg.merge(f.read);
  dg.merge(port_read_);
  account_records(g_);
  if (g_.bmodel) g_.ports.clear();
  dg.merge(port_repair_);
  for (auto& f : facts_) dg.merge(f.op);
  std::int32_t scope = 0;
  for (auto& f : facts_) {
    for (const auto& n : f.names) g_.info.names.intern(n);
    scope_base_.push_back(scope);
    scope += f.scopes;
  }
  // align_and_shift, on the facts.
  std::optional<std::int64_t> base;
  for (auto& f : facts_)
    if (f.anchor) {
      base = f.anchor;
      break;
    }
  for (auto& f : facts_) anchor_shift_.push_back(f.anchor && base ? *f.anchor - *base : 0);
  auto port_shift = [&](std::size_t p) {
    return g_.ports[p].core ? anchor_shift_[*attach_] : std::int64_t{0};
  };
  std::optional<std::int64_t> first_min, global_min;
  auto scan = [&](const list_facts& l, std::int64_t sh) {
    if (!l.any) return;
    first_min = std::min(first_min.value_or(l.first - sh), l.first - sh);
    global_min = std::min(global_min.value_or(l.low - sh), l.low - sh);
  };
  for (std::size_t i = 0; i < facts_.size(); ++i)
    for (const auto& l : facts_[i].l) scan(l, anchor_shift_[i]);
  for (std::size_t p = 0; p < g_.ports.size(); ++p) scan(port_facts_[p], port_shift(p));
  if (first_min) {
    t0_ = *first_min;
    if (*global_min < t0_) {
      dg.add(diag::other, g_.info.source, decode_error::no_offset,
             "a record starts before the first record of every list: shifted by "
             "the global minimum (the vendor tool aborts here)");
      t0_ = *global_min;
    }
    std::int64_t tail = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i = 0; i < facts_.size(); ++i)
      for (const auto& l : facts_[i].l)
        if (l.any) tail = std::max(tail, l.back_end - anchor_shift_[i] - t0_);
    for (std::size_t p = 0; p < g_.ports.size(); ++p)
      if (port_facts_[p].any) tail = std::max(tail, port_facts_[p].back_end - port_shift(p) - t0_);
    g_.info.properties.emplace_back("pmu_tail_cycle", std::to_string(tail));
  }
  // Time span and tracks of the events emit will write.
  const int v = remain_ ? 1 : 0;
  bool any = false;
  double b = 0, e = 0;
  auto span = [&](const list_facts& l, std::int64_t sh, double mhz) {
    if (!l.n[v]) return;
    const double lb = static_cast<double>(l.lo[v] - sh - t0_) * 1000.0 / mhz;
    const double le = static_cast<double>(l.hi[v] - sh - t0_) * 1000.0 / mhz;
    b = any ? std::min(b, lb) : lb;
    e = any ? std::max(e, le) : le;
    any = true;
  };
  auto& tracks = g_.info.tracks;
  bool any_dyn = false, any_extra = false;
  for (std::size_t i = 0; i < facts_.size(); ++i) {
    const auto& cd = g_.cores[i];
    any_dyn = any_dyn || facts_[i].has_dyn;
    any_extra = any_extra || (facts_[i].has_dyn && facts_[i].has_extra);
    for (int k = 0; k < 3; ++k) {
      const double mhz = k == 0 ? g_.tiu_mhz : g_.dma_mhz;
      span(facts_[i].l[k], anchor_shift_[i], mhz);
      if (!cd.has_monitor[k] && cd.raw_records[k] == 0) continue;
      track t;
      t.device = g_.opt.device;
      t.unit = static_cast<std::uint8_t>(cd.core);
      t.eng = k == 0 ? engine::tiu : k == 1 ? engine::gdma : engine::sdma;
      t.freq_mhz = mhz;
      t.records = cd.raw_records[k];
      t.events = facts_[i].l[k].n[v];
      tracks.push_back(t);
    }
  }
  for (std::size_t p = 0; p < g_.ports.size(); ++p) {
    span(port_facts_[p], port_shift(p), g_.dma_mhz);
    track t;
    t.device = g_.opt.device;
    t.unit = static_cast<std::uint8_t>(g_.ports[p].port);
    t.eng = engine::cdma;
    t.freq_mhz = g_.dma_mhz;
    t.records = g_.ports[p].raw_records;
    t.events = port_facts_[p].n[v];
    tracks.push_back(t);
  }
  g_.info.sort_tracks();
  if (any) {
    g_.info.begin_ns = b;
    g_.info.end_ns = e;
  }
  g_.info.mode = g_.bmodel ? "bmodel" : operator_mode(any_dyn, any_extra);
}

/// Core i decoded again (or as the first pass kept it), aligned with the
/// global facts, trimmed and emitted.
template <class Chip>
core_output streamer<Chip>::second_pass(std::size_t i) {
  std::unique_ptr<decode_state> ps = i < kept_.size() ? std::move(kept_[i]) : nullptr;
  const bool kept = ps != nullptr;
  if (kept) {  // scope numbers as a decode from scope_base_[i] gives them
    for (auto& t : ps->tags)
      if (t.scope >= 0) t.scope += scope_base_[i];
  } else {
    ps = std::make_unique<decode_state>();
    start(*ps, scope_base_[i]);
    decode_core(*ps, i, nullptr);
  }
  decode_state& s = *ps;
  core_data& cd = s.cores.front();
  for (auto& l : cd.pmu) shift_cycles(l, anchor_shift_[i] + t0_);
  for (auto& pd : s.ports) shift_cycles(pd.pmu, (pd.core ? anchor_shift_[i] : 0) + t0_);
  if (!g_.bmodel) {
    for (auto& pd : s.ports) omit_system_op(pd.pmu, cdma_sys_code, false);
    omit_system_op(cd.pmu[0], tiu_sys_code, remain_);
    omit_system_op(cd.pmu[1], dma_sys_code, remain_);
    omit_system_op(cd.pmu[2], dma_sys_code, remain_);
  }
  s.info.diagnostics = {};  // the first pass has the earlier stages' notes
  core_output o;
  std::vector<track> tracks;  // the first pass made them
  std::vector<span_src> funcs;
  std::size_t out = emit_core<Chip>(s, cd, 0, tracks, funcs);
  o.core_events = out;
  o.core_names = s.info.names.size();
  for (auto& pd : s.ports) out = emit_port<Chip>(s, pd, out, tracks);
  s.events.resize(out);
  if (!kept) give(std::move(cd.cmds), spare_cmds_);  // kept cores: no decode follows
  o.events = std::move(s.events);
  o.spans = std::move(s.spans);
  o.names = std::move(s.info.names);
  o.diag = std::move(s.info.diagnostics);
  o.unmatched_out = s.unmatched_out;
  o.descriptors_unsupported = s.descriptors_unsupported;
  return o;
}

/// On a worker: events [0, core_events) and the spans renamed to the ids
/// commit() will give their names, by interning them the same way into
/// `names`, a copy of the dump's table as commit() will find it. Each event
/// goes to `each` as soon as it is renamed: one pass over the core's events
/// (a core is megabytes, beyond the caches; two passes read it twice).
template <class Chip>
template <class F>
void streamer<Chip>::rename(core_output& o, name_table& names, F&& each) const {
  const auto map = intern_names(o.names, o.core_names, names);
  for (std::size_t k = 0; k < o.core_events; ++k) each(o.events[k] = renamed(o.events[k], map));
  for (auto& sp : o.spans) sp = renamed(sp, map);
  o.global_names = true;
}

/// Names of events [0, core_events) into the dump's table (in the order the
/// materialized emit interns them), then the events to the sink (joined
/// from the core's part when a worker formatted them).
template <class Chip>
template <class S, class P>
void streamer<Chip>::commit(core_output& o, S& sink, std::vector<engine_event>& spans, P& part) {
  pthread_mutex_lock(&m_);  // workers copy the table (names_for)
  const auto map = intern_names(o.names, o.core_names, g_.info.names);
  pthread_mutex_unlock(&m_);
  if (o.global_names) {  // renamed by the worker, to the same ids
    if constexpr (forkable_sink<S>)
      sink.join(std::move(*part), std::span<const engine_event>(o.events.data(), o.core_events));
    spans.insert(spans.end(), o.spans.begin(), o.spans.end());
  } else {
    for (std::size_t k = 0; k < o.core_events; ++k) sink.write(renamed(o.events[k], map));
    for (const auto& sp : o.spans) spans.push_back(renamed(sp, map));
  }
  part = {};
  g_.info.diagnostics.merge(o.diag);
  g_.unmatched_out += o.unmatched_out;
  g_.descriptors_unsupported += o.descriptors_unsupported;
}

/// The CDMA ports' events, after every core (their new names are interned last).
template <class Chip>
template <class S>
void streamer<Chip>::write_ports(core_output& o, S& sink) {
  const auto map = intern_names(o.names, o.names.size(), g_.info.names);  // idempotent
  for (std::size_t k = o.core_events; k < o.events.size(); ++k)
    sink.write(renamed(o.events[k], map));
}

}  // namespace detail

/// Decodes the dump in `files` as chip `Chip` into `sink` (an event_sink,
/// sinks/sink.hpp):
/// begin(info), every hardware event in track_less order, the kernel-function
/// spans, finish(); the same calls, in the same order and with the same
/// values, as write_trace() of a cdm_decoder<Chip> with `opt` (the names of
/// info grow while events are written; diagnostics and the match.*
/// properties are complete at finish()). Returns the finished trace_info.
/// Memory: a few cores (stream_options), never the whole dump. Operands and
/// dependencies are not kept (cdm_options::keep_instructions is ignored).
template <cdm_chip Chip, class S>
trace_info stream(const io::dump_files& files, S& sink, const cdm_options& opt = {},
                  const stream_options& so = {}) {
  detail::streamer<Chip> s(files, opt);
  return s.run(sink, so);
}

}  // namespace tpuprof::cdm
