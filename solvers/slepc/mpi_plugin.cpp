// SPDX-License-Identifier: GPL-3.0-or-later
// mpi: the process-group plugin. The ranks of a job an MPI launcher started (mpirun -n K
// substruct precompute …) as one substruct::ProcessGroup over PETSc's MPI communicator, so that
// the framework shares work out over the engine that also solves (mpi_process_group.hpp). Like
// the slepc plugin, it links no PETSc: create() loads the slepc engine beside it.
#include <memory>

#include "slepc_engine.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/process_group.hpp"

namespace substruct::slepc_plugin {
namespace {

struct MpiOptions {};

const OptionTable& options() {
  static const auto set = OptionSet<MpiOptions>(
      "mpi", "the ranks of a job started by mpirun, over PETSc's MPI communicator (no options)");
  return set.table();
}

std::unique_ptr<Component> create(const PluginContext&) {
  static const auto make =
      reinterpret_cast<MakeProcessGroup>(engine_entry(kProcessGroupEntryPoint));
  return std::unique_ptr<ProcessGroup>(make());
}

}  // namespace

const PluginDescriptor& mpi_descriptor() {
  static const PluginDescriptor d{
      "mpi",
      PluginKind::process_group,
      SUBSTRUCT_VERSION,
      "the ranks of an MPI job (mpirun) over PETSc's communicator: a distributed precompute "
      "shares the domains out over them",
      &options,
      &create};
  return d;
}

}  // namespace substruct::slepc_plugin

SUBSTRUCT_PLUGIN(substruct::slepc_plugin::mpi_descriptor)
