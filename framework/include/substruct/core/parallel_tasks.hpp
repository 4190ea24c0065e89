// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Per-step work spread over cores ([run] threads), on oneTBB: a loop over independent items
/// (domains, coupling elements) and a walk down a tree where each node needs only its parent's
/// new state (Zhao 2014, §5.4.2): level by level, a barrier between levels, or each node as soon
/// as its parent is done, with no global barrier (the thesis's Scheme 1, a node's whole step
/// being one task; given the subtree sizes, a run of small sibling subtrees is one task, walked
/// depth first).
/// Neither splits a node's own work nor adds across nodes, so results do not depend on the
/// number of threads (callers keep any cross-node sum in a fixed order). With one thread, or in a
/// build without oneTBB, every call runs in order on the calling thread.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace substruct {

/// How a tree walk is scheduled (ParallelTasks::down_tree).
enum class TreeSchedule {
  levels,       // one parallel loop per depth level
  dependencies  // a node is a task as soon as its parent finishes
};

/// "auto" → the cores this process may use; "N" → N ≥ 1. Throws Error otherwise.
int parse_thread_count(const std::string& setting);

/// The number of nodes of each node's subtree, itself included, for a forest given by a
/// breadth-first order and each node's children.
std::vector<int> subtree_sizes(const std::vector<int>& bfs_order,
                               const std::vector<std::vector<int>>& children);

class ParallelTasks {
 public:
  /// `threads` ≥ 1 (1: serial), at most the cores this process may use (more are not started).
  explicit ParallelTasks(int threads = 1);
  ~ParallelTasks();
  ParallelTasks(ParallelTasks&&) noexcept;
  ParallelTasks& operator=(ParallelTasks&&) noexcept;

  /// The threads its loops run on.
  int threads() const { return threads_; }

  /// body(k) for every k in [0, n), concurrently and in any order. An exception escaping a body
  /// stops the loop and is rethrown here.
  void for_each(std::size_t n, const std::function<void(std::size_t)>& body) const;

  /// body(i) for every node of the forest whose roots are `roots` and whose children are
  /// children[i], each after its parent's body has returned. TreeSchedule::levels walks
  /// `bfs_order` (nodes by depth) level by level: level_start[k] is where depth k begins in it,
  /// level_start.back() its size.
  struct Tree {
    const std::vector<int>* bfs_order;
    const std::vector<std::size_t>* level_start;
    const std::vector<std::vector<int>>* children;
    const std::vector<int>* roots;
    /// Optional: the number of nodes of each node's subtree (itself included; subtree_sizes).
    /// With it, TreeSchedule::dependencies runs a small subtree as one task.
    const std::vector<int>* subtree_size = nullptr;
  };
  void down_tree(const Tree& tree, TreeSchedule schedule,
                 const std::function<void(int)>& body) const;

 private:
  struct Arena;
  int threads_ = 1;
  std::unique_ptr<Arena> arena_;  // null with one thread
};

}  // namespace substruct
