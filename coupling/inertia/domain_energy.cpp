// SPDX-License-Identifier: GPL-3.0-or-later
#include "domain_energy.hpp"

#include <Eigen/Geometry>

namespace substruct::inertia {

Vec3 deformed_first_moment(const SystemForceIntegrals& integrals, const Eigen::VectorXd& q) {
  Vec3 S = integrals.first_moment();
  if (q.size() > 0) S.noalias() += integrals.uniform_force().transpose() * q;
  return S;
}

double kinetic_energy(const SystemForceIntegrals& integrals, const Vec3& nu, const Vec3& omega,
                      const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                      Eigen::VectorXd (&work)[4]) {
  // The rigid part: ½m|ν|² + ν·(ω × S(q)) + ½ωᵀI₀ω.
  double T = 0.5 * integrals.mass() * nu.squaredNorm() +
             nu.dot(omega.cross(deformed_first_moment(integrals, q))) +
             0.5 * omega.dot(integrals.inertia() * omega);
  if (integrals.r() == 0) return T;
  const Eigen::VectorXd& zero = work[0].setZero(integrals.r());
  Eigen::VectorXd& f1 = work[1];
  Eigen::VectorXd& f0 = work[2];
  Eigen::VectorXd& f2 = work[3];
  FrameMotion turning;  // a = α = 0
  turning.omega = omega;
  // f₁ = −∫ρUᵀ ω × (ω × x), f₀ the same at q = 0: ∫ρ|ω × x|² = −∫ρ xᵀω̃²x
  //   = ωᵀI₀ω − 2∫ρ(Uq)ᵀω̃²X̄ − ∫ρ(Uq)ᵀω̃²(Uq) = ωᵀI₀ω + qᵀ(f₁ + f₀).
  integrals.evaluate(turning, q, zero, f1);
  integrals.evaluate(turning, zero, zero, f0);
  T += 0.5 * q.dot(f1 + f0);
  // f₂ = −∫ρUᵀ (ω × x) (the α term with α = ω): ∫ρ(ω × x)·U q̇ = −q̇·f₂.
  FrameMotion accelerating;
  accelerating.alpha = omega;
  integrals.evaluate(accelerating, q, zero, f2);
  // ν·∫ρ U q̇ = q̇·(UᵀME ν), and ½ q̇ᵀUᵀMU q̇ = ½|q̇|².
  T += qdot.dot(integrals.uniform_force() * nu) - qdot.dot(f2) + 0.5 * qdot.squaredNorm();
  return T;
}

}  // namespace substruct::inertia
