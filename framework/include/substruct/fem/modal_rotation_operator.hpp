// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The modal rotation matrix of modal warping (Yang et al. 2010, Eq. 5; Choi & Ko 2005):
/// the nodal rotation vectors w = ½ (∇×) H Φ q = W Φ q = Ψ q of a displacement u = Φ q.
///
/// H interpolates u linearly on each tetrahedron, so its curl is constant per element:
/// curl u|_e = Σ_b ∇N_b × u_b (b = the element's 4 nodes). A node's w is the average of
/// ½ curl u over the elements around it, weighted by their rest volumes V_e
///   w_a = Σ_{e∋a} V_e · ½ curl u|_e / Σ_{e∋a} V_e,
/// the lumped (mass-matrix-like) choice: it is exact for any linear field (a rigid
/// infinitesimal rotation a × (X − c) gives w = a at every node) and independent of how finely
/// the elements around a node are cut. Nodes no element touches get w = 0.
#include "substruct/core/types.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// W (3N×3N, sparse): w = W u for a displacement u (3N, xyz interleaved per node).
/// Throws Error on a degenerate element (as TetGeometry::build).
SparseMatrix nodal_rotation_operator(const TetMesh& mesh);

/// Ψ = W Φ (3N×r) for a displacement basis Φ (3N×r): row block a holds ∂w_a/∂q.
/// Throws Error when Φ does not have 3N rows.
Eigen::MatrixXd modal_rotation_matrix(const TetMesh& mesh, const Eigen::MatrixXd& Phi);

}  // namespace substruct
