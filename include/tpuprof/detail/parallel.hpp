/// parallel_in_order: runs n independent jobs on up to `threads` threads and
/// reports them in index order on the calling thread. Why POSIX threads and
/// not <thread>/<condition_variable>: those pull <stop_token> and friends into
/// every TU of the umbrella (tools/compile_budget.sh); std::execution would
/// need TBB, which is not a tpuprof dependency.
#pragma once

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <type_traits>
#include <vector>

namespace tpuprof::detail {

/// What the workers share (type-erased job: one worker function for all jobs).
/// A template only so that TUs which include open.hpp but never open a dump
/// do not compile it (tools/compile_budget.sh).
template <class = void>
struct parallel_state {
  std::size_t n = 0;
  void (*run)(void* ctx, std::size_t i) = nullptr;
  void* ctx = nullptr;
  /// Next job, taken with __atomic_fetch_add (<atomic> costs the umbrella 3 %).
  std::size_t next = 0;
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
  std::vector<char> done;
  std::vector<std::exception_ptr> error;

  void work() {
    for (std::size_t i; (i = __atomic_fetch_add(&next, std::size_t{1}, __ATOMIC_RELAXED)) < n;) {
      try {
        run(ctx, i);
      } catch (...) {
        error[i] = std::current_exception();
      }
      pthread_mutex_lock(&m);
      done[i] = 1;
      pthread_cond_broadcast(&cv);
      pthread_mutex_unlock(&m);
    }
  }
  static void* worker(void* self) {
    static_cast<parallel_state*>(self)->work();
    return nullptr;
  }
  void wait_for(std::size_t i) {
    pthread_mutex_lock(&m);
    while (!done[i]) pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
  }
};

/// Hardware threads of this machine (at least 1).
inline unsigned hardware_threads() noexcept {
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1u;
}

/// Calls job(i) for every i < n, at most `threads` at once (0 = hardware
/// threads), and announce(i) on the calling thread in order 0..n-1 before the
/// wait for job i. The first failing job in index order is rethrown after
/// every started job ended; jobs after it still run (they cannot be stopped
/// safely mid-decode) but their results are discarded by the caller.
template <class Job, class Announce>
void parallel_in_order(std::size_t n, unsigned threads, Job&& job, Announce&& announce) {
  if (threads == 0) threads = hardware_threads();
  const std::size_t workers = std::min<std::size_t>(threads, n);
  if (workers <= 1) {
    for (std::size_t i = 0; i < n; ++i) {
      announce(i);
      job(i);
    }
    return;
  }
  parallel_state<> st;
  st.n = n;
  st.ctx = &job;
  st.run = [](void* ctx, std::size_t i) { (*static_cast<std::remove_reference_t<Job>*>(ctx))(i); };
  st.done.assign(n, 0);
  st.error.resize(n);
  std::vector<pthread_t> pool;
  pool.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w) {
    pthread_t t;
    if (pthread_create(&t, nullptr, &parallel_state<>::worker, &st) != 0) break;
    pool.push_back(t);
  }
  if (pool.empty()) st.work();  // no thread could start: run them here
  std::exception_ptr failed;
  for (std::size_t i = 0; i < n; ++i) {
    if (!failed) {
      try {
        announce(i);
      } catch (...) {
        failed = std::current_exception();
      }
    }
    st.wait_for(i);
    if (!failed && st.error[i]) failed = st.error[i];
  }
  for (pthread_t t : pool) pthread_join(t, nullptr);
  if (failed) std::rethrow_exception(failed);
}

}  // namespace tpuprof::detail
