/// byte_output: where a sink's bytes go (a string, a FILE*, an atomic_file,
/// or anything with write(const char*, size_t)), and the fixed-size buffer
/// sinks format into before handing bytes over in large chunks.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <tpuprof/io/atomic_file.hpp>

namespace tpuprof::sinks {

/// Non-owning, type-erased byte destination; called once per buffer flush.
/// The target must outlive the sink that writes to it.
class byte_output {
 public:
  /// Appends to a string (in-memory output, tests, benchmarks).
  byte_output(std::string& s) noexcept  // NOLINT(google-explicit-constructor)
      : ctx_(&s), fn_([](void* c, const char* p, std::size_t n) {
          static_cast<std::string*>(c)->append(p, n);
        }) {}
  /// Writes to a C stream; throws io::output_error when fwrite fails.
  byte_output(std::FILE* f) noexcept  // NOLINT(google-explicit-constructor)
      : ctx_(f), fn_([](void* c, const char* p, std::size_t n) {
          if (n && std::fwrite(p, 1, n, static_cast<std::FILE*>(c)) != n)
            throw io::output_error(std::string("write failed: ") + std::strerror(errno));
        }) {}
  /// Any object with `write(const char*, std::size_t)` (e.g. io::atomic_file).
  template <class W>
    requires(!std::is_same_v<std::remove_cv_t<W>, byte_output> &&
             requires(W& w, const char* p, std::size_t n) { w.write(p, n); })
  byte_output(W& w) noexcept  // NOLINT(google-explicit-constructor)
      : ctx_(&w),
        fn_([](void* c, const char* p, std::size_t n) { static_cast<W*>(c)->write(p, n); }) {}

  void write(const char* p, std::size_t n) const { fn_(ctx_, p, n); }

 private:
  void* ctx_;
  void (*fn_)(void*, const char*, std::size_t);
};

}  // namespace tpuprof::sinks

namespace tpuprof::detail {

/// Where an out_buffer in block mode leaves its full blocks (in place, no
/// copy) and takes fresh ones: the Perfetto parts formatted on worker threads
/// (detail/block_list.hpp). Plain function pointers: called once per block,
/// and the umbrella instantiates nothing for them (compile budget).
struct block_pool;  ///< spare blocks of joined parts (detail/block_list.hpp)
struct block_hooks {
  void* list = nullptr;
  /// Takes block `b` (moves it out), of which the first `used` bytes were written.
  void (*keep)(void* list, std::vector<char>& b, std::size_t used) = nullptr;
  /// Puts in `b` a block of at least `n` bytes (its size() is what may be written).
  void (*take)(void* list, std::vector<char>& b, std::size_t n) = nullptr;
};

/// Fixed-capacity output buffer: memory stays at `capacity` however long the
/// trace (it grows only to hold one oversized record). In block mode it
/// writes into blocks (block_hooks) instead, one per `capacity` bytes.
class out_buffer {
 public:
  explicit out_buffer(sinks::byte_output out, std::size_t capacity = std::size_t{1} << 18)
      : out_(out), buf_(capacity) {}
  out_buffer(block_hooks blocks, std::size_t capacity)
      : out_(static_cast<std::FILE*>(nullptr)), cap_(capacity), hooks_(blocks) {}  // out_ unused

  /// Makes room for `n` contiguous bytes and returns where to write them.
  char* reserve(std::size_t n) {
    if (buf_.size() - used_ < n) [[unlikely]]
      make_room(n);
    return buf_.data() + used_;
  }
  /// Marks the bytes up to `end` (from reserve()) as written.
  void commit(const char* end) noexcept { used_ = static_cast<std::size_t>(end - buf_.data()); }
  void append(std::string_view s) {
    if (buf_.size() - used_ < s.size()) [[unlikely]] {
      append_slow(s);
      return;
    }
    std::memcpy(buf_.data() + used_, s.data(), s.size());
    used_ += s.size();
  }
  void put(char c) {
    if (used_ == buf_.size()) [[unlikely]]
      make_room(1);
    buf_[used_++] = c;
  }
  /// Flushes, then hands `s` to the output as is (no copy into the buffer).
  void pass(std::string_view s) {
    if (hooks_.list) {  // block mode: the list owns its bytes
      if (!s.empty()) append(s);
      return;
    }
    flush();
    if (!s.empty()) out_.write(s.data(), s.size());
    total_ += s.size();
  }
  void flush() {
    if (hooks_.list) {
      if (used_) hooks_.keep(hooks_.list, buf_, used_);
    } else if (used_) {
      out_.write(buf_.data(), used_);
    }
    total_ += used_;
    used_ = 0;
  }
  /// Bytes handed to the output plus bytes still buffered.
  std::size_t bytes_written() const noexcept { return total_ + used_; }

 private:
  [[gnu::noinline]] void make_room(std::size_t n) {
    flush();
    if (hooks_.list && buf_.empty()) hooks_.take(hooks_.list, buf_, n > cap_ ? n : cap_);
    if (buf_.size() < n) buf_.resize(n);
  }
  [[gnu::noinline]] void append_slow(std::string_view s) {
    if (hooks_.list) {
      make_room(s.size());
      std::memcpy(buf_.data(), s.data(), s.size());
      used_ = s.size();
      return;
    }
    if (s.size() > buf_.size()) {
      flush();
      out_.write(s.data(), s.size());
      total_ += s.size();
      return;
    }
    flush();
    std::memcpy(buf_.data(), s.data(), s.size());
    used_ = s.size();
  }

  sinks::byte_output out_;
  std::vector<char> buf_;
  std::size_t used_ = 0;
  std::size_t total_ = 0;
  std::size_t cap_ = 0;  ///< block mode: bytes per block
  block_hooks hooks_;    ///< block mode: where blocks come from and go
};

}  // namespace tpuprof::detail
