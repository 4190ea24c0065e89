// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The free degrees of freedom of a system whose fixed DOFs are held at zero displacement:
/// index maps between the full numbering and the free numbering, and restriction/expansion of
/// vectors and matrices (removing fixed rows and columns keeps an SPD matrix SPD).
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

class DofMap {
 public:
  DofMap() = default;
  /// `num_dofs` DOFs of which `fixed_dofs` (any order, repeats allowed) are fixed. Throws Error
  /// for an index outside [0, num_dofs).
  DofMap(Index num_dofs, const std::vector<Index>& fixed_dofs);
  /// The 3N DOFs of N vertices with the three DOFs of each of `fixed_vertices` fixed.
  static DofMap for_fixed_vertices(Index num_vertices, const std::vector<Index>& fixed_vertices);

  Index num_dofs() const { return static_cast<Index>(free_index_.size()); }
  Index num_free() const { return static_cast<Index>(free_dofs_.size()); }
  /// Full index of each free DOF, ascending.
  const std::vector<Index>& free_dofs() const { return free_dofs_; }
  /// Free index of full DOF `dof`, −1 when it is fixed.
  Index free_index(Index dof) const { return free_index_[static_cast<std::size_t>(dof)]; }
  bool is_fixed(Index dof) const { return free_index(dof) < 0; }

  /// The free entries of a full vector.
  Eigen::VectorXd restrict_vector(const Eigen::VectorXd& full) const;
  /// The full vector with the free entries given and the fixed entries zero.
  Eigen::VectorXd expand_vector(const Eigen::VectorXd& free) const;
  /// The rows and columns of the free DOFs.
  SparseMatrix restrict_matrix(const SparseMatrix& full) const;

 private:
  std::vector<Index> free_dofs_;
  std::vector<Index> free_index_;
};

/// The DOFs 3v, 3v+1, 3v+2 of each vertex v, in the given order.
std::vector<Index> vertex_dofs(const std::vector<Index>& vertices);

}  // namespace substruct
