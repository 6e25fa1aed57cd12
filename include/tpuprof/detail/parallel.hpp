/// parallel_in_order: runs n independent jobs on up to `threads` threads and
/// reports them in index order on the calling thread. Why not std::execution:
/// GCC's parallel algorithms need TBB, which is not a tpuprof dependency.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tpuprof::detail {

/// Calls job(i) for every i < n, at most `threads` at once (0 = hardware
/// threads), and announce(i) on the calling thread in order 0..n-1 before the
/// wait for job i. The first failing job in index order is rethrown after
/// every started job ended; jobs after it still run (they cannot be stopped
/// safely mid-decode) but their results are discarded by the caller.
template <class Job, class Announce>
void parallel_in_order(std::size_t n, unsigned threads, Job&& job, Announce&& announce) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(threads, n);
  std::vector<std::exception_ptr> error(n);
  if (workers <= 1) {
    for (std::size_t i = 0; i < n; ++i) {
      announce(i);
      job(i);
    }
    return;
  }
  std::atomic<std::size_t> next{0};
  std::mutex m;
  std::condition_variable cv;
  std::vector<char> done(n, 0);
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        job(i);
      } catch (...) {
        error[i] = std::current_exception();
      }
      {
        std::lock_guard lock(m);
        done[i] = 1;
      }
      cv.notify_all();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers);
  try {
    for (std::size_t w = 0; w < workers; ++w) pool.emplace_back(work);
  } catch (...) {  // no thread: the ones started drain the queue
    if (pool.empty()) work();
  }
  std::exception_ptr failed;
  for (std::size_t i = 0; i < n; ++i) {
    if (!failed) {
      try {
        announce(i);
      } catch (...) {
        failed = std::current_exception();
      }
    }
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return done[i] != 0; });
    if (!failed && error[i]) failed = error[i];
  }
  for (auto& t : pool) t.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace tpuprof::detail
