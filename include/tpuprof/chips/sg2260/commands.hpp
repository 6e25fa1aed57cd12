/// sg2260 commands: register classes and lengths of SG2260-family commands
/// (format-sg2260.md §2.8); the members differ in a few lengths and in which
/// TIU forms exist, which each chip's `framing` says.
#pragma once

#include <initializer_list>
#include <optional>
#include <string_view>

namespace tpuprof::chips::sg2260 {

/// Where command lengths differ between the chips of the family.
struct framing {
  bool long_tiu_forms = true;            ///< 1024-bit TIU forms besides the short ones, and LAR
  unsigned rand_bits = 1024;             ///< RAND (TIU tsk 8) length
  unsigned dma_cw_transpose_bits = 768;  ///< DMA_cw transpose (type 4); 0 = no such class
  unsigned cdma_send_bits = 256;         ///< CDMA send, general, receive (types 0, 3, 4)
  unsigned cdma_tcp_bits = 128;          ///< CDMA tcp send / receive (8, 9); 0 = none
};

/// Register class of a TIU command: vendor class name and length in bits.
struct tiu_class {
  std::string_view name;
  unsigned bits;
};

namespace detail {
constexpr bool in(unsigned eu, std::initializer_list<unsigned> set) noexcept {
  for (auto v : set)
    if (v == eu) return true;
  return false;
}
constexpr bool in_range(unsigned eu, unsigned lo, unsigned hi) noexcept {
  return eu >= lo && eu <= hi;
}
}  // namespace detail

/// Class of a TIU command from its header; nullopt when no class matches (the
/// vendor raises). Without long forms (AKSV) only the short classes plus RAND,
/// SYS, SYS_TR_ACC exist.
constexpr std::optional<tiu_class> find_tiu_class(unsigned tsk, unsigned eu, bool is_short,
                                                  const framing& fr) noexcept {
  using detail::in;
  using detail::in_range;
  const bool v = !fr.long_tiu_forms;
  auto pick = [&](std::string_view l, std::string_view s,
                  unsigned sbits) -> std::optional<tiu_class> {
    if (is_short) return tiu_class{s, sbits};
    if (v) return std::nullopt;
    return tiu_class{l, 1024};
  };
  switch (tsk) {
    case 0:
      if (in(eu, {0, 2})) return pick("CONV", "sCONV", 512);
      if (in(eu, {1, 4})) return pick("CONV_BW", "sCONV_BW", 512);
      break;
    case 1:
      if (in(eu, {0, 1, 3, 4, 5, 6, 7, 8})) return pick("PorD", "sPorD", 512);
      break;
    case 2:
      if (eu == 1) return pick("MM", "sMM", 384);
      if (in(eu, {4, 5, 6, 7})) return pick("MM2", "sMM2", 256);
      break;
    case 3:
      if (in_range(eu, 0, 16) || in_range(eu, 18, 23) || in_range(eu, 26, 28))
        return pick("AR", "sAR", 512);
      break;
    case 4:
      if (in(eu, {0, 1, 3, 4})) return pick("RQ&DQ", "sRQ&sDQ", 256);
      break;
    case 5:
      if (in_range(eu, 0, 5)) return pick("CW&BC", "sCW&sBC", 256);
      break;
    case 6:
      if (in(eu, {0, 1, 3, 4, 5, 6, 8, 9, 13, 14, 15, 16})) return pick("SG", "sSG", 384);
      if (in(eu, {17, 18})) return pick("SGL", "sSGL", 384);
      break;
    case 7:
      if (!is_short && !v && in_range(eu, 0, 18)) return tiu_class{"LAR", 128};
      break;
    case 8:
      if (!is_short && in_range(eu, 0, 2)) return tiu_class{"RAND", fr.rand_bits};
      break;
    case 9:
      if (in(eu, {12, 13, 15, 17})) return pick("SFU", "sSFU", 256);
      break;
    case 10:
      if (in(eu, {1, 20, 21})) return pick("LIN", "sLIN", 384);
      break;
    case 12:
      if ((eu & 7) == 0) return tiu_class{"SYS_TR_ACC", 128};
      break;
    case 13:
      if (in_range(eu, 22, 27)) return pick("CMP", "sCMP", 384);
      break;
    case 14:
      if (in(eu, {0, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15, 16, 20, 23}))
        return pick("VC", "sVC", 384);
      break;
    case 15:
      if (in_range(eu, 0, 5) || in(eu, {8, 9, 30, 31})) return tiu_class{"SYS", 128};
      break;
    default:
      break;
  }
  return std::nullopt;
}

/// Length in bits of a DMA (GDMA/SDMA) command of `type`; 0 = no register class.
constexpr unsigned dma_command_bits(unsigned type, const framing& fr) noexcept {
  switch (type) {
    case 6:
      return 128;  // sDMA_sys
    case 4:
      return fr.dma_cw_transpose_bits;
    case 0:
    case 1:
    case 2:
    case 3:
    case 5:
    case 7:
    case 8:
    case 9:
    case 12:
    case 13:
      return 768;
    default:
      return 0;  // 10, 11, 14, 15, 16...: indexed by opdef, no register class
  }
}

/// Length in bits of a CDMA command of `type`; 0 = no register class.
constexpr unsigned cdma_command_bits(unsigned type, const framing& fr) noexcept {
  switch (type) {
    case 0:
    case 3:
    case 4:
      return fr.cdma_send_bits;
    case 1:
    case 2:
      return 512;
    case 5:
    case 6:
      return 256;
    case 7:
      return 128;
    case 8:
    case 9:
      return fr.cdma_tcp_bits;
    default:
      return 0;
  }
}

}  // namespace tpuprof::chips::sg2260
