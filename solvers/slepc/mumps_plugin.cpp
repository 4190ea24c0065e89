// SPDX-License-Identifier: GPL-3.0-or-later
// mumps: the linear-solver plugin. Symmetric A x = b by MUMPS's LDLᵀ through PETSc; in a job
// mpirun started it can share one factorization over every rank (LinearSolver::set_shared), as
// a distributed precompute does for a large domain's modal derivatives. Like the slepc plugin,
// it links no PETSc: create() loads the slepc engine beside it (mumps_linear_solver.hpp).
#include <memory>

#include "slepc_engine.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct::slepc_plugin {
namespace {

struct MumpsOptions {};

const OptionTable& options() {
  static const auto set = OptionSet<MumpsOptions>(
      "mumps", "symmetric sparse direct solver, MUMPS LDLᵀ through PETSc (no options)");
  return set.table();
}

std::unique_ptr<Component> create(const PluginContext&) {
  static const auto make =
      reinterpret_cast<MakeLinearSolver>(engine_entry(kLinearSolverEntryPoint));
  return std::unique_ptr<LinearSolver>(make());
}

}  // namespace

const PluginDescriptor& mumps_descriptor() {
  static const PluginDescriptor d{
      "mumps",
      PluginKind::linear_solver,
      SUBSTRUCT_VERSION,
      "symmetric sparse direct solver: MUMPS LDLᵀ through PETSc, on one process or one "
      "factorization shared by the ranks of an MPI job",
      &options,
      &create};
  return d;
}

}  // namespace substruct::slepc_plugin

SUBSTRUCT_PLUGIN(substruct::slepc_plugin::mumps_descriptor)
