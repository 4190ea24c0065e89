// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The floating domains' own terms of one backward Euler step in velocities (Wu, Mukherjee, Wang
/// 2015, §4.3, Eq. 9–10, App. A), at the current state; a coupling method adds its coupling terms
/// (b_d −= Δt J_aᵀ f_a, A_(d_a, d_b) += Δt² J_aᵀ K_ab J_b for forces f acting on vertices a with
/// tangent K) and solves.
#include <utility>
#include <vector>
#include "substruct/core/parallel_tasks.hpp"

#include "substruct/loads/external_forces.hpp"
#include "substruct/multidomain/block_system.hpp"
#include "substruct/multidomain/floating_domain.hpp"

namespace substruct {

/// What the domains' step terms depend on besides the domains.
struct DomainStepState {
  const std::vector<DomainMotion>* motion = nullptr;
  /// The frames' linear and angular accelerations of the last step (frame axes), for the
  /// explicit fictitious forces.
  const std::vector<std::pair<Vec3, Vec3>>* frame_acceleration = nullptr;
  double rayleigh_mass = 0, rayleigh_stiffness = 0;  // D = a M + b K
};

/// Clears `system` (sized for the domains' unknowns) and fills the domains' rows:
///   deformation (Eq. 9): ((1 + Δt a) M_r + (Δt b + Δt²) K) q̇' =
///                        M_r q̇ + Δt (Uᵀ(Rᵀ f_ext + f_fic) − f_int),   M_r = UᵀMU,
///   rigid (Eq. 10):      m(1 + Δt a) v' = m v + Δt (m g + Σ F),
///                        I(1 + Δt a) ω' = I ω + Δt (τ − ω × I ω),
/// with the fictitious forces f_fic by the precomputed integrals at the current q, q̇ and frame
/// motion, gravity through UᵀME, and the point and nodal forces of `forces` (world) on the
/// domains' vertices (`domain_of`: the domain of each global vertex, −1 for none; a vertex with
/// copies in several domains gets the force on the copy of that domain). Throws Error for a force
/// on a vertex out of range. With `tasks`, the domains are spread over its threads (each fills
/// only its own rows: the same numbers for any thread count).
void assemble_domain_step(const std::vector<FloatingDomain>& domains,
                          const std::vector<int>& domain_of, const DomainStepState& state,
                          const ExternalForces& forces, double dt, BlockSystem& system,
                          const ParallelTasks* tasks = nullptr);

}  // namespace substruct
