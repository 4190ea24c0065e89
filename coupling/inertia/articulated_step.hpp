// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The step of the articulated (two-way) coupling, lumping = articulated: every domain's q and the
// free root's frame advanced together by the implicit midpoint rule (θ = newmark_gamma), the
// step's accelerations from the articulated-body recursion of articulated_body.hpp (leaves → root
// the subtrees' articulated inertias, root → leaves the accelerations). With the step's
// acceleration a,
//   q_θ = q + θh q̇ + θ(h²/2) a,  q̇_θ = q̇ + θh a,  the equations of motion at θ,
//   q₊ = q + h q̇ + (h²/2) a,     q̇₊ = q̇ + h a
// (for a linear system the trapezoidal rule's states; for a nonlinear one without its energy
// drift). The first of articulated_solves solves takes the frames, inertias and velocity terms at
// the step's start, each further one at the last solve's midpoint, the elastic forces linearised
// there and corrected to the discrete gradient along the last solve's step (discrete_gradient.hpp).
#include <vector>

#include <Eigen/Core>

#include "articulated_body.hpp"
#include "domain_tree.hpp"
#include "substruct/core/types.hpp"

namespace substruct::inertia {

class InertiaSystem;

class ArticulatedStep {
 public:
  /// Each domain's modal mass M_r = UᵀMU.
  void precompute(const DomainTree& tree);
  /// One step dt of every domain and the root frame under the system's loads and gravity;
  /// returns the linear solves. Throws DivergenceError when a state is not finite.
  long step(InertiaSystem& system, double dt, const Vec3& gravity);

 private:
  // The linear system of one step for its acceleration a: each domain's frames, inertias and
  // velocity terms at its current state, its elastic forces linearised about lin_q_, its modes at
  // q = q̃ + c_q a, q̇ = ṽ + c_v a; solved into nodes_[i].A, .qddot. With `gradient` the
  // elastic force is the discrete gradient along the step of the last solve (lin_q_ its q_θ).
  void solve(InertiaSystem& system, double theta, double c_q, double c_v, bool gradient,
             const Vec3& gravity);

  // Per domain its share of the step's system, its Newmark predictors q̃, ṽ, the point its
  // forces are linearised at, its modal mass UᵀMU; the root's node holds the free root's frame
  // acceleration (a, α) in its axes.
  std::vector<ArticulatedNode> nodes_;
  std::vector<Eigen::VectorXd> pred_q_, pred_v_, lin_q_, start_q_, start_v_, mid_v_;
  std::vector<Eigen::MatrixXd> modal_mass_;
  std::vector<double> start_energy_;  // each domain's elastic energy W(qₙ) (stiffness scaled)
  Eigen::VectorXd f_mid_;             // scratch: f(q_½) for θ ≠ ½
};

}  // namespace substruct::inertia
