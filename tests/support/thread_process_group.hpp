// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A ProcessGroup whose ranks are threads of this process, to test collective code (shared
// polynomial terms, shared modal derivatives) without mpirun: run_on_ranks(K, f) runs f(group)
// on K threads, each with its own rank, and all_gather meets them at a barrier.
#include <atomic>
#include <barrier>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "substruct/solvers/process_group.hpp"

namespace substruct::testing {

class ThreadProcessGroup final : public ProcessGroup {
 public:
  struct Board {
    explicit Board(int ranks) : slots(static_cast<std::size_t>(ranks)), meet(ranks) {}
    std::vector<std::string> slots;
    std::barrier<> meet;
    std::atomic<bool> stop{false};
  };
  ThreadProcessGroup(Board& board, int rank) : board_(board), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(board_.slots.size()); }
  std::vector<std::string> all_gather(const std::string& bytes) override {
    board_.slots[static_cast<std::size_t>(rank_)] = bytes;
    board_.meet.arrive_and_wait();  // everyone has written
    std::vector<std::string> all = board_.slots;
    board_.meet.arrive_and_wait();  // everyone has read
    return all;
  }
  void raise_stop() override { board_.stop = true; }
  bool stop_raised() override { return board_.stop; }

 private:
  Board& board_;
  int rank_;
};

/// Runs body(group) on `ranks` threads, one rank each, and waits for all of them.
inline void run_on_ranks(int ranks, const std::function<void(ProcessGroup&)>& body) {
  ThreadProcessGroup::Board board(ranks);
  std::vector<std::thread> threads;
  for (int p = 0; p < ranks; ++p)
    threads.emplace_back([&board, &body, p] {
      ThreadProcessGroup group(board, p);
      body(group);
    });
  for (std::thread& t : threads) t.join();
}

}  // namespace substruct::testing
