// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The kinetic energy and the first moment of a domain moving in its frame, from its system-force
// integrals (Barbič–Zhao 2011, App. B): O(r²) per domain, without a pass over its vertices and
// its mass matrix.
#include "substruct/core/types.hpp"
#include "substruct/kinematics/system_forces.hpp"

namespace substruct::inertia {

/// ½∫ρ|v|² dV for the velocity field v = ν + ω × x + U q̇ of a domain with x = X̄ + U q (ν, ω: its
/// frame's velocity and angular velocity in the frame's axes) and UᵀMU = I, from its integrals
/// (m, S̄ = ∫ρX̄, I₀ = ∫ρ(X̄·X̄ I − X̄X̄ᵀ), F = UᵀME and f_sys):
///   ½m|ν|² + ν·(ω × S(q)) + q̇·Fν + ½(ωᵀI₀ω + qᵀ(f₁ + f₀)) − q̇·f₂ + ½|q̇|²,
/// with S(q) = S̄ + Fᵀq and f₁, f₀, f₂ the system forces of a frame turning at ω (at q and at 0)
/// and of one accelerating its turn at α = ω (at q): f₁ + f₀ gives ∫ρ|ω × x|² − ωᵀI₀ω, f₂ the
/// cross term ∫ρ(ω × x)·U q̇. Equal, up to round-off, to ½VᵀMV over the domain's vertices.
/// `work` is scratch (resized).
double kinetic_energy(const SystemForceIntegrals& integrals, const Vec3& nu, const Vec3& omega,
                      const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                      Eigen::VectorXd (&work)[4]);

/// ∫ρ x dV of the deformed domain (x = X̄ + U q) in the integrals' axes: S̄ + Fᵀq.
Vec3 deformed_first_moment(const SystemForceIntegrals& integrals, const Eigen::VectorXd& q);

}  // namespace substruct::inertia
