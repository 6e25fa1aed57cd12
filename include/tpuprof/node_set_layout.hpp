/// node_set_layout: where a bmprofile-family chip packs the fields of the 64-bit id of its
/// MCU NODE_SET / NODE_WAIT records; the chip's traits give it, the decoder reads with it.
#pragma once

namespace tpuprof::bmprofile {

/// Bit layout of the 64-bit id of an MCU NODE_SET / NODE_WAIT record.
struct node_set_layout {
  unsigned bd_lo, bd_width, gdma_lo, gdma_width, engine_lo, engine_width, func_lo, func_width,
      parallel_bit, version_lo;
};

}  // namespace tpuprof::bmprofile
