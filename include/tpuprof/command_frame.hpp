/// command_frame: one command of a bmprofile-family command buffer as the chip frames it
/// (length, op name, ids); the chip's traits produce it, the decoder consumes it.
#pragma once

#include <cstdint>
#include <string_view>

namespace tpuprof::bmprofile {

/// One framed command of a cmd_*.dat buffer: its length and identity.
struct command_frame {
  unsigned length = 0;       ///< bytes
  std::string_view op;       ///< op name, e.g. "arith.cast"
  std::uint32_t cmd_id = 0;  ///< own id (bd_id / gdma_id)
  std::uint32_t dep_id = 0;  ///< id of the other engine's command it waits for
  unsigned type = 0;         ///< tsk_typ / cmd_type
  unsigned eu = 0;           ///< tsk_eu_typ / special function
};

}  // namespace tpuprof::bmprofile
