// SPDX-License-Identifier: GPL-3.0-or-later
#include "petsc_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "slepc_session.hpp"
#include "substruct/core/error.hpp"

namespace substruct::slepc_plugin {

static_assert(std::is_same_v<PetscInt, int>, "PETSc built with 32-bit indices, as SparseMatrix");
static_assert(std::is_same_v<PetscScalar, double>, "PETSc built with real double scalars");

PetscInt first_row(PetscInt n, int rank, int size) {
  const PetscInt base = n / size, extra = n % size;
  return rank * base + std::min<PetscInt>(rank, extra);
}

const SparseMatrix& full_symmetric(const SparseMatrix& A, SparseMatrix& scratch, const char* name) {
  bool lower = false, upper = false;
  double largest = 0;
  for (int col = 0; col < A.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(A, col); it; ++it) {
      lower |= it.row() > col;
      upper |= it.row() < col;
      largest = std::max(largest, std::abs(it.value()));
    }
  if (lower != upper) {
    // One triangle stored: A + strict(A)ᵀ.
    const SparseMatrix strict = lower ? SparseMatrix(A.triangularView<Eigen::StrictlyLower>())
                                      : SparseMatrix(A.triangularView<Eigen::StrictlyUpper>());
    scratch = A + SparseMatrix(strict.transpose());
    scratch.makeCompressed();
    return scratch;
  }
  if (lower) {
    const SparseMatrix difference = A - SparseMatrix(A.transpose());
    double asymmetry = 0;
    for (int k = 0; k < difference.nonZeros(); ++k)
      asymmetry = std::max(asymmetry, std::abs(difference.valuePtr()[k]));
    if (asymmetry > 1e-10 * largest)
      throw Error(
          fmt::format("slepc: {} is not symmetric (max |a_ij − a_ji| = {:.3g}, "
                      "max |a_ij| = {:.3g}); K x = λ M x needs symmetric K and M",
                      name, asymmetry, largest));
  }
  if (A.isCompressed()) return A;
  scratch = A;
  scratch.makeCompressed();
  return scratch;
}

PetscMatrix::PetscMatrix(MPI_Comm comm, const SparseMatrix& A) {
  const PetscInt n = static_cast<PetscInt>(A.rows());
  const int rank = rank_of(comm), size = size_of(comm);
  const PetscInt begin = first_row(n, rank, size), end = first_row(n, rank + 1, size);
  // The local rows in CSR form: row i of a symmetric A is its column i.
  const int* outer = A.outerIndexPtr();
  const PetscInt offset = outer[begin];
  std::vector<PetscInt> row_start(static_cast<std::size_t>(end - begin) + 1);
  for (PetscInt i = begin; i <= end; ++i)
    row_start[static_cast<std::size_t>(i - begin)] = outer[i] - offset;
  const PetscInt* columns = A.innerIndexPtr() + offset;
  const PetscScalar* values = A.valuePtr() + offset;

  check(MatCreate(comm, &mat_), "MatCreate");
  try {
    fill(begin, end, n, row_start, columns, values);
  } catch (...) {
    MatDestroy(&mat_);
    throw;
  }
}

void PetscMatrix::fill(PetscInt begin, PetscInt end, PetscInt n,
                       const std::vector<PetscInt>& row_start, const PetscInt* columns,
                       const PetscScalar* values) {
  check(MatSetSizes(mat_, end - begin, end - begin, n, n), "MatSetSizes");
  check(MatSetType(mat_, MATAIJ), "MatSetType");
  // Exactly one of these applies (sequential or MPI AIJ); each preallocates, copies and
  // assembles.
  check(MatSeqAIJSetPreallocationCSR(mat_, row_start.data(), columns, values),
        "MatSeqAIJSetPreallocationCSR");
  check(MatMPIAIJSetPreallocationCSR(mat_, row_start.data(), columns, values),
        "MatMPIAIJSetPreallocationCSR");
  check(MatSetOption(mat_, MAT_SYMMETRIC, PETSC_TRUE), "MatSetOption(MAT_SYMMETRIC)");
  check(MatSetOption(mat_, MAT_SYMMETRY_ETERNAL, PETSC_TRUE), "MatSetOption(MAT_SYMMETRY_ETERNAL)");
}

PetscMatrix::~PetscMatrix() {
  if (mat_ != nullptr) MatDestroy(&mat_);
}

}  // namespace substruct::slepc_plugin
