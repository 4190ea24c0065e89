// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/solvers/process_group.hpp"

namespace substruct {

namespace {

class SingleProcess final : public ProcessGroup {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<std::string> all_gather(const std::string& bytes) override { return {bytes}; }
  void raise_stop() override {}
  bool stop_raised() override { return false; }
};

}  // namespace

std::unique_ptr<ProcessGroup> single_process() {
  return std::make_unique<SingleProcess>();
}

}  // namespace substruct
