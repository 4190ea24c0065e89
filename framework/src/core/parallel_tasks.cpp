// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/parallel_tasks.hpp"

#include <sched.h>

#include <algorithm>
#include <iterator>
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

namespace {
// TreeSchedule::dependencies cuts a tree into about this many pieces per thread: enough for the
// threads to even out, few enough that a step's tasks cost little to hand out.
constexpr std::size_t kPiecesPerThread = 16;
}  // namespace

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

std::vector<int> subtree_sizes(const std::vector<int>& bfs_order,
                               const std::vector<std::vector<int>>& children) {
  std::vector<int> size(children.size(), 1);
  for (auto it = bfs_order.rbegin(); it != bfs_order.rend(); ++it)
    for (int c : children[static_cast<std::size_t>(*it)])
      size[static_cast<std::size_t>(*it)] += size[static_cast<std::size_t>(c)];
  return size;
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
  // A task is one node, whose children are handed out when it is done, or a run of siblings whose
  // subtrees together have at most `grain` nodes (the tree cut into about kPiecesPerThread pieces
  // per thread), walked depth first in one task: a branch's many small leaves are then a few
  // tasks, not one each.
  const std::vector<std::vector<int>>& children = *tree.children;
  const std::vector<int>* size = tree.subtree_size;
  const int grain =
      size
          ? static_cast<int>(order.size() / (kPiecesPerThread * static_cast<std::size_t>(threads_)))
          : 0;
  struct Item {
    const int* nodes;
    int count;
    bool subtrees;  // false: the one node nodes[0] (count 1)
  };
  // The tasks for a node's children (or the roots), in their order.
  const auto split = [&](const std::vector<int>& list, auto&& add) {
    std::size_t run = 0;
    int run_size = 0;
    const auto flush = [&](std::size_t end) {
      if (end > run) add(Item{list.data() + run, static_cast<int>(end - run), true});
      run = end;
      run_size = 0;
    };
    for (std::size_t k = 0; k < list.size(); ++k) {
      const int s = size ? (*size)[static_cast<std::size_t>(list[k])] : grain + 1;
      if (s > grain) {
        flush(k);
        add(Item{list.data() + k, 1, false});
        run = k + 1;
      } else {
        if (run_size + s > grain) flush(k);
        run_size += s;
      }
    }
    flush(list.size());
  };
  std::vector<Item> roots;
  split(*tree.roots, [&](const Item& item) { roots.push_back(item); });
  arena_->arena.execute([&] {
    tbb::parallel_for_each(
        roots.begin(), roots.end(), [&](const Item& item, tbb::feeder<Item>& feeder) {
          if (!item.subtrees) {
            body(item.nodes[0]);
            split(children[static_cast<std::size_t>(item.nodes[0])],
                  [&](const Item& next) { feeder.add(next); });
            return;
          }
          std::vector<int> stack(std::make_reverse_iterator(item.nodes + item.count),
                                 std::make_reverse_iterator(item.nodes));
          while (!stack.empty()) {  // depth first: each node before its children
            const int n = stack.back();
            stack.pop_back();
            body(n);
            const std::vector<int>& c = children[static_cast<std::size_t>(n)];
            stack.insert(stack.end(), c.rbegin(), c.rend());
          }
        });
  });
#endif
}

}  // namespace substruct
