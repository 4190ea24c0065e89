// SPDX-License-Identifier: GPL-3.0-or-later
// ParallelTasks: every item once, a tree node only after its parent under both schedules, errors
// reach the caller, and the thread setting's parsing.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/core/parallel_tasks.hpp"

namespace substruct {
namespace {

TEST(ParallelTasks, ForEachVisitsEveryItemOnce) {
  for (int threads : {1, 2, 4}) {
    const ParallelTasks tasks(threads);
    // At most the cores (and one in a build without oneTBB).
    EXPECT_GE(tasks.threads(), 1);
    EXPECT_LE(tasks.threads(), std::min(threads, parse_thread_count("auto")));
    std::vector<std::atomic<int>> seen(1000);
    tasks.for_each(seen.size(), [&](std::size_t k) { ++seen[k]; });
    for (const auto& s : seen) EXPECT_EQ(s.load(), 1) << threads << " threads";
    tasks.for_each(0, [](std::size_t) { FAIL() << "no items"; });
  }
}

// A forest of two roots: 0 → {1, 2, 3}, 1 → {4, 5}, 3 → {6}, 6 → {7 … 40}, each of 7 … 40
// → 20 leaves (43 …); 41 → {42}. 723 nodes: on two threads, runs of small sibling subtrees
// (up to 22 nodes) become one task each when the subtree sizes are given.
constexpr int kNodes = 43 + 34 * 20;
struct Forest {
  std::vector<std::vector<int>> children = std::vector<std::vector<int>>(kNodes);
  std::vector<int> order, roots{0, 41}, subtree_size;
  std::vector<std::size_t> level_start;
  Forest() {
    children[0] = {1, 2, 3};
    children[1] = {4, 5};
    children[3] = {6};
    int leaf = 43;
    for (int c = 7; c <= 40; ++c) {
      children[6].push_back(c);
      for (int k = 0; k < 20; ++k) children[static_cast<std::size_t>(c)].push_back(leaf++);
    }
    children[41] = {42};
    std::vector<int> level = roots;
    while (!level.empty()) {
      level_start.push_back(order.size());
      std::vector<int> next;
      for (int i : level) {
        order.push_back(i);
        next.insert(next.end(), children[static_cast<std::size_t>(i)].begin(),
                    children[static_cast<std::size_t>(i)].end());
      }
      level = next;
    }
    level_start.push_back(order.size());
    subtree_size = subtree_sizes(order, children);
  }
  // With the subtree sizes, or without (every node a task of its own).
  ParallelTasks::Tree view(bool sizes = true) const {
    return {&order, &level_start, &children, &roots, sizes ? &subtree_size : nullptr};
  }
};

TEST(ParallelTasks, SubtreeSizesCountTheirNodes) {
  const Forest forest;
  EXPECT_EQ(forest.subtree_size[0], 41 + 680);  // 0 … 40 and the leaves below 7 … 40
  EXPECT_EQ(forest.subtree_size[6], 35 + 680);
  EXPECT_EQ(forest.subtree_size[7], 21);
  EXPECT_EQ(forest.subtree_size[41], 2);
  EXPECT_EQ(forest.subtree_size[100], 1);
}

TEST(ParallelTasks, DownTreeRunsEveryNodeOnceAfterItsParent) {
  const Forest forest;
  std::vector<int> parent(kNodes, -1);
  for (std::size_t i = 0; i < forest.children.size(); ++i)
    for (int c : forest.children[i]) parent[static_cast<std::size_t>(c)] = static_cast<int>(i);
  for (int threads : {1, 2, 4})
    for (TreeSchedule schedule : {TreeSchedule::levels, TreeSchedule::dependencies})
      for (bool sizes : {true, false}) {
        const ParallelTasks tasks(threads);
        std::vector<std::atomic<int>> done(kNodes);
        std::atomic<int> misordered{0};
        tasks.down_tree(forest.view(sizes), schedule, [&](int i) {
          const int p = parent[static_cast<std::size_t>(i)];
          if (p >= 0 && done[static_cast<std::size_t>(p)].load() != 1) ++misordered;
          ++done[static_cast<std::size_t>(i)];
        });
        for (const auto& d : done) EXPECT_EQ(d.load(), 1);
        EXPECT_EQ(misordered.load(), 0) << threads << " threads, sizes " << sizes;
      }
}

// On two threads the grain is 723 / 32 = 22 nodes: each of 7 … 40 (21 nodes with its leaves) is
// walked within one task, so on one thread, parent first.
TEST(ParallelTasks, SmallSubtreesRunInOneTask) {
  const Forest forest;
  const ParallelTasks tasks(2);
  std::vector<std::thread::id> thread(kNodes);
  std::vector<int> position(kNodes);
  std::atomic<int> next{0};
  tasks.down_tree(forest.view(), TreeSchedule::dependencies, [&](int i) {
    thread[static_cast<std::size_t>(i)] = std::this_thread::get_id();
    position[static_cast<std::size_t>(i)] = next++;
    // A few microseconds of work each (4 ms in all), so that the other thread takes tasks.
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(5);
    while (std::chrono::steady_clock::now() < until) {
    }
  });
  for (int c = 7; c <= 40; ++c)
    for (int leaf : forest.children[static_cast<std::size_t>(c)]) {
      EXPECT_EQ(thread[static_cast<std::size_t>(leaf)], thread[static_cast<std::size_t>(c)]);
      EXPECT_GT(position[static_cast<std::size_t>(leaf)], position[static_cast<std::size_t>(c)]);
    }
}

TEST(ParallelTasks, AnErrorInABodyReachesTheCaller) {
  const Forest forest;
  for (int threads : {1, 3}) {
    const ParallelTasks tasks(threads);
    EXPECT_THROW(tasks.for_each(100,
                                [](std::size_t k) {
                                  if (k == 57) throw std::runtime_error("item 57");
                                }),
                 std::runtime_error);
    for (TreeSchedule schedule : {TreeSchedule::levels, TreeSchedule::dependencies})
      for (int bad : {6, 300})  // a node task's, a grouped leaf's
        EXPECT_THROW(tasks.down_tree(forest.view(), schedule,
                                     [bad](int i) {
                                       if (i == bad) throw std::runtime_error("node");
                                     }),
                     std::runtime_error);
    int calls = 0;
    tasks.for_each(1, [&](std::size_t) { ++calls; });  // usable afterwards
    EXPECT_EQ(calls, 1);
  }
}

TEST(ParallelTasks, ThreadCountsParse) {
  EXPECT_EQ(parse_thread_count("3"), 3);
  EXPECT_GE(parse_thread_count("auto"), 1);
  for (const char* bad : {"0", "-2", "two", "", "1.5", "100000"})
    EXPECT_THROW(parse_thread_count(bad), Error) << bad;
}

}  // namespace
}  // namespace substruct
