// slepc: the eigen-solver plugin. K x = λ M x (K symmetric, M SPD) for the `count` eigenvalues
// closest to a shift σ, by SLEPc's Krylov–Schur on the shift-and-invert operator (K − σM)⁻¹ M
// with a direct factorization of K − σM (MUMPS, PETSc's own or CHOLMOD). Run under mpirun, every
// rank calls solve() with the same matrices; the problem is distributed by blocks of rows over
// PETSC_COMM_WORLD and every rank gets all the eigenpairs.
//
// The shift: the caller's `shift` argument, unless [slepc] shift is set, which then wins; a NaN
// shift (from the caller, with no slepc.shift) is chosen automatically (automatic_shift).
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <slepcsys.h>
#include <boost/program_options.hpp>

#include "generalized_eigensolve.hpp"
#include "slepc_session.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct::slepc_plugin {
namespace {

namespace po = boost::program_options;

po::options_description options() {
  po::options_description d(
      "[slepc] generalized symmetric eigensolver (SLEPc shift-and-invert Krylov–Schur)");
  d.add_options()("slepc.tolerance", po::value<double>()->default_value(1e-10, "1e-10"),
                  "convergence: residual norm of an eigenpair of the shift-and-invert operator "
                  "relative to its eigenvalue θ = 1/(λ − σ)")(
      "slepc.max_iterations", po::value<int>()->default_value(1000),
      "Krylov–Schur restarts before giving up")(
      "slepc.shift", po::value<double>(),
      "shift σ [1/s²]: the eigenvalues nearest σ are found; when set, it replaces the shift the "
      "caller asks for (default: the caller's; automatic −1e-6·tr(K)/tr(M) when the caller "
      "leaves it open)")("slepc.ncv", po::value<int>()->default_value(0),
                         "Krylov subspace size, > count (0: SLEPc's choice, max(2·count, "
                         "count + 15))")(
      "slepc.factorization", po::value<std::string>()->default_value("auto"),
      "direct factorization of K − σM: auto (cholmod on one process when σ ≤ 0, mumps if that "
      "fails, and otherwise) | mumps (LDLᵀ, serial or MPI, any shift) | petsc (PETSc's own "
      "LDLᵀ, one process, small problems) | cholmod (supernodal LLᵀ, one process, fastest; "
      "needs the shift below the lowest eigenvalue)");
  return d;
}

class SlepcEigenSolver final : public EigenSolver {
 public:
  SlepcEigenSolver(const SlepcSettings& settings, std::optional<double> shift)
      : settings_(settings), shift_(shift) {}

  EigenPairs solve(const SparseMatrix& K, const SparseMatrix& M, int count, double shift) override {
    ensure_slepc_initialized();
    // PETSc is not thread-safe: one solve at a time in this process.
    static std::mutex mutex;
    const std::lock_guard<std::mutex> lock(mutex);
    return solve_generalized(PETSC_COMM_WORLD, K, M, count, shift_ ? *shift_ : shift, settings_);
  }

 private:
  SlepcSettings settings_;
  std::optional<double> shift_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  const Config& config = context.config;
  SlepcSettings s;
  s.tolerance = config.get<double>("slepc.tolerance");
  s.max_iterations = config.get<int>("slepc.max_iterations");
  s.ncv = config.get<int>("slepc.ncv");
  const std::string factorization = config.get<std::string>("slepc.factorization");
  if (factorization == "auto")
    s.factorization = Factorization::automatic;
  else if (factorization == "mumps")
    s.factorization = Factorization::mumps;
  else if (factorization == "petsc")
    s.factorization = Factorization::petsc;
  else if (factorization == "cholmod")
    s.factorization = Factorization::cholmod;
  else
    throw Error(fmt::format(
        "slepc.factorization: unknown value '{}'; expected auto, mumps, petsc or cholmod",
        factorization));
  if (!(s.tolerance > 0 && s.tolerance < 1))
    throw Error(fmt::format("slepc.tolerance must be in (0, 1), got {}", s.tolerance));
  if (s.max_iterations < 1)
    throw Error(fmt::format("slepc.max_iterations must be ≥ 1, got {}", s.max_iterations));
  if (s.ncv < 0) throw Error(fmt::format("slepc.ncv must be ≥ 0, got {}", s.ncv));
  std::optional<double> shift;
  if (config.has("slepc.shift")) {
    shift = config.get<double>("slepc.shift");
    if (!std::isfinite(*shift))
      throw Error(fmt::format("slepc.shift must be a finite number, got {}", *shift));
  }
  // Starting SLEPc (and MPI, in a process started without mpirun) takes a moment: done here,
  // once per process, so that solve() times only the solve.
  ensure_slepc_initialized();
  return std::make_unique<SlepcEigenSolver>(s, shift);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "slepc",
      PluginKind::eigen_solver,
      SUBSTRUCT_VERSION,
      "generalized symmetric eigenpairs K x = λ M x nearest a shift: SLEPc Krylov–Schur, "
      "shift-and-invert with a MUMPS, PETSc or CHOLMOD factorization; serial or MPI",
      &options,
      &create};
  return d;
}

}  // namespace substruct::slepc_plugin

SUBSTRUCT_PLUGIN(substruct::slepc_plugin::descriptor)
