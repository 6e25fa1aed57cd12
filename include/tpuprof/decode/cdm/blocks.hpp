/// cdm_blocks: the TLV block container of `cdmlib*.profile` / `cdma*.profile`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tpuprof/decode/cdm/format.hpp>
#include <tpuprof/io/byte_reader.hpp>

namespace tpuprof::cdm {

/// One block: its type and a reader over its content (offsets are file offsets).
struct block {
  block_type type;
  io::byte_reader content;
  std::uint64_t header_offset = 0;  ///< file offset of the 8-byte header
};

/// Splits a file into blocks. Throws decode_error at the header's offset for a
/// partial header, an unknown type or a length past the end of the file (the
/// vendor decoder raises on the same three conditions). Never allocates more
/// than one entry per 8 bytes of input.
inline std::vector<block> read_blocks(const io::byte_reader& file) {
  std::vector<block> out;
  std::size_t off = 0;
  const std::size_t n = file.size();
  while (off < n) {
    if (n - off < block_header_size)
      file.fail(off, "truncated block header: " + std::to_string(n - off) + " of 8 bytes");
    const std::uint32_t type = file.u32(off);
    const std::uint32_t len = file.u32(off + 4);
    if (!is_known_block_type(type)) file.fail(off, "unknown block type " + std::to_string(type));
    if (len > n - off - block_header_size)
      file.fail(off, "block type " + std::to_string(type) + " declares " + std::to_string(len) +
                         " bytes, only " + std::to_string(n - off - block_header_size) + " left");
    out.push_back({static_cast<block_type>(type), file.sub(off + block_header_size, len), off});
    off += block_header_size + len;
  }
  return out;
}

}  // namespace tpuprof::cdm
