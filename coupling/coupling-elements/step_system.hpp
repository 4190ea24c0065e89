#pragma once
// The linear system of one backward Euler step in velocities (Wu, Mukherjee, Wang 2015, §4.3,
// Eq. 9–10, App. A–B), assembled at the current state.
#include <utility>
#include <vector>

#include "block_system.hpp"
#include "ce_domain.hpp"
#include "coupling_layer.hpp"
#include "substruct/loads/external_forces.hpp"

namespace substruct::coupling_elements {

/// Everything the step's system depends on besides the domains and coupling elements.
struct StepState {
  const std::vector<DomainMotion>* motion = nullptr;
  /// The frames' linear and angular accelerations of the last step (frame axes), for the
  /// explicit fictitious forces.
  const std::vector<std::pair<Vec3, Vec3>>* frame_acceleration = nullptr;
  double rayleigh_mass = 0, rayleigh_stiffness = 0;  // D = a M + b K
  MaterialModel material = MaterialModel::stvk;      // of the coupling elements
};

/// Fills `system` (which must have the domains' block sizes and couplings) for a step of dt:
///   deformation rows (Eq. 9): (I + Δt(a I + b K) + Δt² K) q̇' + Δt² Σ Jᵀ K_e J Q' =
///                             q̇ + Δt (Uᵀ(Rᵀ f_ext + f_fic) − f_int − Σ J_qᵀ f_e),
///   rigid rows (Eq. 10):      m(1 + Δt a) v' + … = m v + Δt (m g + Σ F − Σ f_e),
///                             I(1 + Δt a) ω' + … = I ω + Δt (τ − ω × I ω − Σ τ_e),
/// with the fictitious forces f_fic by the precomputed integrals at the current q, q̇ and frame
/// motion, the external point/nodal forces `forces` (world), gravity through UᵀME, and the coupling
/// elements' forces f_e and tangents K_e (add_coupling_terms). Throws Error for a force on a
/// vertex out of range.
void assemble_step(const std::vector<CeDomain>& domains,
                   const std::vector<CouplingElement>& coupling, const std::vector<int>& domain_of,
                   const StepState& state, const ExternalForces& forces, double dt,
                   BlockSystem& system);

}  // namespace substruct::coupling_elements
