// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/linear_modes.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <fmt/format.h>
#include <Eigen/Eigenvalues>

#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/dof_map.hpp"

namespace substruct {

namespace {

constexpr int kRigidModes = 6;

// Rayleigh–Ritz on span Φ: (ΦᵀKΦ) w = λ (ΦᵀMΦ) w, Φ ← Φ W. λ ascending, ΦᵀMΦ = I to rounding.
EigenPairs rayleigh_ritz(const SparseMatrix& K, const SparseMatrix& M, const Eigen::MatrixXd& Phi) {
  Eigen::MatrixXd Kr = Phi.transpose() * (K * Phi);
  Eigen::MatrixXd Mr = Phi.transpose() * (M * Phi);
  Kr = 0.5 * (Kr + Kr.transpose()).eval();
  Mr = 0.5 * (Mr + Mr.transpose()).eval();
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ritz(Kr, Mr);
  if (ritz.info() != Eigen::Success)
    throw Error("linear modes: the eigen solver's vectors are linearly dependent in the M norm");
  return {ritz.eigenvalues(), Phi * ritz.eigenvectors()};
}

// Makes the largest-magnitude entry of every vector positive (the first one on a tie).
void fix_signs(Eigen::MatrixXd& Phi) {
  for (Eigen::Index j = 0; j < Phi.cols(); ++j) {
    Eigen::Index best = 0;
    for (Eigen::Index i = 1; i < Phi.rows(); ++i)
      if (std::abs(Phi(i, j)) > std::abs(Phi(best, j))) best = i;
    if (Phi.rows() > 0 && Phi(best, j) < 0) Phi.col(j) *= -1;
  }
}

// `rigid`: the exact M-orthonormal rigid-body modes to project out (free-flying, may be null).
EigenPairs compute_modes(const SparseMatrix& K, const SparseMatrix& M,
                         const DomainBoundary& boundary, int count, EigenSolver& solver,
                         double shift, const Eigen::MatrixXd* rigid) {
  if (K.rows() != K.cols() || M.rows() != K.rows() || M.cols() != K.cols() || K.rows() % 3 != 0)
    throw Error(fmt::format(
        "linear modes: K ({}×{}) and M ({}×{}) must be square 3N×3N matrices of the same size",
        K.rows(), K.cols(), M.rows(), M.cols()));
  if (count < 0) throw Error(fmt::format("linear modes: cannot compute {} modes", count));
  if (boundary.remove_rigid_modes && !boundary.fixed_vertices.empty())
    throw Error(fmt::format(
        "linear modes: the domain has {} fixed vertices, so it has no rigid-body modes to remove "
        "(remove_rigid_modes is for free-flying domains)",
        boundary.fixed_vertices.size()));
  const Index num_vertices = static_cast<Index>(K.rows() / 3);
  const DofMap dofs = DofMap::for_fixed_vertices(num_vertices, boundary.fixed_vertices);
  EigenPairs modes{Eigen::VectorXd(0), Eigen::MatrixXd(K.rows(), 0)};
  if (count == 0) return modes;

  const int removed = boundary.remove_rigid_modes ? kRigidModes : 0;
  const int wanted = count + removed;
  if (wanted > dofs.num_free())
    throw Error(fmt::format(
        "linear modes: {} modes{} asked of a domain with only {} free degrees of freedom", count,
        removed ? " (plus its 6 rigid modes)" : "", dofs.num_free()));
  const SparseMatrix K_free = dofs.restrict_matrix(K);
  const SparseMatrix M_free = dofs.restrict_matrix(M);
  if (std::isnan(shift)) shift = -1e-6 * K_free.diagonal().sum() / M_free.diagonal().sum();
  const EigenPairs found = solver.solve(K_free, M_free, wanted, shift);
  if (found.values.size() < wanted || found.vectors.cols() < wanted ||
      found.vectors.rows() != dofs.num_free())
    throw Error(fmt::format(
        "linear modes: the eigen solver returned {} pairs of length {}, {} of length {} were "
        "asked",
        found.values.size(), found.vectors.rows(), wanted, dofs.num_free()));

  // The `wanted` lowest pairs, ascending (the solver returns those closest to the shift).
  std::vector<Eigen::Index> order(static_cast<std::size_t>(found.values.size()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return found.values[a] < found.values[b];
  });
  if (removed) {
    // Zero against the domain's stiffness scale tr(K)/tr(M) (a mean of ω² over the DOFs, far
    // above the lowest elastic eigenvalue of any reasonable mesh).
    const double zero = 1e-9 * K_free.diagonal().sum() / M_free.diagonal().sum();
    for (int c = 0; c <= kRigidModes; ++c) {
      const double lambda = found.values[order[static_cast<std::size_t>(c)]];
      if ((c < kRigidModes) != (std::abs(lambda) <= zero))
        throw Error(fmt::format(
            "linear modes: a free-flying domain must have exactly 6 zero-frequency (rigid) modes, "
            "but eigenvalue {} is {:.6g} (zero: |λ| ≤ {:.3g}; is the domain connected?)",
            c + 1, lambda, zero));
    }
  }
  Eigen::MatrixXd Phi(K.rows(), count);
  for (int c = 0; c < count; ++c)
    Phi.col(c) =
        dofs.expand_vector(found.vectors.col(order[static_cast<std::size_t>(c + removed)]));
  if (rigid) Phi -= *rigid * (rigid->transpose() * (M * Phi));  // Φ ← (I − R RᵀM) Φ

  modes = rayleigh_ritz(K, M, Phi);
  fix_signs(modes.vectors);
  return modes;
}

}  // namespace

EigenPairs linear_modes(const SparseMatrix& K, const SparseMatrix& M,
                        const DomainBoundary& boundary, int count, EigenSolver& solver,
                        double shift) {
  return compute_modes(K, M, boundary, count, solver, shift, nullptr);
}

EigenPairs linear_modes(const TetMesh& mesh, const DomainBoundary& boundary, int count,
                        EigenSolver& solver, double shift) {
  const ElasticForceModel model(mesh, MaterialModel::stvk);
  const SparseMatrix K = model.stiffness(Eigen::VectorXd::Zero(model.num_dofs()));
  const SparseMatrix M = consistent_mass(mesh);
  if (!boundary.remove_rigid_modes)
    return compute_modes(K, M, boundary, count, solver, shift, nullptr);
  const Eigen::MatrixXd R = rigid_body_modes(mesh.vertices, M);
  return compute_modes(K, M, boundary, count, solver, shift, &R);
}

}  // namespace substruct
