// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The reduced internal forces of a domain: energy, force and tangent stiffness in the r
/// coordinates q of a basis U (u = U q).
#include "substruct/core/types.hpp"

namespace substruct {

/// With the full-space elastic energy E(u), internal force f_int(u) = ∂E/∂u and stiffness
/// K(u) = ∂f_int/∂u (fem/elastic_force_model.hpp), a reduced model evaluates
///   W(q) = E(U q),   f(q) = Uᵀ f_int(U q) = ∂W/∂q,   K(q) = Uᵀ K(U q) U = ∂f/∂q,
/// exactly (ReducedStVKPolynomial) or approximately (CubatureForceModel). K(q) is symmetric.
class ReducedForceModel {
 public:
  virtual ~ReducedForceModel() = default;

  /// The number of reduced coordinates.
  int r() const { return r_; }

  /// Any output pointer may be null. `force` is resized to r and `stiffness` to r×r when they do
  /// not have that size already (so repeated calls do not allocate them). Throws Error when q does
  /// not have r entries. Concurrent calls with distinct outputs are safe.
  virtual void evaluate(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                        Eigen::MatrixXd* stiffness) const = 0;

  /// What one Newton iteration of an implicit step needs at q, in one call: the force f(q), the
  /// product K(q) x, and the lower triangle (diagonal included) of s K(q) in `sK` (r×r; the
  /// entries above the diagonal are scratch, which a model may overwrite). `force`, `Kx` and `sK`
  /// are resized as in evaluate() when they do not have their sizes already; x must have r entries.
  /// This default evaluates f and K and forms the other two; a model that can make them in the pass
  /// that makes f overrides it (ReducedStVKPolynomial: no mirrored upper triangle, no second pass
  /// over K).
  virtual void implicit_step_terms(const Eigen::VectorXd& q, const Eigen::VectorXd& x, double s,
                                   Eigen::VectorXd& force, Eigen::VectorXd& Kx,
                                   Eigen::MatrixXd& sK) const;

  double energy(const Eigen::VectorXd& q) const;
  Eigen::VectorXd force(const Eigen::VectorXd& q) const;
  Eigen::MatrixXd stiffness(const Eigen::VectorXd& q) const;

 protected:
  /// Throws Error when r < 0.
  explicit ReducedForceModel(int r);
  ReducedForceModel(const ReducedForceModel&) = default;
  ReducedForceModel& operator=(const ReducedForceModel&) = default;
  ReducedForceModel(ReducedForceModel&&) = default;
  ReducedForceModel& operator=(ReducedForceModel&&) = default;

  /// Throws Error naming `who` when q does not have r() entries.
  void check_coordinates(const Eigen::VectorXd& q, const char* who) const;

 private:
  int r_;
};

}  // namespace substruct
