/// byte_output: where a sink's bytes go (a string, a FILE*, an atomic_file,
/// or anything with write(const char*, size_t)), and the fixed-size buffer
/// sinks format into before handing bytes over in large chunks.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
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

/// A vector<char> whose resize leaves new bytes uninitialized: a buffer is
/// written before it is read, and zeroing it first touches every page twice.
template <class T>
struct uninit_allocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = uninit_allocator<U>;
  };
  uninit_allocator() = default;
  template <class U>
  uninit_allocator(const uninit_allocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};
using byte_block = std::vector<char, uninit_allocator<char>>;

/// Where an out_buffer in block mode leaves its full blocks (in place, no
/// copy) and takes fresh ones: `take` returns a block of at least n bytes,
/// from `pool` (perfetto parts recycle blocks across worker threads).
class block_pool;  // sinks/detail/block_pool.hpp: the pool the Perfetto parts use
struct block_list {
  std::vector<std::pair<byte_block, std::size_t>> full;  ///< blocks and the bytes used in each
  void* pool = nullptr;
  byte_block (*take)(void* pool, std::size_t n) = nullptr;
};

/// Fixed-capacity output buffer: memory stays at `capacity` however long the
/// trace (it grows only to hold one oversized record). In block mode it
/// writes into blocks of a block_list instead, one per `capacity` bytes.
class out_buffer {
 public:
  explicit out_buffer(sinks::byte_output out, std::size_t capacity = std::size_t{1} << 18)
      : out_(out), buf_(capacity) {}
  out_buffer(block_list& blocks, std::size_t capacity)
      : out_(nullptr_output()), cap_(capacity), list_(&blocks) {}

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
    if (list_) {  // block mode: the list owns its bytes
      append(s);
      return;
    }
    flush();
    if (!s.empty()) out_.write(s.data(), s.size());
    total_ += s.size();
  }
  void flush() {
    if (list_) {
      if (used_) list_->full.emplace_back(std::exchange(buf_, {}), used_);
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
    if (list_ && buf_.empty()) buf_ = list_->take(list_->pool, std::max(cap_, n));
    if (buf_.size() < n) buf_.resize(n);
  }
  [[gnu::noinline]] void append_slow(std::string_view s) {
    if (list_) {
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

  static sinks::byte_output nullptr_output() noexcept {
    static std::string none;  // block mode never writes to out_
    return sinks::byte_output{none};
  }

  sinks::byte_output out_;
  byte_block buf_;
  std::size_t used_ = 0;
  std::size_t total_ = 0;
  std::size_t cap_ = 0;         ///< block mode: bytes per block
  block_list* list_ = nullptr;  ///< block mode: where full blocks go
};

}  // namespace tpuprof::detail
