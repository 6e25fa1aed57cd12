/// cdm_commands: the command side of an SG2260-family dump: framing of command
/// buffers (mode 2 DYN_EXTRA, BLOCK_DES_*, BLOCK_DES_KV) into commands, with the
/// lengths each chip's traits give (format-sg2260.md §2.8).
#pragma once

#include <cstdint>
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

/// Result of decoding a command buffer: the commands (cmd_id 1..n) and, when
/// decoding stopped early, where and why (a diagnostic, not an exception).
struct decoded_buffer {
  std::vector<command> cmds;
  std::uint64_t error_offset = ~std::uint64_t{0};  ///< file offset of the bad command
  std::string_view error;
};

/// Decodes one command at `off` of `buf` for chip `Chip` (its command lengths);
/// returns its length in bytes, 0 if the header names no class or the command
/// runs past the buffer.
template <class Chip>
std::size_t decode_command(const io::byte_reader& buf, std::size_t off, cmd_engine eng, command& c,
                           std::string_view& why) {
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
    const auto cls = Chip::tiu_class_of(c.tsk, c.eu, c.is_short);
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
    bits = Chip::dma_bits(c.tsk);
    if (bits == 0) {
      why = "DMA command type with no register class";
      return 0;
    }
  } else {
    c.tsk = static_cast<std::uint8_t>(io::bits(w0, 4, 4));
    c.eu = static_cast<std::uint8_t>(io::bits(w0, 8, 3));
    bits = Chip::cdma_bits(c.tsk);
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
template <class Chip>
decoded_buffer decode_buffer(const io::byte_reader& buf, cmd_engine eng,
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
    const std::size_t len = decode_command<Chip>(buf, off, eng, c, why);
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
