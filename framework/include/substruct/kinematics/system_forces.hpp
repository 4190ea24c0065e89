// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Reduced system (inertial) forces on a domain simulated in a moving frame (Barbič–Zhao 2011,
/// §4, Eq. 11–14 and App. B), from integrals precomputed once per domain.
#include <cstddef>
#include <memory>

#include "substruct/core/types.hpp"

namespace substruct {

/// The world-coordinate velocity v, angular velocity ω, acceleration a and angular acceleration α
/// of a frame's origin, all expressed in that frame's axes.
struct FrameMotion {
  Vec3 v = Vec3::Zero();
  Vec3 omega = Vec3::Zero();
  Vec3 a = Vec3::Zero();
  Vec3 alpha = Vec3::Zero();
};

/// W¹ … W⁷ of App. B for a domain with rest positions X (N×3, in its frame), consistent mass M
/// (3N×3N, ∫ρ NᵀN) and basis U (3N×r); the integrals ∫ρ … dV are exact as products with M
/// (every integrand is the product of two fields that are linear on each tetrahedron).
class SystemForceIntegrals {
 public:
  SystemForceIntegrals() = default;
  /// Throws Error when the sizes disagree.
  SystemForceIntegrals(const Points& X, const SparseMatrix& M, const Eigen::MatrixXd& U);
  /// A rigid domain's (r = 0: no W, f_sys empty), from its mass m = ∫ρ dV, first moment ∫ρ X dV
  /// and second moment ∫ρ X Xᵀ dV in its frame (e.g. fem's mass_moments, no mass matrix).
  SystemForceIntegrals(double mass, const Vec3& first_moment, const Mat3& second_moment);

  int r() const { return r_; }
  /// m = ∫ρ dV.
  double mass() const { return mass_; }
  /// ∫ρ X dV (m times the rest centre of mass).
  const Vec3& first_moment() const { return first_moment_; }
  /// ∫ρ (X·X I − X Xᵀ) dV, the rest inertia tensor about the frame's origin.
  const Mat3& inertia() const { return inertia_; }

  /// Eq. 13–14: f_sys = −∫ρ Uᵀ a(X) dV with, for x = X + U q and ẋ = U q̇ (Eq. 12 without ẍ, which
  /// is the M q̈ of the equation of motion),
  ///   a(X) = a + α × x + ω × (ω × x) + 2 ω × ẋ.
  /// O(r²) (the W⁷ term O(9 r²)). `f` is resized to r.
  void evaluate(const FrameMotion& frame, const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                Eigen::VectorXd& f) const;

  /// Uᵀ M E (r×3, E the 3N×3 stack of identities): the reduced force of a uniform acceleration
  /// field g (frame axes) is uniform_force() g. With g = Rᵀ g_world this is the sandwich transform
  /// of gravity (Zhao 2014, §4.6) for uniform g.
  const Eigen::Matrix<double, Eigen::Dynamic, 3>& uniform_force() const { return uniform_force_; }

  /// The bytes these integrals hold (W and Uᵀ M E).
  std::size_t bytes() const {
    return sizeof(*this) + sizeof(double) * (rows_ * static_cast<std::size_t>(12 + 9 * r_) +
                                             static_cast<std::size_t>(uniform_force_.size()));
  }

 private:
  int r_ = 0;
  double mass_ = 0;
  Vec3 first_moment_ = Vec3::Zero();
  Mat3 inertia_ = Mat3::Zero();
  Eigen::Matrix<double, Eigen::Dynamic, 3> uniform_force_;
  // W¹ … W⁷ of App. B regrouped by the 3×3 matrix they multiply (see system_forces.cpp):
  // with L = α̃ + ω̃², f_sys = −W [a; vec(L); (L_ab q + 2 ω̃_ab q̇)_{ab}] for
  // W = [Uᵀ M E | P_00 … P_22 | Q_00 … Q_22] (r × (12 + 9r)), stored column-major with its rows
  // padded to a multiple of 4 (rows_) in 32-byte aligned storage for the product kernel.
  std::size_t rows_ = 0;
  std::shared_ptr<const double[]> W_;
};

}  // namespace substruct
