#include "substruct/coupling/coupling_method.hpp"

namespace substruct {

bool CouplingMethod::can_run(const Scene& /*scene*/, std::string& /*reason*/) const {
  return true;
}

void StepStats::add(const std::string& stage, double seconds) {
  for (auto& [name, value] : stage_seconds) {
    if (name == stage) {
      value += seconds;
      return;
    }
  }
  stage_seconds.emplace_back(stage, seconds);
}

}  // namespace substruct
