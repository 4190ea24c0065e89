// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The slepc plugin's settings, without PETSc or MPI headers: read by the plugin, which does not
// link PETSc, and passed to the engine it loads (slepc_engine.hpp).

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

}  // namespace substruct::slepc_plugin
