/// ordered_window: jobs on worker threads, their results consumed in index
/// order on the calling thread, at most `window` of them in flight (started
/// and not yet consumed), so that memory is bounded by the window, not by n.
/// parallel_in_order is the same with every job in flight. Why POSIX threads
/// and not <thread>/<condition_variable>: those pull <stop_token> and friends
/// into every TU of the umbrella (tools/compile_budget.sh); std::execution
/// would need TBB, which is not a tpuprof dependency.
#pragma once

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <type_traits>
#include <vector>

namespace tpuprof::detail {

/// Hardware threads of this machine (at least 1).
inline unsigned hardware_threads() noexcept {
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1u;
}

template <class Job>
struct window_state {
  Job* job = nullptr;
  std::size_t n = 0, window = 1, next = 0, consumed = 0;
  bool stop = false;
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
  std::vector<char> done;
  std::vector<std::exception_ptr> error;

  void work() {
    pthread_mutex_lock(&m);
    for (;;) {
      while (!stop && next < n && next >= consumed + window) pthread_cond_wait(&cv, &m);
      if (stop || next >= n) break;
      const std::size_t i = next++;
      pthread_mutex_unlock(&m);
      std::exception_ptr e;
      try {
        (*job)(i);
      } catch (...) {
        e = std::current_exception();
      }
      pthread_mutex_lock(&m);
      error[i] = e;
      done[i] = 1;
      pthread_cond_broadcast(&cv);
    }
    pthread_mutex_unlock(&m);
  }
  static void* worker(void* self) {
    static_cast<window_state*>(self)->work();
    return nullptr;
  }
};

/// Calls job(i) for every i < n on up to `threads` threads (0 = hardware
/// threads) and consume(i) on the calling thread in order 0..n-1, each after
/// job(i) returned; job(i) starts only once consume(i - window) returned.
/// The first failure (of job(i) or consume(i), in index order) stops the
/// rest and is rethrown after every started job ended.
template <class Job, class Consume>
void ordered_window(std::size_t n, unsigned threads, std::size_t window, Job&& job,
                    Consume&& consume) {
  if (threads == 0) threads = hardware_threads();
  window = std::max<std::size_t>(1, window);
  const std::size_t workers = std::min<std::size_t>({threads, window, n});
  if (workers <= 1 || window <= 1) {
    for (std::size_t i = 0; i < n; ++i) {
      job(i);
      consume(i);
    }
    return;
  }
  using J = std::remove_reference_t<Job>;
  window_state<J> st;
  st.job = &job;
  st.n = n;
  st.window = window;
  st.done.assign(n, 0);
  st.error.resize(n);
  std::vector<pthread_t> pool;
  pool.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w) {
    pthread_t t;
    if (pthread_create(&t, nullptr, &window_state<J>::worker, &st) != 0) break;
    pool.push_back(t);
  }
  if (pool.empty()) {  // no thread could start: run them here
    for (std::size_t i = 0; i < n; ++i) {
      job(i);
      consume(i);
    }
    return;
  }
  std::exception_ptr failed;
  for (std::size_t i = 0; i < n && !failed; ++i) {
    pthread_mutex_lock(&st.m);
    while (!st.done[i]) pthread_cond_wait(&st.cv, &st.m);
    failed = st.error[i];
    pthread_mutex_unlock(&st.m);
    if (!failed) {
      try {
        consume(i);
      } catch (...) {
        failed = std::current_exception();
      }
    }
    pthread_mutex_lock(&st.m);
    st.consumed = i + 1;
    if (failed) st.stop = true;
    pthread_cond_broadcast(&st.cv);
    pthread_mutex_unlock(&st.m);
  }
  for (pthread_t t : pool) pthread_join(t, nullptr);
  if (failed) std::rethrow_exception(failed);
}

/// Calls job(i) for every i < n, at most `threads` at once (0 = hardware
/// threads), and announce(i) on the calling thread in order 0..n-1 before the
/// wait for job i. The first failure (of job(i) or announce(i), in index
/// order) stops jobs not yet started and is rethrown after every started job
/// ended.
template <class Job, class Announce>
void parallel_in_order(std::size_t n, unsigned threads, Job&& job, Announce&& announce) {
  if (n == 0) return;
  announce(0);
  ordered_window(n, threads, n, job, [&](std::size_t i) {
    if (i + 1 < n) announce(i + 1);
  });
}

}  // namespace tpuprof::detail
