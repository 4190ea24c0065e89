// SPDX-License-Identifier: GPL-3.0-or-later
// The worker pool: every part runs once per run(), concurrently (a barrier across the parts
// completes), across many back-to-back runs; a part's exception reaches the caller, the lowest
// part's first, and the pool runs again afterwards.
#include <atomic>
#include <barrier>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/worker_pool.hpp"

namespace substruct {
namespace {

TEST(WorkerPool, RunsEveryPartOncePerRun) {
  for (int threads : {1, 2, 4}) {
    WorkerPool pool(threads);
    ASSERT_EQ(pool.size(), threads);
    std::vector<int> calls(std::size_t(threads), 0);
    for (int run = 0; run < 2000; ++run) pool.run([&](int k) { ++calls[std::size_t(k)]; });
    for (int c : calls) EXPECT_EQ(c, 2000) << threads << " threads";
  }
}

TEST(WorkerPool, PartsRunConcurrently) {
  WorkerPool pool(3);
  std::barrier sync(3);
  std::atomic<int> after{0};
  for (int run = 0; run < 100; ++run)
    pool.run([&](int) {
      sync.arrive_and_wait();  // would never complete if the parts ran one after another
      ++after;
    });
  EXPECT_EQ(after.load(), 300);
}

TEST(WorkerPool, ZeroThreadsMeansTheCallerAlone) {
  WorkerPool pool(0);
  EXPECT_EQ(pool.size(), 1);
  int calls = 0;
  pool.run([&](int k) { calls += k + 1; });
  EXPECT_EQ(calls, 1);
}

TEST(WorkerPool, RethrowsTheLowestFailingPartAndRunsAgain) {
  WorkerPool pool(4);
  try {
    pool.run([](int k) {
      if (k >= 2) throw std::runtime_error("part " + std::to_string(k));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "part 2");
  }
  std::atomic<int> sum{0};
  pool.run([&](int k) { sum += k; });
  EXPECT_EQ(sum.load(), 0 + 1 + 2 + 3);
}

TEST(WorkerPool, StopsWhileWorkersSleep) {
  auto pool = std::make_unique<WorkerPool>(3);
  pool->run([](int) {});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the spinning
  pool.reset();                                                // joins sleeping workers
  SUCCEED();
}

}  // namespace
}  // namespace substruct
