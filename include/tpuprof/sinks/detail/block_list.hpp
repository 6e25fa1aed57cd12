/// block_list: the byte blocks of one Perfetto part (a core formatted on a
/// worker thread), filled in place by out_buffer's block mode and written
/// out by join() on the calling thread: no staging buffer, no copy.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <tpuprof/sinks/output.hpp>  // block_hooks

namespace tpuprof::detail {

struct block_list {
  std::vector<std::pair<std::vector<char>, std::size_t>> full;  ///< blocks, bytes used in each

  /// out_buffer's block mode on this list.
  block_hooks hooks() noexcept {
    block_hooks h;
    h.list = this;
    h.keep = [](void* l, std::vector<char>& b, std::size_t used) {
      static_cast<block_list*>(l)->full.emplace_back(std::move(b), used);
      b = {};
    };
    h.take = [](void*, std::vector<char>& b, std::size_t n) { b.resize(n); };
    return h;
  }
};

}  // namespace tpuprof::detail
