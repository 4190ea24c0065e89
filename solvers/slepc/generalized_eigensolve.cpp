// SPDX-License-Identifier: GPL-3.0-or-later
#include "generalized_eigensolve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <slepceps.h>

#include "petsc_gather_to_all.hpp"
#include "petsc_matrix.hpp"
#include "petsc_owned.hpp"
#include "slepc_session.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/solvers/automatic_shift.hpp"

namespace substruct::slepc_plugin {
namespace {

using OwnedEps = Owned<EPS, EPSDestroy>;

/// A failed EPSSolve (in practice: the factorization of K − σM), kept apart from the other
/// errors so that the automatic choice can fall back to MUMPS.
class SolveFailed : public Error {
 public:
  using Error::Error;
};

/// EPS set up for the shift-and-invert Krylov–Schur solve of (K, M) near σ, K − σM factored by
/// `f` (not automatic).
void configure(EPS eps, Mat K, Mat M, int count, double sigma, const SlepcSettings& s,
               Factorization f) {
  check(EPSSetOperators(eps, K, M), "EPSSetOperators");
  check(EPSSetProblemType(eps, EPS_GHEP), "EPSSetProblemType(GHEP)");
  check(EPSSetType(eps, EPSKRYLOVSCHUR), "EPSSetType(krylovschur)");
  check(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE), "EPSSetWhichEigenpairs");
  check(EPSSetTarget(eps, sigma), "EPSSetTarget");
  check(EPSSetDimensions(eps, count, s.ncv > 0 ? s.ncv : PETSC_DEFAULT, PETSC_DEFAULT),
        "EPSSetDimensions");
  check(EPSSetTolerances(eps, s.tolerance, s.max_iterations), "EPSSetTolerances");
  check(EPSSetConvergenceTest(eps, EPS_CONV_REL), "EPSSetConvergenceTest");
  ST st = nullptr;
  check(EPSGetST(eps, &st), "EPSGetST");
  check(STSetType(st, STSINVERT), "STSetType(sinvert)");
  KSP ksp = nullptr;
  check(STGetKSP(st, &ksp), "STGetKSP");
  check(KSPSetType(ksp, KSPPREONLY), "KSPSetType(preonly)");
  check(KSPSetErrorIfNotConverged(ksp, PETSC_TRUE), "KSPSetErrorIfNotConverged");
  PC pc = nullptr;
  check(KSPGetPC(ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, PCCHOLESKY), "PCSetType(cholesky)");
  switch (f) {
    case Factorization::automatic:
    case Factorization::mumps:
      check(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS), "PCFactorSetMatSolverType(mumps)");
      break;
    case Factorization::petsc:
      check(PCFactorSetMatSolverType(pc, MATSOLVERPETSC), "PCFactorSetMatSolverType(petsc)");
      check(PCFactorSetMatOrderingType(pc, MATORDERINGND), "PCFactorSetMatOrderingType(nd)");
      break;
    case Factorization::cholmod:
      check(PCFactorSetMatSolverType(pc, MATSOLVERCHOLMOD), "PCFactorSetMatSolverType(cholmod)");
      break;
  }
}

/// Normalises x to xᵀ M x = 1 and flips it so that its largest-magnitude entry (the first
/// such) is positive.
void normalize(Eigen::Ref<Eigen::VectorXd> x, const SparseMatrix& M) {
  const double norm = std::sqrt(x.dot(M * x));
  if (!(norm > 0)) throw Error("slepc: an eigenvector has zero or undefined M-norm");
  Eigen::Index largest = 0;
  x.cwiseAbs().maxCoeff(&largest);
  x *= (x[largest] < 0 ? -1.0 : 1.0) / norm;
}

