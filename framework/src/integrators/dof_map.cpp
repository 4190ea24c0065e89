// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/integrators/dof_map.hpp"

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

DofMap::DofMap(Index num_dofs, const std::vector<Index>& fixed_dofs) {
  if (num_dofs < 0) throw Error(fmt::format("a system cannot have {} DOFs", num_dofs));
  std::vector<bool> fixed(static_cast<std::size_t>(num_dofs), false);
  for (Index dof : fixed_dofs) {
    if (dof < 0 || dof >= num_dofs)
      throw Error(fmt::format("fixed DOF {} is outside the system's DOFs [0, {})", dof, num_dofs));
    fixed[static_cast<std::size_t>(dof)] = true;
  }
  free_index_.assign(static_cast<std::size_t>(num_dofs), -1);
  for (Index dof = 0; dof < num_dofs; ++dof) {
    if (fixed[static_cast<std::size_t>(dof)]) continue;
    free_index_[static_cast<std::size_t>(dof)] = static_cast<Index>(free_dofs_.size());
    free_dofs_.push_back(dof);
  }
}

DofMap DofMap::for_fixed_vertices(Index num_vertices, const std::vector<Index>& fixed_vertices) {
  for (Index v : fixed_vertices)
    if (v < 0 || v >= num_vertices)
      throw Error(
          fmt::format("fixed vertex {} is outside the mesh's vertices [0, {})", v, num_vertices));
  return DofMap(3 * num_vertices, vertex_dofs(fixed_vertices));
}

Eigen::VectorXd DofMap::restrict_vector(const Eigen::VectorXd& full) const {
  if (full.size() != num_dofs())
    throw Error(
        fmt::format("a vector of {} entries cannot be restricted to the free DOFs of a "
                    "system of {} DOFs",
                    full.size(), num_dofs()));
  Eigen::VectorXd free(num_free());
  for (Index i = 0; i < num_free(); ++i) free[i] = full[free_dofs_[static_cast<std::size_t>(i)]];
  return free;
}

Eigen::VectorXd DofMap::expand_vector(const Eigen::VectorXd& free) const {
  if (free.size() != num_free())
    throw Error(fmt::format("a vector of {} entries does not match the {} free DOFs", free.size(),
                            num_free()));
  Eigen::VectorXd full = Eigen::VectorXd::Zero(num_dofs());
  for (Index i = 0; i < num_free(); ++i) full[free_dofs_[static_cast<std::size_t>(i)]] = free[i];
  return full;
}

SparseMatrix DofMap::restrict_matrix(const SparseMatrix& full) const {
  if (full.rows() != num_dofs() || full.cols() != num_dofs())
    throw Error(
        fmt::format("a {}×{} matrix cannot be restricted to the free DOFs of a system of "
                    "{} DOFs",
                    full.rows(), full.cols(), num_dofs()));
  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(static_cast<std::size_t>(full.nonZeros()));
  for (int col = 0; col < full.outerSize(); ++col) {
    const Index free_col = free_index(col);
    if (free_col < 0) continue;
    for (SparseMatrix::InnerIterator it(full, col); it; ++it) {
      const Index free_row = free_index(static_cast<Index>(it.row()));
      if (free_row >= 0) entries.emplace_back(free_row, free_col, it.value());
    }
  }
  SparseMatrix free(num_free(), num_free());
  free.setFromTriplets(entries.begin(), entries.end());
  return free;
}

std::vector<Index> vertex_dofs(const std::vector<Index>& vertices) {
  std::vector<Index> dofs;
  dofs.reserve(3 * vertices.size());
  for (Index v : vertices)
    for (Index c = 0; c < 3; ++c) dofs.push_back(3 * v + c);
  return dofs;
}

}  // namespace substruct
