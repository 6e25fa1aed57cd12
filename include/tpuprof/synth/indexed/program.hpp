/// The command streams of a synthetic position-paired dump, one per core: layer groups of GDMA
/// loads, TIU ops and stores with their intended times (ns on one timeline), the firmware GDMA
/// transfers around them, the cmd_*.dat buffers and global.profile's lines, generated together
/// so that they agree.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/chips/common/sync_messages.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/synth/dump_writer.hpp>
#include <tpuprof/synth/indexed/encode.hpp>
#include <tpuprof/synth/indexed/layout.hpp>
#include <tpuprof/synth/indexed/options.hpp>

namespace tpuprof::synth::indexed_detail {

/// One command of a core's list with its intended times (ns).
struct icmd {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t bytes = 0;
  direction dir = direction::none;
  std::string_view cls, op;
  std::int32_t layer_id = -1;  ///< -1: no node line (the final end commands)
  float rate = std::numeric_limits<float>::quiet_NaN();
};

/// A firmware GDMA transfer (a PMU record without a command, dropped by the id-0 trim).
struct fw_rec {
  std::uint64_t begin, end, bytes;
};

/// One core's program; `gdma.back()` is the chain end, which has no PMU record.
struct core_program {
  std::vector<icmd> tiu, gdma;
  std::vector<fw_rec> fw_before, fw_after;
  byte_sink tcmd, gcmd;
  std::uint64_t tiu_free = 0, gdma_free = 0;
};

/// Every core and global.profile's body.
struct program {
  std::vector<core_program> cores;
  std::string lines;
  std::int32_t layer_id = 10;
  std::uint64_t end_ns = 0;
};

/// The time of every core's first wait_msg (the vendor aligns cores there).
inline constexpr std::uint64_t barrier_ns = 40000;

inline void layer_line(program& p, bool local, std::string_view type) {
  p.lines += std::string("[bmprofile] ") + (local ? "local_layer" : "global_layer") +
             ": layer_id=" + std::to_string(p.layer_id) + " layer_type=" + std::string(type) +
             " layer_name=\n";
}

/// Appends TIU command `o` of core `c` at `begin` for `dur` ns, with its node line; a send /
/// wait carries message `msg` with count `cnt` and waits for no GDMA command.
template <class Chip, class Rnd>
void add_tiu(program& p, unsigned c, const tiu_op& o, std::uint64_t begin, std::uint64_t dur,
             Rnd& rnd, std::uint32_t msg = 0, std::uint32_t cnt = 0) {
  auto& k = p.cores[c];
  const bool sync = o.kind == tiu_kind::send || o.kind == tiu_kind::wait;
  const auto dep = sync ? 0u : static_cast<std::uint32_t>(k.gdma.size());
  std::uint64_t imm = 0;
  if constexpr (requires { Chip::messages; })
    imm = chips::common::message_value(Chip::messages.tiu, msg, cnt);
  const float r = write_tiu<Chip>(k.tcmd, o, dep, imm, rnd);
  const bool end = o.kind == tiu_kind::end;
  k.tiu.push_back({begin, begin + dur, 0, direction::none, o.cls, o.op, end ? -1 : p.layer_id, r});
  k.tiu_free = begin + dur + 1;
  if (!end)
    p.lines += "[bmprofile] gdma cmd_id bd_id=0 gdma_id=" + std::to_string(dep) +
               " bd_func=" + std::to_string(isa<indexed_layout<Chip>>(true, o.cls, o.op).type) +
               " core=" + std::to_string(c) + "\n";
}

/// One dma.tensor of core `c` in its own layer (load: DDR -> local, else local -> DDR).
template <class Chip, class Rnd>
void add_dma(program& p, unsigned c, bool load, std::uint64_t earliest, Rnd& rnd) {
  auto& k = p.cores[c];
  const auto dep = static_cast<std::uint32_t>(k.tiu.size());
  layer_line(p, true, load ? "Load" : "Store");
  const std::uint64_t bytes = write_dma_tensor<Chip>(k.gcmd, dep, load, rnd);
  const std::uint64_t dur = 60 + bytes / rnd(8, 24);
  const std::uint64_t begin = std::max(k.gdma_free, earliest) + rnd(0, 40);
  k.gdma.push_back({begin, begin + dur, bytes, load ? direction::s2l : direction::l2s, "DMA_tensor",
                    "dma.tensor", p.layer_id});
  k.gdma_free = begin + dur + 1;
  p.lines += "[bmprofile] gdma cmd_id bd_id=" + std::to_string(dep) +
             " gdma_id=0 gdma_dir=0 gdma_func=0 core=" + std::to_string(c) + "\n";
  ++p.layer_id;
}

/// 1-4 TIU ops of one kind; the first waits for `ready` (the last load's end).
template <class Chip, class Rnd>
void add_compute(program& p, unsigned c, std::uint64_t ready, Rnd& rnd) {
  const tiu_op& o = tiu_ops[rnd(0, std::size(tiu_ops) - 1)];
  layer_line(p, true, o.layer);
  const auto ops = rnd(1, 4);
  for (std::uint64_t i = 0; i < ops; ++i) {
    auto& k = p.cores[c];
    const std::uint64_t begin = i == 0 ? std::max(ready, k.tiu_free) : k.tiu_free + rnd(0, 30);
    add_tiu<Chip>(p, c, o, begin, rnd(20, 3000), rnd);
  }
  ++p.layer_id;
}

/// Message ids of the barriers: the first (its sends belong to the previous run: the
/// vendor drops a leading send record) and the ones inside the network (one id reused).
inline constexpr std::uint32_t first_barrier_msg = 3, barrier_msg = 5;
/// ns from the last send of a barrier to the waits it releases.
inline constexpr std::uint64_t barrier_latency = 4;

/// Core `c` up to its layers: firmware transfers, then (several cores) the first barrier:
/// send, then wait for the other cores at barrier_ns.
template <class Chip, class Rnd>
void core_head(program& p, unsigned c, const indexed_options& o, Rnd& rnd) {
  using L = indexed_layout<Chip>;
  auto& k0 = p.cores[c];
  std::uint64_t t = rnd(0, 2000);
  for (unsigned i = 0; i < L::firmware_before; ++i) {  // e.g. copying the input in
    const std::uint64_t d = rnd(3000, 6000);
    k0.fw_before.push_back({t, t + d, 24576 * rnd(1, 4)});
    t += d + rnd(200, 800);
  }
  p.cores[c].gdma_free = t + rnd(1000, 5000);
  if (o.cores > 1) {  // send, then wait for the other cores
    layer_line(p, false, send_op.layer);
    add_tiu<Chip>(p, c, send_op, barrier_ns - rnd(1500, 2500), rnd(20, 60), rnd, first_barrier_msg,
                  o.cores);
    add_tiu<Chip>(p, c, wait_op, barrier_ns, rnd(100, 2000), rnd, first_barrier_msg, o.cores);
    ++p.layer_id;
  }
}

/// Layers [from, to) of core `c`.
template <class Chip, class Rnd>
void core_layers(program& p, unsigned c, std::size_t from, std::size_t to, Rnd& rnd) {
  for (std::size_t i = from; i < to; ++i) {
    const auto loads = rnd(1, 3);
    std::uint64_t ready = 0;
    for (std::uint64_t j = 0; j < loads; ++j) {
      add_dma<Chip>(p, c, true, 0, rnd);
      ready = p.cores[c].gdma.back().end;
    }
    add_compute<Chip>(p, c, ready, rnd);
    if (rnd(0, 2) == 0) add_dma<Chip>(p, c, false, p.cores[c].tiu_free, rnd);
  }
}

/// A barrier of every core's TIU inside the network: each core sends `barrier_msg` (count:
/// the cores' waits) when its TIU is free, all sends last equally long (so the last to begin
/// is the last to end, the send every wait pairs with), and every wait begins
/// barrier_latency after the last send ended.
template <class Chip, class Rnd>
void barrier(program& p, Rnd& rnd) {
  const auto n = static_cast<std::uint32_t>(p.cores.size());
  const std::uint64_t dur = rnd(20, 60);
  std::vector<std::uint64_t> begin(n);
  std::uint64_t release = 0;
  for (unsigned c = 0; c < n; ++c) {
    begin[c] = p.cores[c].tiu_free + rnd(0, 30);
    while (std::find(begin.begin(), begin.begin() + c, begin[c]) != begin.begin() + c) ++begin[c];
    release = std::max(release, begin[c] + dur + barrier_latency);
  }
  for (unsigned c = 0; c < n; ++c) {
    layer_line(p, false, send_op.layer);
    add_tiu<Chip>(p, c, send_op, begin[c], dur, rnd, barrier_msg, n);
    add_tiu<Chip>(p, c, wait_op, release, rnd(20, 60), rnd, barrier_msg, n);
    ++p.layer_id;
  }
}

/// Core `c` after its layers: the end commands and the firmware transfers after the network.
template <class Chip, class Rnd>
void core_tail(program& p, unsigned c, Rnd& rnd) {
  using L = indexed_layout<Chip>;
  auto& k = p.cores[c];
  const std::uint64_t end = std::max(k.tiu_free, k.gdma_free) + rnd(10, 100);
  add_tiu<Chip>(p, c, end_op, end, rnd(8, 20), rnd);
  begin_cmd<L>(k.gcmd, false, "sDMA_sys", "dma.sys.chain_end",
               static_cast<std::uint32_t>(k.tiu.size()));
  k.gdma.push_back({end, end, 0, direction::none, "sDMA_sys", "dma.sys.chain_end", -1});
  const std::uint64_t f = k.tiu_free + 16000;  // copying the output out
  k.fw_after.push_back({f, f + 2542, 57344});
  k.fw_after.push_back({f + 2546, f + 2993, 3584});
  // command lists end with the end command; zero padding to 128 bytes (< 128: the vendor stops)
  k.tcmd.zeros((128 - k.tcmd.data.size() % 128) % 128);
  k.gcmd.zeros((128 - k.gcmd.data.size() % 128) % 128);
  p.end_ns = std::max(p.end_ns, f + 2993);
}

/// Every core's program and global.profile.
template <class Chip, class Rnd>
program make_program(const indexed_options& o, Rnd& rnd) {
  using L = indexed_layout<Chip>;
  program p;
  p.cores.resize(o.cores);
  p.lines =
      "[bmprofile] arch=" + std::to_string(Chip::arch_id) +
      "\n[bmprofile] net_name=synthetic_net\n[bmprofile] tpu_freq=" + std::string(L::tpu_freq) +
      "\n[bmprofile] is_mlir=1\n...Start Profile Log...\n"
      "[bmprofile] start to run subnet_id=0\n";
  if (o.cores == 1 || o.barriers == 0) {  // each core in one pass (the dumps of before)
    for (unsigned c = 0; c < o.cores; ++c) {
      core_head<Chip>(p, c, o, rnd);
      core_layers<Chip>(p, c, 0, o.layers, rnd);
      core_tail<Chip>(p, c, rnd);
    }
  } else {  // layer slices of every core, a barrier between two slices
    for (unsigned c = 0; c < o.cores; ++c) core_head<Chip>(p, c, o, rnd);
    const std::size_t n = o.barriers + 1;
    for (std::size_t s = 0; s < n; ++s) {
      if (s > 0) barrier<Chip>(p, rnd);
      for (unsigned c = 0; c < o.cores; ++c)
        core_layers<Chip>(p, c, o.layers * s / n, o.layers * (s + 1) / n, rnd);
    }
    for (unsigned c = 0; c < o.cores; ++c) core_tail<Chip>(p, c, rnd);
  }
  p.lines += "[bmprofile] end to run subnet_id=0\n[bmprofile] core_list=";
  for (unsigned c = 0; c < o.cores; ++c) p.lines += std::to_string(c) + ",";
  p.lines +=
      "\n[bmprofile] mtype=1 addr=4917370880 size=33554432 alloc=1 free=2 "
      "desc=bdc_perf_monitor\n[bmprofile] mtype=1 addr=4950925312 size=268435456 "
      "alloc=1 free=2 desc=gdma_perf_monitor\n";
  return p;
}

}  // namespace tpuprof::synth::indexed_detail
