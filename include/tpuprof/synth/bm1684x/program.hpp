/// The command stream of a synthetic BM1684X dump: layer groups of GDMA loads, TIU ops and
/// stores with their intended device times, the cmd_*.dat buffers and global.profile's
/// node lines, generated together so that they agree.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/synth/bm1684x/descriptors.hpp>
#include <tpuprof/synth/bm1684x/options.hpp>
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
};

/// One GDMA tensor move of layer `p.layer_id` (load: DDR -> local, else local -> DDR).
template <class Rnd>
void add_dma(program& p, bool load, std::uint64_t earliest, Rnd& rnd) {
  const auto nan = std::numeric_limits<float>::quiet_NaN();
  ++p.gdma_id;
  const std::uint64_t bytes =
      write_dma_tensor(p.gcmd.grow(96), p.gdma_id & 0xFFFFF, p.bd_id & 0xFFFFF, load, rnd);
  const std::uint64_t dur = 60 + bytes / (load ? rnd(20, 60) : rnd(20, 50));
  const std::uint64_t begin = std::max(p.gdma_free, earliest) + rnd(0, 40);
  p.gdma.push_back({engine::gdma, p.bd_id, p.gdma_id, begin, begin + dur, bytes,
                    load ? direction::s2l : direction::l2s, nullptr, p.layer_id, nan});
  p.lines += "[bmprofile] local_layer: layer_id=" + std::to_string(p.layer_id) +
             (load ? " layer_type=Load layer_name=\n" : " layer_type=Store layer_name=\n");
  p.lines += "[bmprofile] gdma cmd_id bd_id=" + std::to_string(p.bd_id & 0xFFFFF) +
             " gdma_id=" + std::to_string(p.gdma_id & 0xFFFFF) +
             (load ? " gdma_dir=0 gdma_func=0\n" : " gdma_dir=1 gdma_func=0\n");
  p.gdma_free = begin + dur + 1;
  ++p.layer_id;
}

/// 1-4 TIU ops of one kind; the first waits for `ready` (the last load's end).
template <class Rnd>
void add_compute(program& p, std::uint64_t ready, Rnd& rnd) {
  const op_kind& kind = tiu_op_kinds[rnd(0, std::size(tiu_op_kinds) - 1)];
  p.lines += "[bmprofile] local_layer: layer_id=" + std::to_string(p.layer_id) +
             " layer_type=" + kind.layer + " layer_name=\n";
  const auto ops = rnd(1, 4);
  for (std::uint64_t k = 0; k < ops; ++k) {
    const std::uint64_t begin = k == 0 ? std::max(ready, p.tiu_free) : p.tiu_free + rnd(0, 30);
    const std::uint64_t dur = rnd(4, 3000);
    ++p.bd_id;
    const float r =
        write_tiu(kind.kind, p.tcmd.grow(kind.len), p.bd_id & 0xFFFFF, p.gdma_id & 0xFFFFF, rnd);
    p.tiu.push_back({engine::tiu, p.bd_id, p.gdma_id, begin, begin + dur, 0, direction::none, &kind,
                     p.layer_id, r});
    p.lines += "[bmprofile] bd cmd_id bd_id=" + std::to_string(p.bd_id & 0xFFFFF) +
               " gdma_id=" + std::to_string(p.gdma_id & 0xFFFFF) +
               " bd_func=" + std::to_string(kind.tsk) + "\n";
    p.tiu_free = begin + dur + 1;
  }
  ++p.layer_id;
}

/// The end markers: TIU sys.end (has a PMU record), GDMA SYS (has none).
template <class Rnd>
void add_end(program& p, Rnd& rnd) {
  const std::uint64_t begin = std::max(p.tiu_free, p.gdma_free);
  ++p.bd_id;
  const float r = write_tiu(tiu_kind::sys_end, p.tcmd.grow(16), p.bd_id & 0xFFFFF, 0, rnd);
  p.tiu.push_back({engine::tiu, p.bd_id, 0, begin, begin + 4, 0, direction::none, &sys_end_kind,
                   p.layer_id, r});
  p.lines += "[bmprofile] global_layer: layer_id=" + std::to_string(p.layer_id) +
             " layer_type=End layer_name=end\n";
  p.lines += "[bmprofile] bd cmd_id bd_id=" + std::to_string(p.bd_id & 0xFFFFF) +
             " gdma_id=0 bd_func=15\n";
  p.lines += "[bmprofile] gdma cmd_id bd_id=0 gdma_id=" + std::to_string(p.gdma_id + 1) +
             " gdma_dir=0 gdma_func=6\n";
  p.lines += "[bmprofile] end to run subnet_id=0\n[bmprofile] core_list=0,\n";
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
  if (o.firmware_records) p.fw.push_back({mon_start, mon_start + 7124, 196608});
  for (std::size_t L = 0; L < o.layers; ++L) {
    const auto loads = rnd(1, 3);
    std::uint64_t ready = 0;
    for (std::uint64_t k = 0; k < loads; ++k) {
      add_dma(p, true, 0, rnd);
      ready = p.gdma.back().end;
    }
    add_compute(p, ready, rnd);
    // store, after the compute (the GDMA waits for the last TIU op)
    if (rnd(0, 2) == 0) add_dma(p, false, p.tiu_free, rnd);
  }
  if (o.firmware_records && o.firmware_tail) {
    const std::uint64_t t = std::max(p.tiu_free, p.gdma_free) + 16000;
    p.tail.push_back({t, t + 2542, 57344});
    p.tail.push_back({t + 2546, t + 2993, 3584});
  }
  add_end(p, rnd);
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
