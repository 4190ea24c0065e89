// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// What every method of floating domains does with their state besides coupling them: the initial
/// state from full-space displacements, the update from a step's velocities, the
/// energies, and the layout and poses the geometry plugins turn into world positions.
#include <utility>
#include <vector>

#include "substruct/core/energies.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/multidomain/block_system.hpp"
#include "substruct/multidomain/floating_domain.hpp"

namespace substruct {

/// The domains' state closest to full-space u0, v0 (3N each, global numbering, empty = zero): for
/// a free domain its mass-weighted mean displacement and velocity move and drive the frame, its
/// angular velocity is I⁻¹ times the angular momentum about the centre of mass; the rest is
/// projected on the basis, q = UᵀM u (UᵀMU = I). Throws Error for a size other than 3N.
std::vector<DomainMotion> floating_motion_from(const std::vector<FloatingDomain>& domains,
                                               Index num_vertices, const Eigen::VectorXd& u0,
                                               const Eigen::VectorXd& v0);

/// The update from the step's velocities y (q̇', v', ω' of each domain at `system`'s offsets),
/// the velocities at the fraction θ ∈ [½, 1] of the step, solved by a backward Euler step of θΔt
/// (which is what the linearized θ-method solves): q += Δt y, q̇ ← q̇ + (y − q̇)/θ, c += Δt v',
/// R ← exp(Δt ω') R, only the rigid and/or the deformation parts. θ = 1 is backward Euler; θ = ½
/// the implicit midpoint rule (second order, without numerical damping for a linear system);
/// between them the damping grows with θ − ½. Records each free frame's linear and angular
/// acceleration (frame axes) for the next step's fictitious forces. Throws DivergenceError
/// naming the domain and `step` when a state stops being finite.
void advance_floating_domains(const std::vector<FloatingDomain>& domains, const BlockSystem& system,
                              const Eigen::VectorXd& y, double dt, bool rigid, bool deformation,
                              long step, std::vector<DomainMotion>& motion,
                              std::vector<std::pair<Vec3, Vec3>>& frame_acceleration,
                              double theta = 1);

/// Kinetic (½ ẋᵀ M ẋ of every domain), elastic (the reduced models' W(q)) and gravity energy of
/// the domains; the coupling's own energy is the method's to add.
Energies floating_energies(const std::vector<FloatingDomain>& domains,
                           const std::vector<DomainMotion>& motion, const Vec3& gravity);

/// The layout for the geometry kernel and plugins (copies of a vertex are averaged).
ReducedGeometry floating_layout(const Points& rest_positions,
                                const std::vector<FloatingDomain>& domains);

/// One pose per domain: x = c + R (X̄ + U q), v = R (Rᵀv + Rᵀω × (X̄ + U q) + U q̇).
void floating_poses(const std::vector<DomainMotion>& motion, std::vector<DomainPose>& poses);

}  // namespace substruct
