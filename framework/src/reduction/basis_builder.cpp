// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/basis_builder.hpp"
#include "substruct/core/stopwatch.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/reduction/mass_pca.hpp"
#include "substruct/reduction/modal_derivatives.hpp"

namespace substruct {

namespace {

// The number of linear modes used, after checking what the settings ask of this domain.
int checked_linear_count(const TetMesh& mesh, const DomainBoundary& boundary,
                         const BasisSettings& s) {
  const int r = s.modes, k = s.linear_modes;
  if (r < 0 || k < 0)
    throw Error(fmt::format("reduced basis: modes = {} and linear_modes = {} must be ≥ 0", r, k));
  const DofMap dofs = DofMap::for_fixed_vertices(mesh.num_vertices(), boundary.fixed_vertices);
  const int available = dofs.num_free() - (boundary.remove_rigid_modes ? 6 : 0);
  if (r > available)
    throw Error(fmt::format(
        "reduced basis: {} modes asked of a domain with only {} deformable degrees of freedom "
        "({} vertices, {} fixed{})",
        r, std::max(available, 0), mesh.num_vertices(), boundary.fixed_vertices.size(),
        boundary.remove_rigid_modes ? ", less its 6 rigid modes" : ""));
  const int used = std::min(k, r);
  if (used == r) return used;
  if (used == 0)
    throw Error(fmt::format("reduced basis: {} modes need at least one linear mode", r));
  if (!s.modal_derivatives)
    throw Error(fmt::format(
        "reduced basis: {} modes from {} linear modes need modal derivatives (without them the "
        "basis is the linear modes)",
        r, k));
  if (r > used + derivative_count(used))
    throw Error(fmt::format(
        "reduced basis: {} modes are more than {} linear modes and their {} modal derivatives "
        "give",
        r, used, derivative_count(used)));
  return used;
}

}  // namespace

int basis_derivative_count(const BasisSettings& settings) {
  const int k = std::max(0, std::min(settings.linear_modes, settings.modes));
  return settings.modes > k ? derivative_count(k) : 0;
}

ReducedBasis build_basis(const TetMesh& mesh, const DomainBoundary& boundary,
                         const BasisSettings& settings, const SolverProvider& solvers,
                         Progress* progress) {
  const int k = checked_linear_count(mesh, boundary, settings);
  const int r = settings.modes;
  ReducedBasis basis;
  basis.U.resize(3 * Eigen::Index{mesh.num_vertices()}, 0);
  basis.linear_eigenvalues.resize(0);
  if (r == 0) return basis;

  auto start = Clock::now();
  const ElasticForceModel model(mesh, MaterialModel::stvk);
  const SparseMatrix K = model.stiffness(Eigen::VectorXd::Zero(model.num_dofs()));
  const SparseMatrix M = consistent_mass(mesh);
  Eigen::MatrixXd R;
  if (boundary.remove_rigid_modes) R = rigid_body_modes(mesh.vertices, M);
  basis.seconds_assembly = seconds_since(start);

  start = Clock::now();
  const EigenPairs modes = [&] {
    const std::unique_ptr<EigenSolver> eigen = solvers.eigen();
    if (!boundary.remove_rigid_modes)
      return linear_modes(K, M, boundary, k, *eigen, settings.shift);
    // The mesh form projects out the exact rigid modes (it reassembles K and M).
    return linear_modes(mesh, boundary, k, *eigen, settings.shift);
  }();
  basis.linear_eigenvalues = modes.values;
  basis.seconds_linear_modes = seconds_since(start);
  const Eigen::MatrixXd& Phi = modes.vectors;

  if (r == k) {
    start = Clock::now();
    basis.U = Phi;
    mass_orthonormalize(basis.U, M);
    basis.seconds_pca = seconds_since(start);
    return basis;
  }

  start = Clock::now();
  const std::unique_ptr<LinearSolver> linear = solvers.derivatives_linear();
  Eigen::MatrixXd Psi =
      modal_derivatives(mesh, Phi, boundary, *linear, progress, solvers.shared_work());
  basis.seconds_derivatives = seconds_since(start);

  start = Clock::now();
  // Ψ_ij ← λ₁²/(λ_i λ_j) Ψ_ij, then Ψ ← (I − Φ ΦᵀM) Ψ.
  const Eigen::VectorXd& lambda = modes.values;
  for (int i = 0; i < k; ++i)
    for (int j = i; j < k; ++j)
      Psi.col(derivative_column(i, j, k)) *= lambda[0] * lambda[0] / (lambda[i] * lambda[j]);
  Psi -= Phi * (Phi.transpose() * (M * Psi));
  if (boundary.remove_rigid_modes) Psi -= R * (R.transpose() * (M * Psi));
  const Eigen::MatrixXd D = mass_pca(Psi, M, r - k);
  basis.U.resize(Phi.rows(), r);
  basis.U << Phi, D;
  mass_orthonormalize(basis.U, M);
  basis.seconds_pca = seconds_since(start);
  return basis;
}

}  // namespace substruct
