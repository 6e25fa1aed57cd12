/// What a synthetic BM1684X dump looks like (synth::bm1684x_dump).
#pragma once

#include <cstddef>
#include <cstdint>

#include <tpuprof/synth/dep_schedule.hpp>
#include <tpuprof/synth/inject.hpp>

namespace tpuprof::synth {

struct bm1684x_options {
  std::uint64_t seed = 1;
  std::size_t layers = 200;  ///< each: 1-3 GDMA loads, 1-4 TIU ops, 0-1 store
  std::uint32_t tpu_freq_mhz = 1000;
  /// Raw cycle counters start this far below 2^32, so large runs wrap.
  std::uint32_t cycles_before_wrap = 50'000'000;
  bool node_lines = true;        ///< write bd/gdma node lines into global.profile
  bool firmware_records = true;  ///< MCU NODE_SET + its GDMA PMU record, as real runtimes do
  /// Two more firmware GDMA commands after the static stream (ids restart at 0),
  /// as in the real BM1684X capture.
  bool firmware_tail = true;
  /// Let a record straddle the first cycle-counter wrap (its end wraps alone).
  /// Off by default: tpu-mlir's tpu_profile.py then leaves that end 2^32 short
  /// (and divides by zero on a GDMA record), see docs/chips/bm1684x.md.
  bool wrap_inside_record = false;
  /// Schedule every command from the dependencies written into its descriptor (a load waits
  /// for the last TIU command of the layer before the previous one, TIU ops for the layer's
  /// last load, a store for the layer's last TIU op, sys.end for the last GDMA command), with
  /// durations scaled per engine. Off (default): the historical schedule, byte-identical dumps.
  dep_options deps{};
  /// With deps: one known fault (synth/inject.hpp; bm1684x/inject.hpp); none = a clean dump.
  fault inject = fault::none;
};

}  // namespace tpuprof::synth
