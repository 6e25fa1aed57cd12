/// cdm_commands: the command side of an SG2260-family dump: register-level
/// decoding of command buffers (mode 2 DYN_EXTRA, BLOCK_DES_*, BLOCK_DES_KV)
/// into classes and op names (format-sg2260.md §2.8).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include <tpuprof/decode/cdm/format.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/names.hpp>

namespace tpuprof::cdm {

/// One command of an engine's command list. Condensed nodes (DYN_DATA), DES
/// references and register-decoded commands share this form. 24 bytes: a
/// mode-1/2 session holds one per PMU record while matching, so the DYN tags
/// live in a table (`tag`) and the flags in one byte.
struct command {
  enum kind_t : std::uint8_t { node, des_ref, decoded };
  enum mode_t : std::uint8_t { mode_none, tdi, rvt, des };

  std::uint32_t id = 0;  ///< DYN counter (0-based) or decoded cmd_id (1-based)
  kind_t kind : 2 = node;
  mode_t mode : 2 = mode_none;
  /// Decoded register fields (kind == decoded, or a node with mode-2 detail).
  bool has_reg : 1 = false;
  bool is_short : 1 = false;
  std::uint8_t tsk = 0;  ///< TIU tsk_typ / DMA, CDMA cmd_type
  std::uint8_t eu = 0;   ///< TIU tsk_eu_typ / DMA, CDMA special function
  std::uint8_t dtype = 0xFF;
  std::uint16_t extra = 0;  ///< DYN extra_info
  mem_kind src = mem_kind::none;
  mem_kind dst = mem_kind::none;
  /// Kernel function, scope and batch of the DYN stream: an index into the
  /// decoder's tag table (0 = none).
  std::uint32_t tag = 0;
  /// DES reference: the descriptor buffer key. Other kinds: offset of the
  /// register image in its core file (0 = unknown), so ops and operands can be
  /// computed for the events that keep it.
  std::uint32_t offset = 0;
  std::uint32_t cmd_num = 0;  ///< DES reference: command count
};
static_assert(sizeof(command) == 24);

/// The DYN stream's tags of a command (command::tag indexes a table of them).
struct dyn_tag {
  name_id func = 0;  ///< kernel function (interned), 0 = none
  std::int32_t scope = -1;
  std::int32_t batch = -1;
};

/// Which command encoding a buffer holds.
enum class cmd_engine : std::uint8_t { tiu, dma, cdma };

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
/// vendor raises). AKSV has only the short classes plus RAND, SYS, SYS_TR_ACC.
constexpr std::optional<tiu_class> find_tiu_class(unsigned tsk, unsigned eu, bool is_short,
                                                  cdm_chip_kind chip) noexcept {
  using detail::in;
  using detail::in_range;
  const bool v = chip == cdm_chip_kind::aksv;
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
      if (!is_short && in_range(eu, 0, 2)) return tiu_class{"RAND", v ? 384u : 1024u};
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

/// Op name of a decoded TIU command (opdef names, e.g. "arith.cast").
constexpr std::string_view tiu_op_name(unsigned tsk, unsigned eu) noexcept {
  constexpr std::string_view ar[] = {"arith.mul",
                                     "arith.not",
                                     "arith.add",
                                     "arith.sub",
                                     "arith.max",
                                     "arith.min",
                                     "arith.logic_shift",
                                     "arith.and",
                                     "arith.or",
                                     "arith.xor",
                                     "arith.select_great",
                                     "arith.select_equal",
                                     "arith.div",
                                     "arith.select_less",
                                     "arith.cast",
                                     "arith.add_satu",
                                     "arith.sub_satu",
                                     "",
                                     "arith.mac",
                                     "arith.copy",
                                     "arith.mul_satu",
                                     "arith.arith_shift",
                                     "arith.rotate_shift",
                                     "arith.mulDHR",
                                     "",
                                     "",
                                     "arith.abs",
                                     "arith.fsub_abs",
                                     "arith.copy_mb"};
  constexpr std::string_view lar[] = {
      "lar.mul",       "lar.not",         "lar.add",   "lar.sub",       "lar.max",
      "lar.min",       "lar.logic_shift", "lar.and",   "lar.or",        "lar.xor",
      "lar.select_gt", "lar.select_eq",   "lar.div",   "lar.select_lt", "lar.data_convert",
      "lar.add_satu",  "lar.sub_satu",    "lar.clamp", "lar.mac"};
  constexpr std::string_view vc[] = {"vc.mul",
                                     "",
                                     "vc.add",
                                     "vc.sub",
                                     "vc.max",
                                     "vc.min",
                                     "",
                                     "vc.and",
                                     "vc.or",
                                     "vc.xor",
                                     "vc.select_gt",
                                     "vc.select_eq",
                                     "vc.div",
                                     "vc.select_lt",
                                     "",
                                     "vc.add_satu",
                                     "vc.sub_satu",
                                     "",
                                     "",
                                     "",
                                     "vc.mul_satu",
                                     "",
                                     "",
                                     "vc.mulDHR"};
  constexpr std::string_view sg[] = {"sg.pl_gather_d1coor",
                                     "sg.pl_gather_d2coor",
                                     "",
                                     "sg.pl_scatter_d1coor",
                                     "sg.pl_scatter_d2coor",
                                     "sg.pe_s_gather_d1coor",
                                     "sg.pe_s_scatter_d1coor",
                                     "",
                                     "sg.pe_s_mask_select",
                                     "sg.pe_s_nonzero",
                                     "",
                                     "",
                                     "",
                                     "sg.pe_s_gather_hzd",
                                     "sg.pe_s_scatter_hzd",
                                     "sg.pe_s_mask_selhzd",
                                     "sg.pe_s_nonzero_hzd",
                                     "sgl.pe_s_gather_line",
                                     "sgl.pe_s_scatter_line"};
  constexpr std::string_view pord[] = {
      "pord.depthwise",      "pord.avgpooling",     "",
      "pord.minpooling",     "pord.maxpooling",     "pord.roi_depthwise",
      "pord.roi_avgpooling", "pord.roi_maxpooling", "pord.roi_minpooling"};
  switch (tsk) {
    case 0:
      return eu == 0   ? "conv.normal"
             : eu == 2 ? "conv.tf32"
             : eu == 1 ? "conv.bw"
             : eu == 4 ? "conv.bw.tf32"
                       : "";
    case 1:
      return eu < 9 ? pord[eu] : "";
    case 2:
      return eu == 1   ? "mm.normal"
             : eu == 4 ? "mm2.nn"
             : eu == 5 ? "mm2.nt"
             : eu == 6 ? "mm2.tt"
             : eu == 7 ? "mm2.tf32"
                       : "";
    case 3:
      return eu < 29 ? ar[eu] : "";
    case 4:
      return eu == 0   ? "quant.rq0"
             : eu == 1 ? "quant.rq1"
             : eu == 3 ? "quant.dq0"
             : eu == 4 ? "quant.dq1"
                       : "";
    case 5: {
      constexpr std::string_view t[] = {"tsbc.cw_ts", "tsbc.wc_ts", "tsbc.l_copy",
                                        "tsbc.l_bc",  "tsbc.s_bc",  "tsbc.s_distribute"};
      return eu < 6 ? t[eu] : "";
    }
    case 6:
      return eu < 19 ? sg[eu] : "";
    case 7:
      return eu < 19 ? lar[eu] : "";
    case 8:
      return eu == 0   ? "rand.prng"
             : eu == 1 ? "rand.prng_with_intial_seed"
             : eu == 2 ? "rand.prng_with_loaded_states"
                       : "";
    case 9:
      return eu == 12   ? "sfu.taylor_4x"
             : eu == 13 ? "sfu.taylor"
             : eu == 15 ? "sfu.normalize"
             : eu == 17 ? "sfu.rsqrt"
                        : "";
    case 10:
      return eu == 1 ? "lin.mac" : eu == 20 ? "lin.square_sum" : eu == 21 ? "lin.square_diff" : "";
    case 12:
      return "system_tr_wr.wr_imm";
    case 13: {
      constexpr std::string_view t[] = {"cmp.gt_and_sel_gt", "cmp.sel_gt", "cmp.sel_eq",
                                        "cmp.lt_and_sel_lt", "cmp.sel_lt", "cmp.srch_bin"};
      return eu >= 22 && eu <= 27 ? t[eu - 22] : "";
    }
    case 14:
      return eu < 24 ? vc[eu] : "";
    case 15:
      switch (eu) {
        case 0:
          return "system.intr_barrier";
        case 1:
          return "system.spb";
        case 2:
          return "system.swr";
        case 3:
          return "system.swr_from_lmm";
        case 4:
          return "system.swr_collect_from_lmm";
        case 5:
          return "system.data_barrier";
        case 8:
          return "system.send_msg";
        case 9:
          return "system.wait_msg";
        case 30:
          return "system.nop";
        case 31:
          return "system.end";
        default:
          return "";
      }
    default:
      return "";
  }
}

/// Length in bits of a DMA (GDMA/SDMA) command of `type`; 0 = no register class.
constexpr unsigned dma_command_bits(unsigned type, cdm_chip_kind chip) noexcept {
  switch (type) {
    case 6:
      return 128;  // sDMA_sys
    case 4:
      return chip == cdm_chip_kind::aks ? 768 : 0;
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
constexpr unsigned cdma_command_bits(unsigned type, cdm_chip_kind chip) noexcept {
  const bool v = chip == cdm_chip_kind::aksv;
  switch (type) {
    case 0:
    case 3:
    case 4:
      return v ? 384 : 256;
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
      return v ? 0 : 128;
    default:
      return 0;
  }
}

/// Result of decoding a command buffer: the commands (cmd_id 1..n) and, when
/// decoding stopped early, where and why (a diagnostic, not an exception).
struct decoded_buffer {
  std::vector<command> cmds;
  std::uint64_t error_offset = ~std::uint64_t{0};  ///< file offset of the bad command
  std::string_view error;
};

/// Decodes one command at `off` of `buf`; returns its length in bytes, 0 if
/// the header names no class or the command runs past the buffer.
inline std::size_t decode_command(const io::byte_reader& buf, std::size_t off, cmd_engine eng,
                                  cdm_chip_kind chip, command& c, std::string_view& why) {
  if (buf.size() - off < 16) {
    why = "command header truncated";
    return 0;
  }
  const std::byte* p = buf.bytes().data() + off;  // reads below are checked against the length
  const std::uint64_t w0 = io::load_le<std::uint64_t>(p);
  c.kind = command::decoded;
  c.has_reg = true;
  unsigned bits = 0;
  if (eng == cmd_engine::tiu) {
    c.is_short = (w0 & 1) != 0;
    c.tsk = static_cast<std::uint8_t>(io::bits(w0, 41, 4));
    c.eu = static_cast<std::uint8_t>(io::bits(w0, 45, c.tsk == 12 ? 3 : 5));
    auto cls = find_tiu_class(c.tsk, c.eu, c.is_short, chip);
    if (!cls) {
      why = "TIU command with no register class";
      return 0;
    }
    bits = cls->bits;
  } else if (eng == cmd_engine::dma) {
    c.is_short = ((w0 >> 3) & 1) != 0;
    c.tsk = static_cast<std::uint8_t>(io::bits(w0, 32, 5));
    c.eu = static_cast<std::uint8_t>(io::bits(w0, 37, 3));
    c.dtype = static_cast<std::uint8_t>(io::bits(w0, 41, 4));
    bits = dma_command_bits(c.tsk, chip);
    if (bits == 0) {
      why = "DMA command type with no register class";
      return 0;
    }
  } else {
    c.tsk = static_cast<std::uint8_t>(io::bits(w0, 4, 4));
    c.eu = static_cast<std::uint8_t>(io::bits(w0, 8, 3));
    bits = cdma_command_bits(c.tsk, chip);
    if (bits == 0) {
      why = "CDMA command type with no register class";
      return 0;
    }
    c.src = c.dst = mem_kind::ddr;
  }
  const std::size_t len = bits / 8;
  if (len > buf.size() - off) {
    why = "command runs past the end of its buffer";
    return 0;
  }
  if (const std::uint64_t at = buf.base() + off; at > 0 && at <= 0xFFFFFFFFu)
    c.offset = static_cast<std::uint32_t>(at);
  if (eng == cmd_engine::dma) {
    if (c.tsk == dma_sys_code) {
      c.src = c.dst = mem_kind::ddr;  // no address fields: tags read 0
    } else {
      const auto src_h13 = io::bits(io::load_le<std::uint64_t>(p + 64), 32, 13);
      const auto dst_h13 = io::bits(io::load_le<std::uint64_t>(p + 72), 32, 13);
      c.src = mem_of_tag(static_cast<std::uint32_t>(src_h13 >> 8));
      c.dst = mem_of_tag(static_cast<std::uint32_t>(dst_h13 >> 8));
    }
  }
  return len;
}

/// Decodes a whole command buffer: commands back to back, until the buffer
/// ends or an end-class command (TIU SYS, sDMA_sys, sCDMA_sys) is followed
/// by at most 128 zero bytes (writers pad buffers to 128 bytes). `base_id` is
/// the id of the first command (1 for the vendor's cmd_id).
inline decoded_buffer decode_buffer(const io::byte_reader& buf, cmd_engine eng, cdm_chip_kind chip,
                                    std::uint32_t base_id = 1) {
  decoded_buffer out;
  std::size_t off = 0;
  auto zero_rest = [&](std::size_t from) {
    if (buf.size() - from > 128) return false;
    for (std::size_t i = from; i < buf.size(); ++i)
      if (buf.bytes()[i] != std::byte{0}) return false;
    return true;
  };
  while (off < buf.size()) {
    command c;
    std::string_view why;
    const std::size_t len = decode_command(buf, off, eng, chip, c, why);
    if (len == 0) {
      out.error_offset = buf.base() + off;
      out.error = why;
      break;
    }
    c.id = base_id + static_cast<std::uint32_t>(out.cmds.size());
    out.cmds.push_back(c);
    off += len;
    const bool end_class = (eng == cmd_engine::tiu && c.tsk == tiu_sys_code) ||
                           (eng == cmd_engine::dma && c.tsk == dma_sys_code) ||
                           (eng == cmd_engine::cdma && c.tsk == cdma_sys_code);
    if (end_class && zero_rest(off)) break;
    if (eng == cmd_engine::cdma && c.tsk == cdma_sys_code && c.eu == 0) break;
  }
  return out;
}

}  // namespace tpuprof::cdm
