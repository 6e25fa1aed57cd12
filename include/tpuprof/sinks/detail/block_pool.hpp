/// block_pool: byte blocks recycled between the Perfetto parts formatted on
/// worker threads and the sink that writes them out on the calling thread.
/// A part fills its blocks in place (out_buffer's block mode); join() writes
/// them and gives them back, so later cores write into pages already there
/// instead of fresh ones (a fault and a clear per 4 KiB on the 2-core VM).
#pragma once

#include <pthread.h>

#include <cstddef>
#include <utility>
#include <vector>

#include <tpuprof/sinks/output.hpp>

namespace tpuprof::detail {

class block_pool {
 public:
  /// Keeps at most `keep` free blocks; more are freed.
  explicit block_pool(std::size_t keep) : keep_(keep) {}
  block_pool(const block_pool&) = delete;
  block_pool& operator=(const block_pool&) = delete;
  ~block_pool() { pthread_mutex_destroy(&m_); }

  /// A block of at least n bytes (size() = its capacity; contents undefined).
  byte_block take(std::size_t n) {
    byte_block b;
    pthread_mutex_lock(&m_);
    if (!free_.empty() && free_.back().size() >= n) {
      b = std::move(free_.back());
      free_.pop_back();
    }
    pthread_mutex_unlock(&m_);
    if (b.size() < n) b.resize(n);
    return b;
  }
  void give(byte_block&& b) {
    pthread_mutex_lock(&m_);
    if (free_.size() < keep_) free_.push_back(std::move(b));
    pthread_mutex_unlock(&m_);
  }
  /// A block_list whose fresh blocks come from this pool.
  block_list list() noexcept {
    block_list l;
    l.pool = this;
    l.take = [](void* p, std::size_t n) { return static_cast<block_pool*>(p)->take(n); };
    return l;
  }

 private:
  std::size_t keep_;
  std::vector<byte_block> free_;
  pthread_mutex_t m_ = PTHREAD_MUTEX_INITIALIZER;
};

}  // namespace tpuprof::detail
