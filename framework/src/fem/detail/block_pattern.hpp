// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The 3×3-block sparsity pattern of FEM matrices on a tet mesh (stiffness, consistent mass), and
// where each element's 4×4 vertex blocks land in its value array.
#include <cstdint>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct::detail {

/// CSC pattern of a 3N×3N matrix with a full 3×3 block (a, b) for every pair of vertices that
/// share an element (a = b included). Column 3b+j (j = 0, 1, 2) holds the rows 3a, 3a+1, 3a+2 of
/// every neighbour a of b, in increasing order; the three columns of a vertex share their rows.
///
/// local[16e + 4b + a] = offset of row 3·v_a inside column 3·v_b (and inside 3·v_b + 1, + 2),
/// v = tets.row(e): entry (3v_a + i, 3v_b + j) of element e is value slot
/// outer[3v_b + j] + local[16e + 4b + a] + i. 16 ints per element.
struct BlockPattern {
  Index num_dofs = 0;
  std::vector<int> outer;  // 3N + 1
  std::vector<int> inner;  // nnz
  std::vector<int> local;  // 16 per element

  std::int64_t nnz() const { return static_cast<std::int64_t>(inner.size()); }
  /// The 3N×3N matrix with this pattern and zero values.
  SparseMatrix make_matrix() const;
  /// True when `m` already has exactly this pattern (size, compressed, outer and inner indices).
  bool matches(const SparseMatrix& m) const;
};

/// Builds the pattern of a mesh whose vertex indices are valid (TetGeometry::build checks them).
/// Throws Error when the number of nonzeros does not fit an int.
BlockPattern build_block_pattern(const Tets& tets, Index num_vertices);

}  // namespace substruct::detail
