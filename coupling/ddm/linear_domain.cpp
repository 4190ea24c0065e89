// SPDX-License-Identifier: GPL-3.0-or-later
#include "linear_domain.hpp"

#include <algorithm>

#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"

namespace substruct::ddm {

LinearDomain make_linear_domain(const SubMesh& sub_mesh, const std::vector<Index>& fixed,
                                bool lumped_mass) {
  LinearDomain d;
  d.id = sub_mesh.domain;
  d.global_vertex = sub_mesh.global_vertex;
  d.rest = sub_mesh.mesh.vertices;
  const Index n = d.num_vertices();
  d.vertex_mass = lumped_vertex_mass(sub_mesh.mesh);
  if (lumped_mass) {
    d.M.resize(3 * n, 3 * n);
    d.M.reserve(Eigen::VectorXi::Constant(3 * n, 1));
    for (Index v = 0; v < n; ++v)
      for (Index c = 0; c < 3; ++c) d.M.insert(3 * v + c, 3 * v + c) = d.vertex_mass[v];
    d.M.makeCompressed();
  } else {
    d.M = consistent_mass(sub_mesh.mesh);
    d.M.prune(0.0);  // the pattern stores the zeros off each 3×3 block's diagonal
  }
  const ElasticForceModel model(sub_mesh.mesh, MaterialModel::linear);
  d.K = model.stiffness(Eigen::VectorXd::Zero(3 * n));
  d.gravity_columns = Eigen::MatrixXd::Zero(3 * n, 3);
  for (Index c = 0; c < 3; ++c) {
    Eigen::VectorXd ones = Eigen::VectorXd::Zero(3 * n);
    for (Index v = 0; v < n; ++v) ones[3 * v + c] = 1;
    d.gravity_columns.col(c) = d.M * ones;
  }
  std::vector<Index> fixed_local;
  for (Index v = 0; v < n; ++v)
    if (std::binary_search(fixed.begin(), fixed.end(),
                           d.global_vertex[static_cast<std::size_t>(v)]))
      fixed_local.push_back(v);
  d.dofs = DofMap::for_fixed_vertices(n, fixed_local);
  return d;
}

SparseMatrix backward_euler_matrix(const LinearDomain& domain, double alpha, double beta,
                                   double h) {
  // A = M + h (α M + β K) + h² K = (1 + hα) M + (hβ + h²) K
  return domain.dofs.restrict_matrix((1 + h * alpha) * domain.M + (h * beta + h * h) * domain.K);
}

}  // namespace substruct::ddm