/// The solve with checked arguments: Kf, Mf fully stored and compressed, σ finite, `f` not
/// automatic. Throws SolveFailed when EPSSolve fails.
EigenPairs solve_with(MPI_Comm comm, const SparseMatrix& Kf, const SparseMatrix& Mf, int count,
                      double sigma, const SlepcSettings& settings, Factorization f) {
  const Eigen::Index n = Kf.rows();
  const int ranks = size_of(comm);
  const auto start = std::chrono::steady_clock::now();
  const PetscMatrix A(comm, Kf), B(comm, Mf);
  OwnedEps eps;
  check(EPSCreate(comm, eps.out()), "EPSCreate");
  configure(eps.get(), A.get(), B.get(), count, sigma, settings, f);
  try {
    check(EPSSolve(eps.get()), "EPSSolve");
  } catch (const Error& e) {
    throw SolveFailed(fmt::format(
        "{}\n  while solving with the {} factorization of K − σM, σ = {:.6g}; if σ is (close "
        "to) an eigenvalue, move it (a free-floating body has λ = 0: use σ < 0){}",
        e.what(), to_string(f), sigma,
        f == Factorization::cholmod
            ? "; CHOLMOD needs K − σM positive definite (σ below the lowest eigenvalue): use "
              "slepc.factorization = mumps for a shift inside the spectrum"
            : ""));
  }
  PetscInt converged = 0, iterations = 0, ncv = 0, nev = 0, mpd = 0;
  check(EPSGetConverged(eps.get(), &converged), "EPSGetConverged");
  check(EPSGetIterationNumber(eps.get(), &iterations), "EPSGetIterationNumber");
  check(EPSGetDimensions(eps.get(), &nev, &ncv, &mpd), "EPSGetDimensions");
  if (converged < count)
    throw Error(fmt::format(
        "slepc: only {} of the {} eigenpairs nearest σ = {:.6g} converged in {} Krylov–Schur "
        "iterations (tolerance {:.3g}, {} DOFs, subspace ncv = {}); raise slepc.max_iterations, "
        "loosen slepc.tolerance, enlarge slepc.ncv or move the shift closer to the wanted "
        "eigenvalues",
        converged, count, sigma, iterations, settings.tolerance, n, ncv));

  // The converged pairs nearest σ, each vector gathered on every rank.
  OwnedVec x;
  check(MatCreateVecs(A.get(), x.out(), nullptr), "MatCreateVecs");
  GatherToAll gather(x.get());
  Eigen::VectorXd values(count);
  Eigen::MatrixXd vectors(n, count);
  for (int i = 0; i < count; ++i) {
    PetscScalar lambda = 0;
    check(EPSGetEigenpair(eps.get(), i, &lambda, nullptr, x.get(), nullptr), "EPSGetEigenpair");
    gather(x.get(), vectors.col(i));
    values[i] = lambda;
  }

  // Ascending, M-normalised, signs fixed.
  std::vector<int> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return values[a] < values[b]; });
  EigenPairs pairs;
  pairs.values.resize(count);
  pairs.vectors.resize(n, count);
  for (int i = 0; i < count; ++i) {
    const auto k = static_cast<std::size_t>(i);
    pairs.values[i] = values[order[k]];
    pairs.vectors.col(i) = vectors.col(order[k]);
    normalize(pairs.vectors.col(i), Mf);
  }
  const double seconds = seconds_since(start);
  if (rank_of(comm) == 0)
    log::debug(
        "slepc: {} eigenpairs of {} DOFs near σ = {:.6g} in {} Krylov–Schur iterations "
        "(ncv {}, {} factorization, {} process{}), {:.3f} s; λ from {:.6g} to {:.6g}",
        count, n, sigma, iterations, ncv, to_string(f), ranks, ranks == 1 ? "" : "es", seconds,
        pairs.values[0], pairs.values[count - 1]);
  return pairs;
}

}  // namespace

const char* to_string(Factorization f) {
  switch (f) {
    case Factorization::automatic:
      return "automatic";
    case Factorization::mumps:
      return "MUMPS";
    case Factorization::petsc:
      return "PETSc";
    case Factorization::cholmod:
      return "CHOLMOD";
  }
  return "unknown";
}

EigenPairs solve_generalized(MPI_Comm comm, const SparseMatrix& K, const SparseMatrix& M, int count,
                             double shift, const SlepcSettings& settings) {
  const Eigen::Index n = K.rows();
  if (K.cols() != n || M.rows() != n || M.cols() != n)
    throw Error(fmt::format("slepc: K ({}×{}) and M ({}×{}) must be square and of one size",
                            K.rows(), K.cols(), M.rows(), M.cols()));
  if (n == 0) throw Error("slepc: the problem is empty (0 DOFs; are all DOFs fixed?)");
  if (count < 1 || count > n)
    throw Error(fmt::format(
        "slepc: {} eigenpairs requested of a problem with {} DOFs; ask for 1 to {}", count, n, n));
  if (settings.ncv != 0 && (settings.ncv <= count || settings.ncv > n))
    throw Error(fmt::format(
        "slepc.ncv = {} must be 0 (automatic) or in ({}, {}] for {} eigenpairs of {} DOFs",
        settings.ncv, count, n, count, n));
  const int ranks = size_of(comm);
  if ((settings.factorization == Factorization::petsc ||
       settings.factorization == Factorization::cholmod) &&
      ranks > 1)
    throw Error(
        fmt::format("slepc.factorization = {} factors on one process only; this run has {} (use "
                    "slepc.factorization = mumps or auto)",
                    settings.factorization == Factorization::petsc ? "petsc" : "cholmod", ranks));

  SparseMatrix k_scratch, m_scratch;
  const SparseMatrix& Kf = full_symmetric(K, k_scratch, "K");
  const SparseMatrix& Mf = full_symmetric(M, m_scratch, "M");
  const double sigma = std::isnan(shift) ? automatic_shift(Kf, Mf, "slepc") : shift;
  if (!std::isfinite(sigma))
    throw Error(fmt::format("slepc: the shift must be finite, got {}", sigma));

  if (settings.factorization != Factorization::automatic)
    return solve_with(comm, Kf, Mf, count, sigma, settings, settings.factorization);
  // Automatic: CHOLMOD's supernodal LLᵀ on one process when K − σM is likely positive definite
  // (σ ≤ 0 and K positive semi-definite, as a stiffness at rest), MUMPS's LDLᵀ otherwise or
  // when CHOLMOD finds it is not.
  if (ranks == 1 && sigma <= 0) {
    try {
      return solve_with(comm, Kf, Mf, count, sigma, settings, Factorization::cholmod);
    } catch (const SolveFailed& e) {
      log::debug("slepc: {}\n  trying again with MUMPS", e.what());
    }
  }
  return solve_with(comm, Kf, Mf, count, sigma, settings, Factorization::mumps);
}

}  // namespace substruct::slepc_plugin
