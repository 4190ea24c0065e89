#include "substruct/core/parallel_tasks.hpp"

#include <sched.h>

#include <algorithm>
#include <thread>

#ifdef SUBSTRUCT_WITH_TBB
#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_for_each.h>
#include <tbb/task_arena.h>
#endif

#include "substruct/core/error.hpp"
#include "substruct/core/parse_number.hpp"

namespace substruct {

#ifdef SUBSTRUCT_WITH_TBB
struct ParallelTasks::Arena {
  explicit Arena(int threads) : arena(threads) {}
  tbb::task_arena arena;
};
#else
struct ParallelTasks::Arena {};  // never made: without oneTBB every call runs in order
#endif

int parse_thread_count(const std::string& setting) {
  if (setting == "auto") {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  }
  const auto n = parse_integer(setting);
  if (!n || *n < 1 || *n > 4096)
    throw Error("threads must be auto or a whole number from 1 to 4096, not '" + setting + "'");
  return static_cast<int>(*n);
}

#ifdef SUBSTRUCT_WITH_TBB
ParallelTasks::ParallelTasks(int threads)
    // More threads than cores would only wait for one another (and oneTBB allows no more).
    : threads_(std::clamp(threads, 1, std::max(1, tbb::info::default_concurrency()))) {
  if (threads_ > 1) arena_ = std::make_unique<Arena>(threads_);
}
#else
ParallelTasks::ParallelTasks(int /*threads*/) : threads_(1) {}
#endif
ParallelTasks::~ParallelTasks() = default;
ParallelTasks::ParallelTasks(ParallelTasks&&) noexcept = default;
ParallelTasks& ParallelTasks::operator=(ParallelTasks&&) noexcept = default;

void ParallelTasks::for_each(std::size_t n, const std::function<void(std::size_t)>& body) const {
  if (!arena_ || n < 2) {
    for (std::size_t k = 0; k < n; ++k) body(k);
    return;
  }
#ifdef SUBSTRUCT_WITH_TBB
  arena_->arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n), [&](const auto& range) {
      for (std::size_t k = range.begin(); k != range.end(); ++k) body(k);
    });
  });
#endif
}

void ParallelTasks::down_tree(const Tree& tree, TreeSchedule schedule,
                              const std::function<void(int)>& body) const {
  const std::vector<int>& order = *tree.bfs_order;
  if (!arena_) {
    for (int i : order) body(i);
    return;
  }
  if (schedule == TreeSchedule::levels) {
    const std::vector<std::size_t>& start = *tree.level_start;
    for (std::size_t level = 0; level + 1 < start.size(); ++level) {
      const std::size_t b = start[level];
      for_each(start[level + 1] - b, [&](std::size_t k) { body(order[b + k]); });
    }
    return;
  }
#ifdef SUBSTRUCT_WITH_TBB
  const std::vector<std::vector<int>>& children = *tree.children;
  arena_->arena.execute([&] {
    tbb::parallel_for_each(tree.roots->begin(), tree.roots->end(),
                           [&](int i, tbb::feeder<int>& feeder) {
                             body(i);
                             for (int c : children[static_cast<std::size_t>(i)]) feeder.add(c);
                           });
  });
#endif
}

}  // namespace substruct
