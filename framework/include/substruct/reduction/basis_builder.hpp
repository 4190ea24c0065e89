// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The reduced basis of one domain: linear modes, their modal derivatives, mass-PCA
/// (Barbič–James 2005, §4; Zhao 2014, §4.1 step 10).
#include "substruct/core/progress.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/reduction/domain_boundary.hpp"
#include "substruct/reduction/linear_modes.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct {

struct BasisSettings {
  int modes = 20;                  // r, the basis size (0: a rigid domain)
  int linear_modes = 10;           // k, linear modes the basis starts from
  bool modal_derivatives = true;   // fill the basis beyond k with modal derivatives
  double shift = kAutomaticShift;  // eigen solver target σ (NaN: −10⁻⁶ tr K / tr M)
};

struct ReducedBasis {
  Eigen::MatrixXd U;                   // 3N×r, UᵀMU = I, zero rows at fixed vertices
  Eigen::VectorXd linear_eigenvalues;  // λ of the linear modes used (ω² [rad²/s²]), ascending
  double seconds_assembly = 0;         // K at rest and M
  double seconds_linear_modes = 0;     // the eigen solve (with Rayleigh–Ritz)
  double seconds_derivatives = 0;      // modal derivatives (Hessian products and solves)
  double seconds_pca = 0;              // weighting, projection, mass-PCA, orthonormalisation
};

/// How many modal derivatives build_basis computes for these settings: k'(k'+1)/2 when
/// r > k' = min(k, r), 0 otherwise.
int basis_derivative_count(const BasisSettings& settings);

/// The domain's r-dimensional basis, r = settings.modes:
/// - r = 0: U is 3N×0 (a rigid domain), nothing is computed.
/// - the k' = min(k, r) lowest linear modes Φ (linear_modes() of the mesh, fixed vertices held,
///   free-flying domains without their rigid modes) are the first k' columns, so the basis
///   contains them exactly;
/// - when r > k' (this needs modal_derivatives), the remaining r − k' columns are the mass-PCA
///   of the k'(k'+1)/2 modal derivatives Ψ_ij, each weighted by λ₁²/(λ_i λ_j) (their expected
///   relative size: under a static load q_i ∝ 1/λ_i, so the term Ψ_ij q_i q_j scales as
///   1/(λ_i λ_j)) and M-projected out of span Φ (and, free-flying, of the rigid modes);
/// - U is then mass-orthonormalised (UᵀMU = I, deterministic signs).
/// The eigen and linear solvers come from `solvers` ([solvers] eigen, linear). `progress`, when
/// given, advances by one per modal derivative (create it with total
/// basis_derivative_count(settings)). Bit-identical results from run to run. Throws Error when r or
/// k is negative, r exceeds the free DOFs (less 6 for a free-flying domain), r > k without modal
/// derivatives, k = 0 with r > 0, or r > k + k(k+1)/2 — or the solvers' errors.
ReducedBasis build_basis(const TetMesh& mesh, const DomainBoundary& boundary,
                         const BasisSettings& settings, const SolverProvider& solvers,
                         Progress* progress = nullptr);

}  // namespace substruct
