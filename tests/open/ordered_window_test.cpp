// detail::ordered_window and parallel_in_order, the worker pools of open()
// (dumps) and cdm::stream (cores): results in index order, the window bound,
// and which failure is rethrown. Also built under ThreadSanitizer (tools/tsan.sh).
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/detail/ordered_window.hpp>

using tpuprof::detail::ordered_window;
using tpuprof::detail::parallel_in_order;

TEST_CASE(
    "ordered_window: consumed in index order, each after its job, at most `window` in flight") {
  for (unsigned threads : {1u, 2u, 4u}) {
    for (std::size_t window : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{50}}) {
      CAPTURE(threads);
      CAPTURE(window);
      const std::size_t n = 40;
      std::vector<int> done(n, 0);  // written by job(i), read by consume(i): ordered by the pool
      std::vector<std::size_t> order;
      std::atomic<std::size_t> started{0}, most_ahead{0};
      std::size_t consumed = 0;
      std::atomic<std::size_t> consumed_seen{0};
      ordered_window(
          n, threads, window,
          [&](std::size_t i) {
            ++started;
            // jobs in flight = started and not consumed; i < consumed + window
            const std::size_t ahead = i + 1 - consumed_seen.load();
            std::size_t m = most_ahead.load();
            while (ahead > m && !most_ahead.compare_exchange_weak(m, ahead)) {
            }
            done[i] = static_cast<int>(i) + 1;
          },
          [&](std::size_t i) {
            order.push_back(i);
            CHECK(done[i] == static_cast<int>(i) + 1);
            consumed = i + 1;
            consumed_seen.store(consumed);
          });
      CHECK(started.load() == n);
      REQUIRE(order.size() == n);
      for (std::size_t i = 0; i < n; ++i) CHECK(order[i] == i);
      CHECK(most_ahead.load() <= window);
    }
  }
}

TEST_CASE(
    "ordered_window: the first failure in index order is rethrown, nothing after it consumed") {
  for (unsigned threads : {1u, 3u}) {
    CAPTURE(threads);
    std::vector<std::size_t> consumed;
    std::string what;
    try {
      ordered_window(
          20, threads, 4,
          [&](std::size_t i) {
            if (i == 5 || i == 7) throw std::runtime_error("job " + std::to_string(i));
          },
          [&](std::size_t i) {
            if (i == 9) throw std::runtime_error("consume 9");
            consumed.push_back(i);
          });
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
    CHECK(what == "job 5");
    CHECK(consumed == std::vector<std::size_t>{0, 1, 2, 3, 4});
  }
  // a consumer's failure stops the rest the same way
  std::vector<std::size_t> consumed;
  std::string what;
  try {
    ordered_window(
        20, 2, 3, [](std::size_t) {},
        [&](std::size_t i) {
          if (i == 2) throw std::runtime_error("consume 2");
          consumed.push_back(i);
        });
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  CHECK(what == "consume 2");
  CHECK(consumed == std::vector<std::size_t>{0, 1});
}

TEST_CASE(
    "parallel_in_order: every job runs, announce(i) comes in order; the first failing job wins") {
  for (unsigned threads : {1u, 2u, 4u}) {
    CAPTURE(threads);
    const std::size_t n = 12;
    std::vector<int> ran(n, 0);
    std::vector<std::size_t> announced;
    parallel_in_order(
        n, threads, [&](std::size_t i) { ran[i] = 1; },
        [&](std::size_t i) { announced.push_back(i); });
    REQUIRE(announced.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(announced[i] == i);
      CHECK(ran[i] == 1);
    }
    // jobs 3 and 8 fail: job 3's error, and nothing announced after it
    announced.clear();
    std::string what;
    try {
      parallel_in_order(
          n, threads,
          [&](std::size_t i) {
            if (i == 3 || i == 8) throw std::runtime_error("job " + std::to_string(i));
          },
          [&](std::size_t i) { announced.push_back(i); });
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
    CHECK(what == "job 3");
    CHECK(announced == std::vector<std::size_t>{0, 1, 2, 3});
  }
  int calls = 0;
  parallel_in_order(
      0, 2, [&](std::size_t) { ++calls; }, [&](std::size_t) { ++calls; });
  CHECK(calls == 0);
}
