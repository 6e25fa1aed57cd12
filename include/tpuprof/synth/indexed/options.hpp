/// What a synthetic position-paired dump (BM1688, CV184X) looks like (synth::indexed_dump).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tpuprof::synth {

struct indexed_options {
  std::uint64_t seed = 1;
  std::size_t layers = 100;  ///< per core: each 1-3 GDMA loads, 1-4 TIU ops, 0-1 store
  /// 2 (BM1688): both start with send_msg + wait_msg
  unsigned cores = 1;
  /// Several cores: barriers inside the network (send_msg / wait_msg with one reused message
  /// id, synth/indexed/program.hpp). 0 keeps the dumps of before (the vendor-checked ones).
  unsigned barriers = 0;
  /// Which 32-bit PMU counter wraps inside the run: 0 none, 1 TIU, 2 GDMA. The counters count
  /// one common ns time base in each engine's clock, so they wrap at different times.
  unsigned cycle_wrap = 0;
};

}  // namespace tpuprof::synth
