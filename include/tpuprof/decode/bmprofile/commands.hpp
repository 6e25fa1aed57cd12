/// Framing of cmd_*.dat command buffers into commands with op names
/// (the chip's format notes §5.2.1); full operand decoding is separate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/io/byte_reader.hpp>

namespace tpuprof::bmprofile {

struct framed_command {
  command_frame frame;
  std::uint64_t offset = 0;  ///< byte offset in the cmd file
};

/// Frames up to `count` commands of engine `eng` (tiu or gdma) starting at
/// `start`. Stops early, with a diagnostic, at an undecodable command or at
/// the end of the data; `count` never sizes an allocation beyond the data.
template <bmprofile_chip Chip>
std::vector<framed_command> frame_commands(const io::byte_reader& r, engine eng,
                                           std::uint64_t start, std::uint64_t count,
                                           decode_diagnostics& diag) {
  std::vector<framed_command> out;
  if (start > r.size()) {
    diag.add(diag::other, r.file(), r.base() + start, "command offset past the end of the file");
    return out;
  }
  std::size_t pos = static_cast<std::size_t>(start);
  while (out.size() < count) {
    if (r.size() - pos < 16) {
      diag.add(diag::unmatched_command, r.file(), r.base() + pos,
               "command buffer ends after " + std::to_string(out.size()) + " of " +
                   std::to_string(count) + " commands",
               count - out.size());
      break;
    }
    const std::uint64_t w0 = r.u64(pos), w1 = r.u64(pos + 8);
    auto f = eng == engine::tiu ? Chip::frame_tiu(w0) : Chip::frame_gdma(w0, w1);
    if (f && f->length > r.size() - pos) {  // a truncated file: the rest is lost
      diag.add(diag::truncated_tail, r.file(), r.base() + pos,
               "command buffer truncated: " + std::to_string(out.size()) + " of " +
                   std::to_string(count) + " commands framed",
               count - out.size());
      break;
    }
    if (!f) {
      diag.add(diag::unknown_enum, r.file(), r.base() + pos,
               "undecodable " + std::string(name(eng)) + " command (type " +
                   std::to_string(eng == engine::tiu ? io::bits(w0, 41, 4) : io::bits(w0, 32, 4)) +
                   "); the rest of the buffer cannot be framed");
      // the commands after it are expected (COMMAND block) but lost
      diag.add(diag::unmatched_command, r.file(), r.base() + pos,
               std::to_string(count - out.size()) + " of " + std::to_string(count) + " " +
                   std::string(name(eng)) + " commands not framed",
               count - out.size());
      break;
    }
    out.push_back({*f, r.base() + pos});
    pos += f->length;
    if (Chip::realigns_after(f->op)) {
      std::size_t rel = pos - static_cast<std::size_t>(start);
      rel = (rel + 127) / 128 * 128;
      pos = static_cast<std::size_t>(start) + rel;
      if (pos > r.size()) pos = r.size();
    }
  }
  return out;
}

}  // namespace tpuprof::bmprofile
