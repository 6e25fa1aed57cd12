/// decode_error: bad input data, with the file, byte offset and reason.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tpuprof {

/// Thrown for input that cannot be decoded (truncated, corrupt, wrong chip,
/// missing file). what() = "<file>: at byte <offset>: <reason>".
class decode_error : public std::runtime_error {
 public:
  /// Marks an error that is not tied to a byte position (e.g. a missing file).
  static constexpr std::uint64_t no_offset = ~std::uint64_t{0};

  decode_error(std::string_view file, std::uint64_t offset, std::string_view reason)
      : std::runtime_error(format(file, offset, reason)),
        file_(file),
        offset_(offset),
        reason_(reason) {}

  const std::string& file() const noexcept { return file_; }
  std::uint64_t offset() const noexcept { return offset_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  static std::string format(std::string_view file, std::uint64_t offset, std::string_view reason) {
    std::string s(file.empty() ? std::string_view{"<input>"} : file);
    if (offset != no_offset) {
      s += ": at byte ";
      s += std::to_string(offset);
    }
    s += ": ";
    s += reason;
    return s;
  }
  std::string file_;
  std::uint64_t offset_;
  std::string reason_;
};

}  // namespace tpuprof
