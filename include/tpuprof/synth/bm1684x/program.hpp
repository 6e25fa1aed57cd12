/// The command stream of a synthetic BM1684X dump: layer groups of GDMA loads, TIU ops and
/// stores with their intended device times, the cmd_*.dat buffers and global.profile's
/// node lines, generated together so that they agree.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/synth/bm1684x/descriptors.hpp>
#include <tpuprof/synth/bm1684x/inject.hpp>
#include <tpuprof/synth/bm1684x/options.hpp>
#include <tpuprof/synth/dep_schedule.hpp>
#include <tpuprof/synth/dump_writer.hpp>

namespace tpuprof::synth::bm1684x_detail {

/// A TIU op the layers use: names, encoding, layer type.
struct op_kind {
  const char* op;
  const char* type;
  unsigned tsk, eu, len;
  const char* layer;
  tiu_kind kind;
};
inline constexpr op_kind tiu_op_kinds[] = {
    {"conv.normal", "CONV", 0, 0, 64, "Conv2D", tiu_kind::conv},
    {"arith.add", "AR", 3, 2, 64, "Add", tiu_kind::add},
    {"pord.maxpooling", "PD", 1, 4, 64, "MaxPool", tiu_kind::maxpool},
    {"mm2.nn", "MM", 2, 4, 32, "MatMul", tiu_kind::mm2},
    {"arith.cast", "AR", 3, 14, 64, "Cast", tiu_kind::cast}};
inline constexpr op_kind sys_end_kind{"sys.end", "SYS", 15, 31, 16, "End", tiu_kind::sys_end};

/// Monitor start: MCU tick 274 x 40 ns.
inline constexpr std::uint64_t mon_start = 10960;

/// One generated command with its intended times.
struct cmd {
  engine eng;
  std::uint32_t bd_id, gdma_id;  // node line ids (own id + waited id)
  std::uint64_t begin, end;      // intended cycles (device timeline)
  std::uint64_t bytes;
  direction dir;
  const op_kind* kind;
  std::int32_t layer_id;
  float rate;  // TIU: alg / arch ops of the descriptor
};

/// A firmware GDMA command (no static node; paired with an MCU NODE_SET).
struct fw_rec {
  std::uint64_t begin, end, bytes;
};

/// The generated program and the generator's running state.
struct program {
  std::vector<cmd> tiu, gdma;
  std::vector<fw_rec> fw;    ///< before the static stream
  std::vector<fw_rec> tail;  ///< after it (ids restart at 0)
  // Command buffers (cmd_*.dat), written as the commands are generated:
  // valid descriptors that both decoders convert (operands, dtypes, shapes).
  byte_sink tcmd, gcmd;
  std::string lines;  ///< global.profile
  std::uint64_t gdma_free = mon_start + 12000, tiu_free = 0;
  std::uint32_t bd_id = 0, gdma_id = 0;
  std::int32_t layer_id = 0;
  // --deps: the program in issue order (queue 0 TIU, 1 GDMA), scheduled once it is complete
  // (schedule_program); index into `sched` of each TIU / static GDMA command.
  const dep_options* deps = nullptr;
  std::vector<sched_cmd> sched;
  std::vector<std::int64_t> tiu_sched, gdma_sched, fw_sched, tail_sched;
  std::int64_t gdma_gap = 1;  ///< extra issue latency of the next static GDMA command
  fault_plan fp;              ///< --inject: the fault and its random stream
  inject_record injected;     ///< --inject: the commands and layers it touched
};

/// --inject: notes a touched command (decoded cmd_id: 1-based id - 1) and its layer.
inline void note_injected(program& p, engine e, std::uint32_t id, std::int32_t layer) {
  p.injected.commands.push_back({0, e, (id - 1) & 0xFFFF});
  if (p.injected.layers.empty() || p.injected.layers.back() != layer)
    p.injected.layers.push_back(layer);
}

/// --deps: appends a command to the program in issue order; returns its index (-1 when off).
inline std::int64_t add_sched(program& p, engine e, std::uint64_t dur, std::uint64_t issue,
                              std::int64_t dep) {
  if (!p.deps) return -1;
  p.sched.push_back({e, static_cast<std::uint8_t>(e == engine::tiu ? 0 : 1),
                     static_cast<std::int64_t>(dur), static_cast<std::int64_t>(issue), dep, 0, 0});
  return static_cast<std::int64_t>(p.sched.size() - 1);
}
/// --deps: index into `sched` of TIU command `bd_id` / static GDMA command `gdma_id` (1-based).
inline std::int64_t tiu_index(const program& p, std::uint32_t bd_id) {
  return bd_id == 0 ? -1 : p.tiu_sched[bd_id - 1];
}
inline std::int64_t gdma_index(const program& p, std::uint32_t gdma_id) {
  return gdma_id == 0 ? -1 : p.gdma_sched[gdma_id - 1];
}

/// One GDMA tensor move of layer `p.layer_id` (load: DDR -> local, else local -> DDR). It
/// waits for TIU command `dep_tiu` under --deps, else names the last TIU command issued.
/// `f` (--inject) makes it a starved-tiu slow load or splits it into small-dma pieces.
template <class Rnd>
void add_dma(program& p, bool load, std::uint64_t earliest, Rnd& rnd, std::uint32_t dep_tiu = 0,
             fault f = fault::none) {
  const auto nan = std::numeric_limits<float>::quiet_NaN();
  ++p.gdma_id;
  const std::uint32_t dep = p.deps ? dep_tiu : p.bd_id;
  std::array<std::byte, 96> tmpl{};
  std::byte* d = f == fault::small_dma ? tmpl.data() : p.gcmd.grow(96);
  const std::uint64_t bytes = write_dma_tensor(d, p.gdma_id & 0xFFFFF, dep & 0xFFFFF, load, rnd);
  std::uint64_t dur = 60 + bytes / (load ? rnd(20, 60) : rnd(20, 50));
  const std::uint64_t issue = rnd(0, 40);
  if (f == fault::starved_tiu) dur *= static_cast<std::uint64_t>(slow_load(d));
  // small-dma: loads of <= 16 KiB as pieces of <= 256 B (else written whole)
  static constexpr auto& T = regs::bm1684x::dma_tensor;
  static constexpr unsigned sizes[] = {1, 2, 4, 0, 0, 2};
  const unsigned isz = sizes[get(d, fld(T, "src_data_format"))];
  const std::uint64_t elems = bytes / isz, per = inject_params::small_dma_bytes / isz;
  const std::uint64_t pieces =
      f != fault::small_dma ? 1
      : bytes <= inject_params::small_dma_bytes * inject_params::small_dma_pieces
          ? (elems + per - 1) / per
          : 1;
  if (f == fault::small_dma && pieces == 1) std::copy(tmpl.begin(), tmpl.end(), p.gcmd.grow(96));
  p.lines += "[bmprofile] local_layer: layer_id=" + std::to_string(p.layer_id) +
             (load ? " layer_type=Load layer_name=\n" : " layer_type=Store layer_name=\n");
  for (std::uint64_t k = 0; k < pieces; ++k) {
    if (k > 0) ++p.gdma_id;
    std::uint64_t b = bytes, dk = dur;
    if (pieces > 1) {
      b = small_piece(p.gcmd.grow(96), tmpl.data(), p.gdma_id & 0xFFFFF,
                      std::min(per, elems - k * per), k * per, isz);
      dk = static_cast<std::uint64_t>(inject_params::small_dma_cycles);
    }
    const std::uint64_t gap = k == 0 ? issue : 1;
    const std::uint64_t begin = std::max(p.gdma_free, earliest) + gap;
    p.gdma.push_back({engine::gdma, dep, p.gdma_id, begin, begin + dk, b,
                      load ? direction::s2l : direction::l2s, nullptr, p.layer_id, nan});
    if (p.deps) {
      p.gdma_sched.push_back(add_sched(p, engine::gdma, dk, p.gdma_gap + gap, tiu_index(p, dep)));
      p.gdma_gap = 1;
    }
    if (pieces > 1 || f == fault::starved_tiu)
      note_injected(p, engine::gdma, p.gdma_id, p.layer_id);
    p.lines += "[bmprofile] gdma cmd_id bd_id=" + std::to_string(dep & 0xFFFFF) +
               " gdma_id=" + std::to_string(p.gdma_id & 0xFFFFF) +
               (load ? " gdma_dir=0 gdma_func=0\n" : " gdma_dir=1 gdma_func=0\n");
    p.gdma_free = begin + dk + 1;
  }
  ++p.layer_id;
}

/// 1-4 TIU ops of one kind; the first waits for `ready` (the last load's end). `f` (--inject):
/// lane-underuse (conv and mm2 ops) or bank-conflict.
template <class Rnd>
void add_compute(program& p, std::uint64_t ready, Rnd& rnd, fault f = fault::none) {
  const op_kind& kind = tiu_op_kinds[rnd(0, std::size(tiu_op_kinds) - 1)];
  p.lines += "[bmprofile] local_layer: layer_id=" + std::to_string(p.layer_id) +
             " layer_type=" + kind.layer + " layer_name=\n";
  const auto ops = rnd(1, 4);
  for (std::uint64_t k = 0; k < ops; ++k) {
    const std::uint64_t issue = k == 0 ? 0 : rnd(0, 30);
    const std::uint64_t begin = k == 0 ? std::max(ready, p.tiu_free) : p.tiu_free + issue;
    std::uint64_t dur = rnd(4, 3000);
    ++p.bd_id;
    std::byte* d = p.tcmd.grow(kind.len);
    float r = write_tiu(kind.kind, d, p.bd_id & 0xFFFFF, p.gdma_id & 0xFFFFF, rnd);
    if (f == fault::lane_underuse && (kind.kind == tiu_kind::conv || kind.kind == tiu_kind::mm2)) {
      const std::uint64_t c = 64 * p.fp.draw(0, 1) + p.fp.draw(16, 48);
      r = underuse_lanes(kind.kind, d, c);
      dur = dur * align_up(c, inject_params::lanes) / c;
      note_injected(p, engine::tiu, p.bd_id, p.layer_id);
    } else if (f == fault::bank_conflict) {
      conflict_bank(kind.kind, d);
      dur *= inject_params::bank_conflict_factor;
      note_injected(p, engine::tiu, p.bd_id, p.layer_id);
    }
    p.tiu.push_back({engine::tiu, p.bd_id, p.gdma_id, begin, begin + dur, 0, direction::none, &kind,
                     p.layer_id, r});
    if (p.deps)
      p.tiu_sched.push_back(add_sched(p, engine::tiu, dur, 1 + issue, gdma_index(p, p.gdma_id)));
    p.lines += "[bmprofile] bd cmd_id bd_id=" + std::to_string(p.bd_id & 0xFFFFF) +
               " gdma_id=" + std::to_string(p.gdma_id & 0xFFFFF) +
               " bd_func=" + std::to_string(kind.tsk) + "\n";
    p.tiu_free = begin + dur + 1;
  }
  ++p.layer_id;
}

/// The end markers: TIU sys.end (has a PMU record; under --deps it waits for the last GDMA
/// command), GDMA SYS (has none).
template <class Rnd>
void add_end(program& p, Rnd& rnd) {
  const std::uint64_t begin = std::max(p.tiu_free, p.gdma_free);
  const std::uint32_t dep = p.deps ? p.gdma_id : 0;
  ++p.bd_id;
  const float r = write_tiu(tiu_kind::sys_end, p.tcmd.grow(16), p.bd_id & 0xFFFFF, dep, rnd);
  p.tiu.push_back({engine::tiu, p.bd_id, dep, begin, begin + 4, 0, direction::none, &sys_end_kind,
                   p.layer_id, r});
  if (p.deps) p.tiu_sched.push_back(add_sched(p, engine::tiu, 4, 1, gdma_index(p, dep)));
  p.lines += "[bmprofile] global_layer: layer_id=" + std::to_string(p.layer_id) +
             " layer_type=End layer_name=end\n";
  p.lines += "[bmprofile] bd cmd_id bd_id=" + std::to_string(p.bd_id & 0xFFFFF) +
             " gdma_id=" + std::to_string(dep & 0xFFFFF) + " bd_func=15\n";
  p.lines += "[bmprofile] gdma cmd_id bd_id=0 gdma_id=" + std::to_string(p.gdma_id + 1) +
             " gdma_dir=0 gdma_func=6\n";
  p.lines += "[bmprofile] end to run subnet_id=0\n[bmprofile] core_list=0,\n";
}

/// --deps: the times of every command from the program's dependencies (dep_schedule.hpp).
inline void schedule_program(program& p) {
  std::int64_t free[2] = {0, static_cast<std::int64_t>(mon_start)};
  schedule(p.sched, free, *p.deps);
  auto at = [&](std::int64_t i, std::uint64_t& b, std::uint64_t& e) {
    b = static_cast<std::uint64_t>(p.sched[static_cast<std::size_t>(i)].begin);
    e = static_cast<std::uint64_t>(p.sched[static_cast<std::size_t>(i)].end);
  };
  for (std::size_t k = 0; k < p.tiu.size(); ++k) at(p.tiu_sched[k], p.tiu[k].begin, p.tiu[k].end);
  for (std::size_t k = 0; k < p.gdma.size(); ++k)
    at(p.gdma_sched[k], p.gdma[k].begin, p.gdma[k].end);
  for (std::size_t k = 0; k < p.fw.size(); ++k) at(p.fw_sched[k], p.fw[k].begin, p.fw[k].end);
  for (std::size_t k = 0; k < p.tail.size(); ++k)
    at(p.tail_sched[k], p.tail[k].begin, p.tail[k].end);
  p.tiu_free = p.tiu.back().end + 1;
  p.gdma_free = p.gdma.empty() ? p.gdma_free : p.gdma.back().end + 1;
}

/// Generates the program: firmware records, `o.layers` layer groups, the firmware tail,
/// the end markers and the PMU buffers' memory lines.
template <class Rnd>
program make_program(const bm1684x_options& o, Rnd& rnd) {
  program p;
  p.tcmd.data.reserve(o.layers * 160 + 256);  // ~2.5 TIU commands of <= 64 B per layer
  p.gcmd.data.reserve(o.layers * 240 + 256);  // ~2.3 GDMA commands of 96 B per layer
  p.tiu.reserve(o.layers * 5 / 2 + 1);
  p.gdma.reserve(o.layers * 7 / 3 + 1);
  p.lines = "[bmprofile] arch=3\n[bmprofile] net_name=synthetic_net\n[bmprofile] tpu_freq=" +
            std::to_string(o.tpu_freq_mhz) + "\n[bmprofile] is_mlir=1\n...Start Profile Log...\n" +
            "[bmprofile] start to run subnet_id=0\n";
  // firmware GDMA command before the static stream (paired with the NODE_SET)
  p.deps = o.deps.enabled ? &o.deps : nullptr;
  if (o.firmware_records) {
    p.fw.push_back({mon_start, mon_start + 7124, 196608});
    p.fw_sched.push_back(add_sched(p, engine::gdma, 7124, 0, -1));
  }
  p.gdma_gap = o.firmware_records ? 4876 : 12000;  // --deps: the first static GDMA's issue
  std::uint32_t done[2] = {0, 0};  // last TIU command of the layers before the previous one
  p.fp.rule = p.deps ? o.inject : fault::none;
  p.fp.rng.seed(o.seed ^ 0x696E6A6563742Dull);
  for (std::size_t L = 0; L < o.layers; ++L) {
    const fault f = p.fp.hit(L, o.layers) ? p.fp.rule : fault::none;  // --inject
    const auto loads = rnd(1, 3);
    std::uint64_t ready = 0;
    for (std::uint64_t k = 0; k < loads; ++k) {
      // --deps: the buffer of layer L-2 is free again (serial-dma: only after layer L-1)
      const bool serial = f == fault::serial_dma && L > 0;
      const bool late = f == fault::dispatch && k == 0;
      add_dma(
          p, true, 0, rnd, serial ? done[1] : done[0],
          f == fault::small_dma || (f == fault::starved_tiu && k + 1 == loads) ? f : fault::none);
      if (late)
        p.sched[static_cast<std::size_t>(p.gdma_sched.back())].stall =
            static_cast<std::int64_t>(p.fp.draw(20000, 50000));
      if (serial || late) note_injected(p, engine::gdma, p.gdma_id, p.layer_id - 1);
      ready = p.gdma.back().end;
    }
    add_compute(p, ready, rnd,
                f == fault::lane_underuse || f == fault::bank_conflict ? f : fault::none);
    done[0] = done[1];
    done[1] = p.bd_id;
    // store, after the compute (the GDMA waits for the last TIU op)
    if (rnd(0, 2) == 0) add_dma(p, false, p.tiu_free, rnd, p.bd_id);
  }
  if (o.firmware_records && o.firmware_tail) {
    const std::uint64_t t = std::max(p.tiu_free, p.gdma_free) + 16000;
    p.tail.push_back({t, t + 2542, 57344});
    p.tail.push_back({t + 2546, t + 2993, 3584});
    p.tail_sched.push_back(add_sched(p, engine::gdma, 2542, 16001, -1));  // GDMA order only
    p.tail_sched.push_back(add_sched(p, engine::gdma, 447, 4, -1));
  }
  add_end(p, rnd);
  if (p.deps) schedule_program(p);
  const std::uint64_t tiu_cap = std::max<std::uint64_t>(1u << 20, p.tiu.size() + 1);
  const std::uint64_t gdma_cap = std::max<std::uint64_t>(1u << 20, p.gdma.size() + 4);
  p.lines += "[bmprofile] mtype=1 addr=4901421056 size=" + std::to_string(32 * tiu_cap) +
             " alloc=1 free=2 desc=bdc_perf_monitor\n";
  p.lines += "[bmprofile] mtype=1 addr=4952035328 size=" + std::to_string(256 * gdma_cap) +
             " alloc=1 free=2 desc=gdma_perf_monitor\n";
  return p;
}

/// The command buffers, TIU then GDMA, each ending with its sys command + 128-B alignment.
inline void finish_command_buffers(program& p) {
  p.tcmd.zeros((128 - p.tcmd.data.size() % 128) % 128);
  p.gcmd.u64(8 | (std::uint64_t{(p.gdma_id + 1) & 0xFFFFF} << 9) |
             (std::uint64_t{6} << 32));  // dma.sys, short
  p.gcmd.u64(p.bd_id & 0xFFFFF);
  p.gcmd.zeros((128 - p.gcmd.data.size() % 128) % 128);
}

}  // namespace tpuprof::synth::bm1684x_detail
