/// pmu_record: the fields of one PMU record as a chip lays them out; chips whose records the
/// decoder pairs by position (bmprofile_chip with `pmu_indexed`) read their records into it.
#pragma once

#include <cstdint>

namespace tpuprof::bmprofile {

/// One PMU record, chip layout removed.
struct pmu_record {
  std::uint32_t start = 0;  ///< raw start, engine cycles
  std::uint32_t end = 0;    ///< raw end, engine cycles
  std::uint32_t id = 0;     ///< raw command id (the index of the command in its list)
  std::uint64_t bytes = 0;  ///< bytes moved (DMA), as the vendor counts them
  bool has_bytes = false;
};

}  // namespace tpuprof::bmprofile
