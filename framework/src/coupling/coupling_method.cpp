#include "substruct/coupling/coupling_method.hpp"

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

// Adds `seconds` to the stage called `stage`, appended in first-use order.
void add_stage(std::vector<std::pair<std::string, double>>& stages, const std::string& stage,
               double seconds) {
  for (auto& [name, value] : stages) {
    if (name == stage) {
      value += seconds;
      return;
    }
  }
  stages.emplace_back(stage, seconds);
}

// The world positions (x) or velocities (v) of the reduced layout at the current poses.
void reduced_state(const CouplingMethod& method, Points* x, Points* v) {
  const ReducedGeometry* layout = method.reduced_geometry();
  if (layout == nullptr)
    throw Error(
        "this coupling method has no reduced layout (not precomputed yet?) and does not "
        "implement positions()/velocities()");
  std::vector<DomainPose> poses;
  method.domain_poses(poses);
  reduced_world_state(*layout, poses, x, v);
}

}  // namespace

void CouplingMethod::positions(Points& x) const {
  reduced_state(*this, &x, nullptr);
}

void CouplingMethod::velocities(Points& v) const {
  reduced_state(*this, nullptr, &v);
}

bool CouplingMethod::can_run(const Scene& /*scene*/, std::string& /*reason*/) const {
  return true;
}

void StepStats::add(const std::string& stage, double seconds) {
  add_stage(stage_seconds, stage, seconds);
}

void PrecomputeStats::add(const std::string& stage, double seconds) {
  add_stage(stage_seconds, stage, seconds);
}

}  // namespace substruct
