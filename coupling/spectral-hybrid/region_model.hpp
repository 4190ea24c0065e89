// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One region of a hybrid solid as the method simulates it (Yang et al. 2010, Eq. 2–8): its own
// sub-mesh, the spectral basis Φ (M-orthonormal: M̂ = I), the eigenvalues Λ (K̂ = Λ), the modal
// rotation matrix Ψ = WΦ (Eq. 5) and the vertex masses that gravity acts on.
#include <filesystem>
#include <string>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/domains/hybrid_regions.hpp"
#include "substruct/domains/sub_mesh.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct::spectral_hybrid {

struct RegionModel {
  int id = 0;
  bool rigid = false;
  std::vector<int> domains;  // the scene domains it is made of
  SubMesh sub;               // local vertices = sub.global_vertex
  Eigen::MatrixXd Phi;       // Φ, 3n × r
  RowMajorMatrix Psi;        // Ψ = WΦ, 3n × r, row-major: w = Ψq runs over whole rows each step
  Eigen::VectorXd lambda;    // Λ, r
  Eigen::VectorXd vertex_mass;  // row sums of the consistent mass: gravity's nodal forces
  SparseMatrix M;               // consistent mass (projection of a full-space state)
  Index offset = 0;             // first coordinate of the region in the stacked q

  Index r() const { return static_cast<Index>(Phi.cols()); }
  Index num_vertices() const { return sub.mesh.num_vertices(); }
  /// "rigid region 1 (domains 2, 3)".
  std::string name() const;
};

/// What building the region models did, for the precompute report.
struct RegionBuild {
  int computed = 0, loaded = 0;
  double basis_seconds = 0, rotation_seconds = 0;
};

/// The models of `regions` in order, q offsets consecutive. Deformable regions get
/// min(modes, free DOFs) linear modes (the rigid-body ones included when free), rigid ones their
/// 6 rigid-body modes (none when they hold fixed vertices). Bases come from `cache_dir` when a
/// trusted file is there (empty: no cache). Errors name the region.
std::vector<RegionModel> make_region_models(const TetMesh& mesh, const HybridRegions& regions,
                                            const std::vector<Index>& fixed_vertices, int modes,
                                            EigenSolver& solver,
                                            const std::string& solver_signature,
                                            const std::filesystem::path& cache_dir,
                                            RegionBuild* build = nullptr);

}  // namespace substruct::spectral_hybrid
