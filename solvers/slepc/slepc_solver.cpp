// SPDX-License-Identifier: GPL-3.0-or-later
// slepc: the eigen-solver plugin. K x = λ M x (K symmetric, M SPD) for the `count` eigenvalues
// closest to a shift σ, by SLEPc's Krylov–Schur on the shift-and-invert operator (K − σM)⁻¹ M
// with a direct factorization of K − σM (MUMPS, PETSc's own or CHOLMOD), serially or over MPI.
// This library holds the options only; create() loads the solver itself from
// libsubstruct_slepc_engine.so beside it (slepc_engine.hpp), so that PETSc is loaded only when
// a slepc solver is made.
//
// The shift: the caller's `shift` argument, unless [slepc] shift is set, which then wins; a NaN
// shift (from the caller, with no slepc.shift) is chosen automatically (automatic_shift).
#include <memory>
#include <optional>
#include <string>

#include "slepc_engine.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct::slepc_plugin {
namespace {

// The [slepc] section: the solver's settings and the shift that replaces the caller's.
struct SlepcOptions : SlepcSettings {
  std::optional<double> shift;
};

const OptionSet<SlepcOptions>& slepc_options() {
  using S = SlepcOptions;
  static const auto options =
      OptionSet<S>("slepc",
                   "generalized symmetric eigensolver (SLEPc shift-and-invert Krylov–Schur)")
          .number("tolerance", &S::tolerance, "",
                  "convergence: residual norm of an eigenpair of the shift-and-invert operator "
                  "relative to its eigenvalue θ = 1/(λ − σ)",
                  in_open_range(0, 1))
          .integer("max_iterations", &S::max_iterations, "",
                   "Krylov–Schur restarts before giving up", at_least(1))
          .number("shift", &S::shift, "1/s²",
                  "shift σ: the eigenvalues nearest σ are found; when set, it replaces the shift "
                  "the caller asks for (default: the caller's; automatic −1e-6·tr(K)/tr(M) when "
                  "the caller leaves it open)")
          .integer("ncv", &S::ncv, "",
                   "Krylov subspace size, > count (0: SLEPc's choice, max(2·count, count + 15))",
                   non_negative)
          .choice("factorization", &S::factorization,
                  {{"auto", Factorization::automatic},
                   {"mumps", Factorization::mumps},
                   {"petsc", Factorization::petsc},
                   {"cholmod", Factorization::cholmod}},
                  "direct factorization of K − σM: auto (cholmod on one process when σ ≤ 0, "
                  "mumps if that fails, and otherwise), mumps (LDLᵀ, serial or MPI, any shift), "
                  "petsc (PETSc's own LDLᵀ, one process, small problems) or cholmod (supernodal "
                  "LLᵀ, one process, fastest; needs the shift below the lowest eigenvalue)");
  return options;
}

const OptionTable& options() {
  return slepc_options().table();
}

std::unique_ptr<Component> create(const PluginContext& context) {
  const SlepcOptions settings = slepc_options().read(context.config);
  static const auto make = reinterpret_cast<MakeSolver>(engine_entry(kEngineEntryPoint));
  return std::unique_ptr<EigenSolver>(make(settings, settings.shift));
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
