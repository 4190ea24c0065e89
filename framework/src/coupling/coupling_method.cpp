// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/coupling/coupling_method.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct {

namespace {

const char* stage_name(CouplingMethod::Stage stage) {
  switch (stage) {
    case CouplingMethod::Stage::created:
      return "created";
    case CouplingMethod::Stage::precomputed:
      return "precomputed";
    case CouplingMethod::Stage::running:
      return "reset";
  }
  return "?";
}

const char* needed_call(CouplingMethod::Stage stage) {
  return stage == CouplingMethod::Stage::running ? "reset()" : "precompute()";
}

// Empty when `value` is 0 entries or 3N finite entries; else what is wrong with it.
std::string check_full_space_vector(const Eigen::VectorXd& value, Index vertices) {
  if (value.size() != 0 && value.size() != 3 * vertices)
    return fmt::format("{} entries where the mesh has 3N = {} (give 3N or none)", value.size(),
                       3 * vertices);
  if (!value.allFinite()) return "not finite";
  return "";
}

}  // namespace

std::string CouplingMethod::prefix() const {
  return plugin_name().empty() ? std::string("coupling method: ") : plugin_name() + ": ";
}

void CouplingMethod::require(Stage at_least, const char* call) const {
  if (static_cast<int>(stage_) < static_cast<int>(at_least))
    throw Error(fmt::format("{}{}() called before {} (the method is {})", prefix(), call,
                            needed_call(at_least), stage_name(stage_)));
}

const Scene& CouplingMethod::scene() const {
  require(Stage::precomputed, "scene");
  return *scene_;
}

std::vector<bool> CouplingMethod::rigid_domains(const Scene& scene) const {
  const std::vector<Index> ids = do_rigid_domains();
  if (ids.empty()) return {};
  std::vector<bool> rigid(static_cast<std::size_t>(scene.num_domains()), false);
  for (const Index d : ids) {
    if (d < 0 || d >= scene.num_domains())
      throw Error(fmt::format("{}rigid domain {} is not a domain of scene '{}' (it has {})",
                              prefix(), d, scene.name, scene.num_domains()));
    rigid[static_cast<std::size_t>(d)] = true;
  }
  return rigid;
}

CanRun CouplingMethod::can_run(const Scene& scene) const {
  if (scene.mesh.num_vertices() == 0 || scene.mesh.num_elements() == 0)
    return CanRun::no("the scene's mesh has no vertices or no elements");
  return check_scene(scene);
}

void CouplingMethod::precompute(const PrecomputeContext& context) {
  if (stage_ != Stage::created)
    throw Error(fmt::format("{}precompute() called twice (create a new method for another scene)",
                            prefix()));
  if (const CanRun verdict = can_run(context.scene); !verdict)
    throw Error(prefix() + verdict.reason);
  do_precompute(context);
  scene_ = &context.scene;
  stage_ = Stage::precomputed;
}

void CouplingMethod::reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) {
  require(Stage::precomputed, "reset");
  const Index n = scene_->mesh.num_vertices();
  for (const auto& [name, value] : {std::pair{"u0", &u0}, std::pair{"v0", &v0}})
    if (const std::string problem = check_full_space_vector(*value, n); !problem.empty())
      throw Error(fmt::format("{}reset(): {}: {}", prefix(), name, problem));
  do_reset(u0, v0);
  stage_ = Stage::running;
}

namespace {

// The checks step() and solve_static() make of the forces; "" when they are usable.
std::string check_forces(const ExternalForces& forces, Index vertices) {
  if (!forces.gravity.allFinite()) return "gravity is not finite";
  for (const PointForce& p : forces.point_forces) {
    if (p.vertex < 0 || p.vertex >= vertices)
      return fmt::format("a point force acts on vertex {}, the mesh has {} (numbered from 0)",
                         p.vertex, vertices);
    if (!p.force.allFinite())
      return fmt::format("the point force on vertex {} is not finite", p.vertex);
  }
  if (const std::string problem = check_full_space_vector(forces.nodal, vertices); !problem.empty())
    return "nodal forces: " + problem;
  for (const PointStiffness& k : forces.point_stiffness) {
    if (k.vertex < 0 || k.vertex >= vertices)
      return fmt::format("a point stiffness acts on vertex {}, the mesh has {} (numbered from 0)",
                         k.vertex, vertices);
    if (!k.stiffness.allFinite())
      return fmt::format("the point stiffness on vertex {} is not finite", k.vertex);
  }
  return "";
}

}  // namespace

void CouplingMethod::step(double dt, const ExternalForces& forces, StepStats& stats) {
  require(Stage::running, "step");
  if (!(dt > 0) || !std::isfinite(dt))
    throw Error(fmt::format("{}step(): dt must be a finite number > 0, found {}", prefix(), dt));
  if (const std::string problem = check_forces(forces, scene_->mesh.num_vertices());
      !problem.empty())
    throw Error(fmt::format("{}step(): {}", prefix(), problem));
  do_step(dt, forces, stats);
}

StaticReport CouplingMethod::solve_static(const ExternalForces& forces) {
  require(Stage::running, "solve_static");
  if (const CanRun can = can_solve_static(); !can)
    throw Error(fmt::format("{}{}", prefix(), can.reason));
  if (const std::string problem = check_forces(forces, scene_->mesh.num_vertices());
      !problem.empty())
    throw Error(fmt::format("{}solve_static(): {}", prefix(), problem));
  return do_solve_static(forces);
}

CanRun CouplingMethod::do_can_solve_static() const {
  return CanRun::no(
      "this method defines no static solve (its equilibrium is where a damped run comes to "
      "rest: substruct run with more [run] steps)");
}

StaticReport CouplingMethod::do_solve_static(const ExternalForces& /*forces*/) {
  throw Error(fmt::format("{}{}", prefix(), do_can_solve_static().reason));
}

void CouplingMethod::positions(Points& x) const {
  require(Stage::running, "positions");
  do_positions(x);
}

void CouplingMethod::velocities(Points& v) const {
  require(Stage::running, "velocities");
  do_velocities(v);
}

Energies CouplingMethod::energies(const Vec3& gravity) const {
  require(Stage::running, "energies");
  return do_energies(gravity);
}

Index CouplingMethod::dofs() const {
  require(Stage::precomputed, "dofs");
  return do_dofs();
}

const ReducedGeometry* CouplingMethod::reduced_geometry() const {
  require(Stage::precomputed, "reduced_geometry");
  return do_reduced_geometry();
}

void CouplingMethod::domain_poses(std::vector<DomainPose>& poses) const {
  require(Stage::running, "domain_poses");
  do_domain_poses(poses);
}

double CouplingMethod::interface_gap() const {
  require(Stage::running, "interface_gap");
  return do_interface_gap();
}

void ReducedCouplingMethod::do_positions(Points& x) const {
  std::vector<DomainPose> current;
  poses(current);
  reduced_world_state(layout(), current, &x, nullptr);
}

void ReducedCouplingMethod::do_velocities(Points& v) const {
  std::vector<DomainPose> current;
  poses(current);
  reduced_world_state(layout(), current, nullptr, &v);
}

}  // namespace substruct
