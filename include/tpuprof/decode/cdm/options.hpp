/// cdm_options: settings of the cdm decoder (clocks, device, rule set, what to keep).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <tpuprof/time_base.hpp>

namespace tpuprof::cdm {

/// Which rule set decodes a dump.
enum class capture_path : std::uint8_t {
  automatic,  ///< bmodel rules when global.profile has a `bmodel` line, or a core
              ///< file has BLOCK_DES_BDC/GDMA/SDMA and no DYN_DATA
  op,         ///< operator path (bigTpuProfile)
  bmodel,     ///< bmodel path (tpu-mlir PerfAI)
};

/// Decoder settings.
struct cdm_options {
  /// Clocks for ns; unset = `tpu_freq` of global.profile if present and not 0,
  /// else the chip default.
  std::optional<double> tiu_freq_mhz;
  std::optional<double> dma_freq_mhz;
  std::uint8_t device = 0;
  capture_path path = capture_path::automatic;
  /// bmodel path: `vendor` shifts GDMA/SDMA so their 2nd init record ends with
  /// TIU's, as tpu-mlir does (its golden output depends on it); the counter is
  /// shared, so `shared_counter` keeps the hardware's own phase. The operator
  /// path is on the shared counter either way.
  time_base time = time_base::vendor;
  /// Keep the decoded descriptor (operands, memory ranges, ops) of every TIU,
  /// GDMA and SDMA event that has one, for command() / operands(); about 0.5-1
  /// KiB per such event, so off by default. uArch rates are set either way
  /// (unless `uarch` is off; the kept instruction has its ops regardless).
  bool keep_instructions = false;
  /// Compute the uArch rate of every TIU command with a register image (mode 2,
  /// bmodel path): ~70 ns per TIU command, a quarter of a mode-2 decode. Off
  /// leaves uarch_rate NaN (for timeline-only uses of large dumps).
  bool uarch = true;
};

/// How cdm::stream uses the machine.
struct stream_options {
  unsigned threads = 0;  ///< threads decoding cores (0 = all hardware threads)
  /// Bytes the cores in flight may take (estimated at 100 B per PMU record of
  /// a core); one core is always allowed, whatever its size. The default is
  /// 256 MB of peak RSS (docs/performance.md's target) less 32 MiB for the
  /// rest of the process (binary, output buffers, names).
  std::size_t memory_budget = std::size_t{224} << 20;
  /// A forkable_sink (sinks/sink.hpp) formats the events of cores on the
  /// worker threads when the largest core has at least this many PMU
  /// records: smaller cores do not pay for their parts (measured on 2 cores:
  /// 4.5 k records per core lose, 11 k and 22 k win; docs/performance.md).
  std::size_t fork_records = 10'000;
};

}  // namespace tpuprof::cdm
