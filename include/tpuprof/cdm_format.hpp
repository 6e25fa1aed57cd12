/// cdm_format: vocabulary of the SG2260-family ("cdm") dump format that chip
/// traits and the cdm decoder share: memory kinds of DYN_DATA words and DMA
/// address tags, and the engine numbering of DYN_DATA words (each chip says its own).
#pragma once

#include <cstdint>
#include <string_view>

namespace tpuprof::cdm {

/// Memory kinds in DYN_DATA extra_info (2 bits each) and address tags.
enum class mem_kind : std::uint8_t { ddr = 0, l2m = 1, lmem = 2, none = 0xFF };

constexpr std::string_view name(mem_kind m) noexcept {
  switch (m) {
    case mem_kind::ddr:
      return "DDR";
    case mem_kind::l2m:
      return "L2M";
    case mem_kind::lmem:
      return "LMEM";
    default:
      return "";
  }
}

/// Memory kind of a 45-bit DMA address from its tag (address bits 44..40).
constexpr mem_kind mem_of_tag(std::uint32_t tag) noexcept {
  if (tag < 30) return mem_kind::ddr;
  return tag == 30 ? mem_kind::l2m : mem_kind::lmem;
}

/// Engine numbering used inside DYN_DATA words; differs between chips of the
/// family (each chip's traits hold theirs). -1 = the chip has no such engine.
struct dyn_engine_ids {
  int bd = 0;
  int gdma = 1;
  int hau = 2;
  int sdma = 3;
  int cdma = 4;
  int vsdma = 5;
};

}  // namespace tpuprof::cdm
