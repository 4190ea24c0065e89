#pragma once
// K x = λ M x for symmetric K and SPD M with SLEPc: Krylov–Schur on the shift-and-invert operator
// (K − σM)⁻¹ M, whose largest eigenvalues θ = 1/(λ − σ) are the λ closest to σ.
#include <mpi.h>

#include "substruct/solvers/eigen_solver.hpp"

namespace substruct::slepc_plugin {

/// Who factors K − σM (a direct factorization, KSP preonly):
/// - mumps: MUMPS's LDLᵀ, sequential or MPI, any σ that is not an eigenvalue;
/// - petsc: PETSc's own sparse LDLᵀ with nested-dissection ordering, one process, any σ; slow
///   beyond a few thousand DOFs;
/// - cholmod: CHOLMOD's supernodal LLᵀ, one process, the fastest; K − σM must be positive
///   definite (σ below the lowest eigenvalue);
/// - automatic: cholmod on one process when σ ≤ 0, falling back to mumps if K − σM turns out
///   not to be positive definite; mumps otherwise (σ > 0, or several processes).
enum class Factorization { automatic, mumps, petsc, cholmod };
/// "automatic", "MUMPS", "PETSc", "CHOLMOD".
const char* to_string(Factorization f);

struct SlepcSettings {
  double tolerance = 1e-10;   // relative residual of the converged eigenpairs (EPS_CONV_REL)
  int max_iterations = 1000;  // Krylov–Schur restarts
  int ncv = 0;                // subspace size; 0: SLEPc's choice, max(2·count, count + 15)
  Factorization factorization = Factorization::automatic;
};

/// −10⁻⁶ tr(K)/tr(M): below every eigenvalue of a positive semi-definite K (so K − σM is SPD even
/// for a free-floating body), and small against the mean eigenvalue tr(K)/tr(M), so the lowest
/// eigenvalues stay well separated after the shift.
double automatic_shift(const SparseMatrix& K, const SparseMatrix& M);

/// The `count` eigenpairs with λ closest to `shift` (NaN: automatic_shift), collectively on
/// `comm`: every rank passes the same K and M (any symmetric storage: both triangles, or one),
/// owns a contiguous block of rows of the distributed problem and receives every eigenpair in
/// full. Values ascending; vectors M-normalised (xᵀ M x = 1, M-orthogonal to the solver's
/// accuracy) with their largest-magnitude entry positive. Throws Error for sizes that do not
/// match, count outside [1, n], a non-symmetric matrix, a failed factorization, or when fewer
/// than `count` pairs converge (saying how many did and what to change).
EigenPairs solve_generalized(MPI_Comm comm, const SparseMatrix& K, const SparseMatrix& M, int count,
                             double shift, const SlepcSettings& settings);

}  // namespace substruct::slepc_plugin
