// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Reduced Saint Venant–Kirchhoff forces as exact polynomials in the reduced coordinates
/// (Barbič–James 2005): the internal force is a cubic polynomial in q, the energy a quartic one.
#include <cstddef>
#include <memory>
#include <vector>

#include "substruct/core/progress.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/reduction/reduced_force_model.hpp"
#include "substruct/solvers/process_group.hpp"

namespace substruct {

namespace detail {
struct PaddedPolynomial;
}

/// With u = U q, the displacement gradient of element e is linear in q, G(q) = Σ_i q_i G_i
/// (G_i = Σ_a U_{a,i} ∇N_aᵀ), so the Green strain E = ½(G + Gᵀ + GᵀG) is quadratic and the StVK
/// energy V[μ tr(E²) + λ/2 tr(E)²] is a quartic polynomial in q. Summed over the elements:
///   W(q) = ½ qᵀK₀q + Σ_{i≤j≤k} c_ijk q_i q_j q_k + Σ_{i≤j≤k≤l} d_ijkl q_i q_j q_k q_l,
///   f(q) = ∂W/∂q = K₀q + P²(q,q) + P³(q,q,q),    K(q) = ∂f/∂q = K₀ + 2P²(q,·) + 3P³(q,q,·),
/// which equal Uᵀ f_int(Uq) and Uᵀ K(Uq) U of ElasticForceModel(mesh, stvk) up to round-off.
/// Only the symmetric-unique coefficients are stored: K₀ (r(r+1)/2), c (r(r+1)(r+2)/6) and d
/// (r(r+1)(r+2)(r+3)/24), the energy's monomial coefficients (the force tensors P², P³ are their
/// derivatives). An evaluation accumulates K(q) in one pass over them — three multiply-adds per
/// quartic coefficient (about r⁴/8 in all), r³/2 for the cubic part — and gets
/// f = K₀q + ½K₂(q)q + ⅓K₃(q)q and W from the same sums (K₂, K₃ the parts of K linear and
/// quadratic in q, by Euler's theorem for homogeneous polynomials), so force, stiffness and
/// energy cost the same as the stiffness alone. For r ≤ 16 the unique coefficients are expanded
/// once into the Hessian's coefficients, K(q) = K₀ + Σ_m q_m K₂(e_m) + Σ_{m≤n} q_m q_n G_mn, and
/// an evaluation is one dense product of that r(r+1)/2 × (r + r(r+1)/2) matrix (13 KB at r = 8)
/// with the monomials: a few more multiply-adds, several times faster at such sizes than the
/// pass over short triangles. The inner loops use AVX2/FMA where the processor has them (results
/// are then bit-identical from call to call on that machine).
///
/// Each element uses its own material. The fixed vertices of a domain are the zero rows of U.
class ReducedStVKPolynomial : public ReducedForceModel {
 public:
  /// Builds the coefficients from the mesh and the 3N×r basis U (per element: project the shape
  /// function gradients onto U, form the strain products, accumulate the coefficient tensors with
  /// dense rank updates; the build holds an (r(r+1)/2)² matrix, 5 MB at r = 40, 200 MB at
  /// r = 100). `progress`, when given, advances by one per element (create it with total
  /// mesh.num_elements()). Deterministic. Throws Error when U does not have 3N rows, or for a
  /// degenerate element or a material with E ≤ 0 or ν outside (−1, ½).
  /// With `share` (collective: every rank of it calls this with the same mesh and U), the
  /// quartic and cubic terms are shared out: each rank accumulates its rows of the (r(r+1)/2)²
  /// matrix (an equal part of its lower triangle) and of the cubic one, and every rank gets all
  /// the coefficients (the same on every rank, equal to one process's to round-off).
  ReducedStVKPolynomial(const TetMesh& mesh, const Eigen::MatrixXd& U, Progress* progress = nullptr,
                        ProcessGroup* share = nullptr);

  /// From stored coefficients (coefficients() of a model with the same r). Throws Error when
  /// there are not coefficient_count(r) of them or one is not finite.
  ReducedStVKPolynomial(int r, std::vector<double> coefficients);

  /// r(r+1)/2 + r(r+1)(r+2)/6 + r(r+1)(r+2)(r+3)/24.
  static std::size_t coefficient_count(int r);

  /// The coefficients, in this order:
  /// - K₀: K₀(a,b) for a ≤ b, row by row (a = 0: b = 0…r−1, a = 1: b = 1…r−1, …);
  /// - c_ijk for i ≤ j ≤ k: for each i, the triangle {(j,k): i ≤ j ≤ k} row by row;
  /// - d_ijkl for i ≤ j ≤ k ≤ l: for each j, for each i ≤ j, the triangle {(k,l): j ≤ k ≤ l}
  ///   row by row.
  const std::vector<double>& coefficients() const { return coefficients_; }

  /// Wall time of the coefficient build [s] (0 for a model made from stored coefficients).
  double precompute_seconds() const { return precompute_seconds_; }

  void evaluate(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                Eigen::MatrixXd* stiffness) const override;
  /// In the pass that makes f: K x from the Hessian's parts and the lower triangle of s K only.
  void implicit_step_terms(const Eigen::VectorXd& q, const Eigen::VectorXd& x, double s,
                           Eigen::VectorXd& force, Eigen::VectorXd& Kx,
                           Eigen::MatrixXd& sK) const override;

 private:
  void unpack();
  void evaluate_expanded(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                         Eigen::MatrixXd* stiffness) const;

  std::vector<double> coefficients_;
  std::shared_ptr<const detail::PaddedPolynomial> padded_;  // the evaluation's storage
  double precompute_seconds_ = 0;
};

}  // namespace substruct
