/// atomic_file: buffered output that appears under its final name only when
/// committed (temp file + rename, or a swap over an existing file; fsync on
/// request); a failure never leaves a half file.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <tpuprof/io/replace_file.hpp>

namespace tpuprof::io {

/// Thrown for output failures (disk full, permission); distinct from decode_error.
class output_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a committed file survives. `crash`: the writer's own failure or death
/// (the rename is atomic and the page cache keeps the bytes), as compilers and
/// the vendor tools give, at no cost. `power_loss`: also a power cut or kernel
/// crash, at one disk flush (fsync) per file: tens of milliseconds each on a
/// busy disk, more than the whole decode of a small capture
/// (docs/reliability.md, "Durability").
enum class durability : std::uint8_t { crash, power_loss };

/// Writes to "<path>.tmp.<pid>" and renames to `path` in commit() (for
/// durability::crash, over an existing file: swaps the two and removes the
/// old one, io/replace_file.hpp). Destroying it uncommitted removes the temp
/// file.
class atomic_file {
 public:
  explicit atomic_file(std::filesystem::path path, durability d = durability::crash)
      : path_(std::move(path)), sync_(d == durability::power_loss) {
    tmp_ = path_;
    tmp_ += ".tmp." + std::to_string(::getpid());
    f_ = std::fopen(tmp_.c_str(), "wb");
    if (!f_) throw output_error(path_.string() + ": cannot create: " + std::strerror(errno));
    std::setvbuf(f_, nullptr, _IOFBF, 1 << 16);
  }
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;
  ~atomic_file() {
    if (f_) {
      std::fclose(f_);
      std::error_code ec;
      std::filesystem::remove(tmp_, ec);
    }
  }

  void write(std::string_view s) { write(s.data(), s.size()); }
  void write(const void* p, std::size_t n) {
    if (n && std::fwrite(p, 1, n, f_) != n)
      throw output_error(path_.string() + ": write failed: " + std::strerror(errno));
  }
  /// Flushes (and syncs, for power_loss) and renames into place. Throws
  /// output_error on failure.
  void commit() {
    if (!f_) return;
    bool ok = std::fflush(f_) == 0 && (!sync_ || ::fsync(::fileno(f_)) == 0);
    int e = errno;
    ok = (std::fclose(f_) == 0) && ok;
    f_ = nullptr;
    std::error_code ec;
    if (!ok) {
      std::filesystem::remove(tmp_, ec);
      throw output_error(path_.string() + ": write failed: " + std::strerror(e));
    }
    if (!sync_ && detail::exchange_into(tmp_, path_)) {
      std::filesystem::remove(tmp_, ec);  // the old file, now under the temp name
      return;
    }
    std::filesystem::rename(tmp_, path_, ec);
    if (ec) {
      const std::string why = ec.message();  // before remove() reuses `ec`
      std::error_code ignored;
      std::filesystem::remove(tmp_, ignored);
      throw output_error(path_.string() + ": rename failed: " + why);
    }
  }
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_, tmp_;
  std::FILE* f_ = nullptr;
  bool sync_ = false;
};

}  // namespace tpuprof::io
