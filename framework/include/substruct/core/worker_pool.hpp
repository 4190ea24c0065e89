// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A fixed set of threads kept between calls, for per-step work too short to pay for starting
/// threads every time (a geometry update of a few hundred microseconds: starting 15 threads
/// costs about as much). run(task) calls task(k) for every k in [0, size()) at once, k = 0 on
/// the calling thread, and returns when all have returned. Idle workers spin for a few
/// microseconds, then sleep until the next run().
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace substruct {

class WorkerPool {
 public:
  /// `threads` parts per run (at least 1): threads − 1 workers plus the caller.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  /// task(k) for k in [0, size()), concurrently (so the parts may wait for one another, e.g. at
  /// a std::barrier). An exception escaping a part is rethrown here, the lowest part's first.
  /// Not reentrant: one run() at a time.
  void run(const std::function<void(int)>& task);

 private:
  void work(int part);
  void call(int part);

  std::vector<std::jthread> workers_;
  const std::function<void(int)>* task_ = nullptr;
  std::vector<std::exception_ptr> failures_;
  std::atomic<std::uint64_t> generation_{0};  // one more per run(); all bits ~0: stop
  std::atomic<int> pending_{0};               // workers still in the current run
};

}  // namespace substruct
