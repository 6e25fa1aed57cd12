/// Read-only memory-mapped file (POSIX), with a read() fallback for files
/// that cannot be mapped (pipes, /proc).
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <tpuprof/error.hpp>

namespace tpuprof::io {

/// Owns a mapping of a whole file. Move-only. Empty files map to an empty span.
class mapped_file {
 public:
  mapped_file() = default;
  /// Throws decode_error (no offset) when the file cannot be opened or read.
  explicit mapped_file(const std::string& path) : path_(path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw decode_error(path, decode_error::no_offset, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      int e = errno;
      ::close(fd);
      throw decode_error(path, decode_error::no_offset, std::strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
      ::close(fd);
      throw decode_error(path, decode_error::no_offset, "is a directory, expected a file");
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
      void* p =
          ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const std::byte*>(p);
        size_ = static_cast<std::size_t>(st.st_size);
        mapped_ = true;
        ::close(fd);
        return;
      }
    }
    // Fallback: read it (non-regular files, or mmap refused).
    std::byte buf[65536];
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0) {
        if (errno == EINTR) continue;
        int e = errno;
        ::close(fd);
        throw decode_error(path, decode_error::no_offset, std::strerror(e));
      }
      if (n == 0) break;
      copy_.insert(copy_.end(), buf, buf + n);
    }
    ::close(fd);
    data_ = copy_.data();
    size_ = copy_.size();
  }
  mapped_file(mapped_file&& o) noexcept { swap(o); }
  mapped_file& operator=(mapped_file&& o) noexcept {
    if (this != &o) {
      mapped_file tmp(std::move(o));
      swap(tmp);
    }
    return *this;
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file() {
    if (mapped_ && data_) ::munmap(const_cast<std::byte*>(data_), size_);
  }

  std::span<const std::byte> bytes() const noexcept { return {data_, size_}; }
  const std::string& path() const noexcept { return path_; }

  /// Gives back the resident pages of `range` (a part of bytes() already
  /// consumed): the whole pages inside it leave this process's resident set
  /// and come back from the page cache, unchanged, if read again. Why: a dump
  /// is read once front to back, so its pages would otherwise stay resident
  /// beside the events decoded from them. No-op for read() copies.
  void release(std::span<const std::byte> range) const noexcept {
    if (!mapped_ || range.empty() || range.data() < data_ ||
        range.data() + range.size() > data_ + size_)
      return;
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto b = (reinterpret_cast<std::uintptr_t>(range.data()) + page - 1) / page * page;
    const auto e = (reinterpret_cast<std::uintptr_t>(range.data()) + range.size()) / page * page;
    if (e > b) ::madvise(reinterpret_cast<void*>(b), e - b, MADV_DONTNEED);
  }

 private:
  void swap(mapped_file& o) noexcept {
    std::swap(path_, o.path_);
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(mapped_, o.mapped_);
    std::swap(copy_, o.copy_);
    if (!mapped_) data_ = copy_.empty() ? nullptr : copy_.data();
    if (!o.mapped_) o.data_ = o.copy_.empty() ? nullptr : o.copy_.data();
  }
  std::string path_;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  std::vector<std::byte> copy_;
};

}  // namespace tpuprof::io
