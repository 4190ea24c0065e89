// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// substruct's sparse matrices as PETSc AIJ matrices, distributed by contiguous blocks of rows.
#include <vector>

#include <petscmat.h>

#include "substruct/core/types.hpp"

namespace substruct::slepc_plugin {

/// The first row of `rank`'s block when n rows are split over `size` ranks: contiguous blocks,
/// the first n mod size ranks holding one row more. rows(size) = n.
PetscInt first_row(PetscInt n, int rank, int size);

/// A symmetric matrix with both triangles stored, compressed: A itself when it is one already,
/// otherwise a completed copy in `scratch`. A matrix stored as one triangle is mirrored; a
/// matrix that is neither triangular nor symmetric (|a_ij − a_ji| > 1e-10·max|a|, or a pattern
/// that is not symmetric) throws Error naming `name`.
const SparseMatrix& full_symmetric(const SparseMatrix& A, SparseMatrix& scratch, const char* name);

/// A PETSc matrix (MATAIJ) on `comm` holding the symmetric, fully stored, compressed matrix A.
/// Every rank passes the same A and fills only its own block of rows (first_row); the row i of
/// a symmetric matrix is its column i, read straight from the column-compressed storage.
class PetscMatrix {
 public:
  PetscMatrix(MPI_Comm comm, const SparseMatrix& A);
  ~PetscMatrix();
  PetscMatrix(const PetscMatrix&) = delete;
  PetscMatrix& operator=(const PetscMatrix&) = delete;
  Mat get() const { return mat_; }

 private:
  void fill(PetscInt begin, PetscInt end, PetscInt n, const std::vector<PetscInt>& row_start,
            const PetscInt* columns, const PetscScalar* values);
  Mat mat_ = nullptr;
};

}  // namespace substruct::slepc_plugin
