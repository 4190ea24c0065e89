// ParallelTasks: every item once, a tree node only after its parent under both schedules, errors
// reach the caller, and the thread setting's parsing.
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
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

// A forest of two roots: 0 → {1, 2, 3}, 1 → {4, 5}, 3 → {6}, 6 → {7 … 40}; 41 → {42}.
struct Forest {
  std::vector<std::vector<int>> children = std::vector<std::vector<int>>(43);
  std::vector<int> order, roots{0, 41};
  std::vector<std::size_t> level_start;
  Forest() {
    children[0] = {1, 2, 3};
    children[1] = {4, 5};
    children[3] = {6};
    for (int c = 7; c <= 40; ++c) children[6].push_back(c);
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
  }
  ParallelTasks::Tree view() const { return {&order, &level_start, &children, &roots}; }
};

TEST(ParallelTasks, DownTreeRunsEveryNodeOnceAfterItsParent) {
  const Forest forest;
  std::vector<int> parent(43, -1);
  for (std::size_t i = 0; i < forest.children.size(); ++i)
    for (int c : forest.children[i]) parent[static_cast<std::size_t>(c)] = static_cast<int>(i);
  for (int threads : {1, 2, 4})
    for (TreeSchedule schedule : {TreeSchedule::levels, TreeSchedule::dependencies}) {
      const ParallelTasks tasks(threads);
      std::vector<std::atomic<int>> done(43);
      std::atomic<int> misordered{0};
      tasks.down_tree(forest.view(), schedule, [&](int i) {
        const int p = parent[static_cast<std::size_t>(i)];
        if (p >= 0 && done[static_cast<std::size_t>(p)].load() != 1) ++misordered;
        ++done[static_cast<std::size_t>(i)];
      });
      for (const auto& d : done) EXPECT_EQ(d.load(), 1);
      EXPECT_EQ(misordered.load(), 0) << threads << " threads";
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
      EXPECT_THROW(tasks.down_tree(forest.view(), schedule,
                                   [](int i) {
                                     if (i == 6) throw std::runtime_error("node 6");
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
