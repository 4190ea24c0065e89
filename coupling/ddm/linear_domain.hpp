// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One sub-domain Ω_i of the decomposition (§4): a linear FEM model of its own elements, its
// interface vertices duplicated (each domain keeps its copy), the scene's fixed vertices removed
// from its unknowns.
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/domains/sub_mesh.hpp"
#include "substruct/integrators/dof_map.hpp"

namespace substruct::ddm {

struct LinearDomain {
  int id = 0;
  std::vector<Index> global_vertex;  // local → global vertex, increasing
  Points rest;                       // X̄: rest positions, n×3
  SparseMatrix M;                    // mass of the domain's elements (consistent or lumped), 3n×3n
  SparseMatrix K;                    // linear (small-strain) stiffness K₀, 3n×3n
  Eigen::VectorXd vertex_mass;       // lumped mass per vertex (the rotation fit's weights)
  Eigen::MatrixXd gravity_columns;   // 3n×3: M 1ₓ, M 1ᵧ, M 1_z, so that M g = columns · g
  DofMap dofs;                       // the free unknowns: the DOFs of unfixed vertices

  Index num_vertices() const { return static_cast<Index>(rest.rows()); }
  Index num_free() const { return dofs.num_free(); }
  bool vertex_is_free(Index local) const { return !dofs.is_fixed(3 * local); }
};

/// Assembles Ω_i's matrices from its sub-mesh (each element with its own material), with the
/// consistent mass or its row-sum lumping. `fixed` are the scene's fixed vertices (global,
/// sorted). Throws Error for a degenerate element.
LinearDomain make_linear_domain(const SubMesh& sub_mesh, const std::vector<Index>& fixed,
                                bool lumped_mass);

/// Eq. 1–2's system matrix on the free unknowns: A_i = M + h D + h² K with D = α M + β K.
SparseMatrix backward_euler_matrix(const LinearDomain& domain, double alpha, double beta, double h);

}  // namespace substruct::ddm
