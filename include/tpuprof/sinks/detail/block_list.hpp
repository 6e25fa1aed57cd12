/// block_list: the byte blocks of one Perfetto part (a core formatted on a
/// worker thread), filled in place by out_buffer's block mode and written
/// out by join() on the calling thread: no staging buffer, no copy. Blocks
/// written out go to the sink's block_pool, and later parts take them from
/// there: a block taken again has its pages (a fresh one costs a page fault,
/// a clear by the kernel and a zero-fill per 4 KiB; at 1.8 M events these
/// were 44 % of the process's page faults).
#pragma once

#include <pthread.h>

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include <tpuprof/sinks/output.hpp>  // block_hooks

namespace tpuprof::detail {

/// Spare blocks, shared by the parts of one sink (workers take, join gives).
struct block_pool {
  static constexpr std::size_t max_blocks = 64;  ///< kept: 16 MiB of 256 KiB blocks
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  std::vector<std::vector<char>> spare;

  bool take(std::vector<char>& b, std::size_t n) {
    pthread_mutex_lock(&m);
    const bool ok = !spare.empty() && spare.back().size() >= n;
    if (ok) {
      b = std::move(spare.back());
      spare.pop_back();
    }
    pthread_mutex_unlock(&m);
    return ok;
  }
  void give(std::vector<char>&& b) {
    pthread_mutex_lock(&m);
    if (spare.size() < max_blocks) spare.push_back(std::move(b));
    pthread_mutex_unlock(&m);
  }
};

struct block_list {
  std::vector<std::pair<std::vector<char>, std::size_t>> full;  ///< blocks, bytes used in each
  std::shared_ptr<block_pool> pool;                             ///< where blocks come from

  /// out_buffer's block mode on this list.
  block_hooks hooks() noexcept {
    block_hooks h;
    h.list = this;
    h.keep = [](void* l, std::vector<char>& b, std::size_t used) {
      static_cast<block_list*>(l)->full.emplace_back(std::move(b), used);
      b = {};
    };
    h.take = [](void* l, std::vector<char>& b, std::size_t n) {
      auto* self = static_cast<block_list*>(l);
      if (!self->pool || !self->pool->take(b, n)) b.resize(n);
    };
    return h;
  }
  /// The blocks, once written out, back to the pool.
  void give_back() {
    if (pool)
      for (auto& [b, n] : full) pool->give(std::move(b));
    full.clear();
  }
};

}  // namespace tpuprof::detail
