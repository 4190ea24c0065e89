// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/worker_pool.hpp"

#include <algorithm>

namespace substruct {
namespace {

constexpr std::uint64_t kStop = ~std::uint64_t(0);
// Polls before sleeping: some microseconds, so that back-to-back steps find their workers awake.
constexpr int kSpins = 2000;

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

WorkerPool::WorkerPool(int threads) {
  const int n = std::max(1, threads);
  failures_.resize(std::size_t(n));
  workers_.reserve(std::size_t(n - 1));
  for (int k = 1; k < n; ++k) workers_.emplace_back([this, k] { work(k); });
}

WorkerPool::~WorkerPool() {
  generation_.store(kStop, std::memory_order_release);
  generation_.notify_all();
  workers_.clear();  // joins
}

void WorkerPool::call(int part) {
  try {
    (*task_)(part);
  } catch (...) {
    failures_[std::size_t(part)] = std::current_exception();
  }
}

void WorkerPool::work(int part) {
  std::uint64_t seen = 0;
  for (;;) {
    std::uint64_t g = generation_.load(std::memory_order_acquire);
    for (int spin = 0; g == seen && spin < kSpins; ++spin) {
      relax();
      g = generation_.load(std::memory_order_acquire);
    }
    if (g == seen) {
      generation_.wait(seen, std::memory_order_acquire);
      continue;
    }
    if (g == kStop) return;
    seen = g;
    call(part);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

void WorkerPool::run(const std::function<void(int)>& task) {
  std::fill(failures_.begin(), failures_.end(), nullptr);
  task_ = &task;
  if (!workers_.empty()) {
    pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    generation_.notify_all();
  }
  call(0);
  if (!workers_.empty()) {
    int left = pending_.load(std::memory_order_acquire);
    for (int spin = 0; left != 0 && spin < kSpins; ++spin) {
      relax();
      left = pending_.load(std::memory_order_acquire);
    }
    while (left != 0) {
      pending_.wait(left, std::memory_order_acquire);
      left = pending_.load(std::memory_order_acquire);
    }
  }
  task_ = nullptr;
  for (const std::exception_ptr& f : failures_)
    if (f) std::rethrow_exception(f);
}

}  // namespace substruct
