// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The ranks of an MPI job as a substruct::ProcessGroup, over a duplicate of PETSc's communicator
// (PETSC_COMM_WORLD), so that its messages never meet PETSc's own.
#include <memory>

#include "substruct/solvers/process_group.hpp"

namespace substruct::slepc_plugin {

/// Collective over PETSC_COMM_WORLD (every rank creates it); SLEPc is initialised first.
std::unique_ptr<ProcessGroup> make_mpi_process_group();

}  // namespace substruct::slepc_plugin
