// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// G_i = A_i⁻¹, the "force–displacement matrix" of one domain (§3), applied on its free unknowns in
// the domain's own frame, by one of the paper's three solvers.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ddm_settings.hpp"
#include "substruct/core/types.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct::ddm {

/// What a step needs of G (Eq. 6): y = G r for the domain's forces, the boundary block G_bb (rows
/// and columns of the unknowns that B touches) for W, and G_{:,b} z for the multipliers' forces.
class ForceDisplacement {
 public:
  virtual ~ForceDisplacement() = default;
  /// Once per step before any product (the cg solver recomputes its boundary columns here).
  virtual void begin_step() {}
  /// y = G r (r, y: the free unknowns).
  virtual void apply(const Eigen::VectorXd& r, Eigen::VectorXd& y) = 0;
  /// G_bb, 3n_b × 3n_b, in the order of the boundary unknowns given at construction.
  virtual const Eigen::MatrixXd& boundary_block() const = 0;
  /// y −= G_{:,b} z, z holding one force per boundary unknown.
  virtual void subtract_boundary_response(const Eigen::VectorXd& z, Eigen::VectorXd& y) = 0;
  /// Floats kept for the step (factor, stored columns, compressed matrix) [bytes].
  virtual std::size_t stored_bytes() const = 0;
  /// e.g. "hybrid: CHOLMOD supernodal LLᵀ, 12,345 factor entries; 48 boundary columns stored"
  virtual std::string description() const = 0;
  /// Iterations of iterative solves since the last call (cg), 0 otherwise.
  virtual long take_iterations() { return 0; }
  /// Whether G's range is a subspace that project() keeps the state in (clustering).
  virtual bool projects() const { return false; }
  /// u ← its M-orthogonal projection onto range(G̃) (u: a velocity or a displacement on the free
  /// unknowns, in the domain's current frame): what lies outside it feels no force, a velocity
  /// there drifts and a displacement keeps its elastic energy (identity for the other solvers).
  virtual void project(Eigen::VectorXd& /*u*/) {}
  /// q ← the displacement of range(G̃) with q's boundary unknowns closest to q in the A-norm (the
  /// step's energy norm: an M-orthogonal fit would add stiff, high-strain error); identity for the
  /// other solvers.
  virtual void project_displacement(Eigen::VectorXd& /*q*/) {}
};

/// §5.2: `solver` factors A; G_bb is computed column by column from it. The multipliers' forces
/// are applied by a second solve or by the stored columns G_{:,b}, as `correction` says (auto:
/// both timed, the faster kept).
std::unique_ptr<ForceDisplacement> make_hybrid(const SparseMatrix& A,
                                               const std::vector<Index>& boundary,
                                               std::unique_ptr<LinearSolver> solver,
                                               HybridCorrection correction);

/// Paper's baseline: Jacobi-preconditioned CG for every product, G_{:,b} recomputed each step.
std::unique_ptr<ForceDisplacement> make_cg(const SparseMatrix& A,
                                           const std::vector<Index>& boundary, double tolerance,
                                           int max_iterations);

/// §5.1's compressed G̃ = [U_j S_j V_jᵀ]: the clusters of row groups (a free vertex's three rows)
/// and each cluster's coefficients U_j S_j and basis V_j (Eq. 7).
struct CompressedInverse {
  Index size = 0;                     // n_f: G is n_f × n_f
  std::vector<int> cluster_of_group;  // one per free vertex
  struct Cluster {
    std::vector<Index> groups;
    Eigen::MatrixXd coefficients;  // (3 |groups|) × m
    Eigen::MatrixXd basis;         // n_f × m
  };
  std::vector<Cluster> clusters;
  int iterations = 0;  // CPCA iterations it took
};

/// G = A⁻¹ from `solver`'s factorization (one solve per column), compressed by CPCA with
/// `settings` (clusters, components or floats_per_node; node_clusters > 0 clusters the rows after
/// summing the columns of that many node clusters of `mesh`, the domain's, whose `free_vertices`
/// (local ids, increasing) are G's row groups).
CompressedInverse compress_inverse(const SparseMatrix& A, LinearSolver& solver,
                                   const DdmSettings& settings, const TetMesh& mesh,
                                   const std::vector<Index>& free_vertices);

/// §5.1's solver as printed (Eq. 7): products with the row-wise G̃ only (single precision when
/// `float32`). G̃ is not symmetric: the step is no longer backward Euler (ddm.solver help).
std::unique_ptr<ForceDisplacement> make_row_clustering(const CompressedInverse& compressed,
                                                       const std::vector<Index>& boundary,
                                                       bool float32);

/// The stable clustering solver: the interior rows of each cluster's U_j (the span of U_j S_j)
/// and the unit vectors of the `boundary` unknowns form the basis Q of a Galerkin backward-Euler
/// step, Qᵀ A Q α = Qᵀ f, Δv = Q α: G̃ = Q S Qᵀ with S = (Qᵀ A Q)⁻¹, whose cluster blocks are
/// Q_i S_ij Q_jᵀ. `M`: the mass on the free unknowns (project()'s metric).
std::unique_ptr<ForceDisplacement> make_galerkin_clustering(const CompressedInverse& compressed,
                                                            const SparseMatrix& A,
                                                            const SparseMatrix& M,
                                                            const std::vector<Index>& boundary,
                                                            bool float32);

/// The components per cluster of the Galerkin clustering solver for `floats_per_node` (ddm help):
/// the largest m ≥ 1 with n_i m + (k m)² + 2 k m n_b ≤ floats_per_node · n / 3, n free unknowns
/// of which n_b boundary and n_i = n − n_b interior.
int galerkin_components_for_budget(double floats_per_node, int clusters, Index free_unknowns,
                                   Index boundary_unknowns);

}  // namespace substruct::ddm
