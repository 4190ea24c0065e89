// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The linear solver behind the mumps plugin: A x = b for a symmetric A by MUMPS's LDLᵀ through
// PETSc (KSPPREONLY + PCCHOLESKY, MATSOLVERMUMPS). Shared (set_shared(true), in a job mpirun
// started) it factors and solves over every rank of PETSC_COMM_WORLD, A distributed by blocks of
// rows (first_row), so that each rank holds a part of the factor; otherwise on PETSC_COMM_SELF.
#include <memory>

namespace substruct {
class LinearSolver;
}

namespace substruct::slepc_plugin {

/// A new MUMPS solver; SLEPc (and MPI) initialised first.
std::unique_ptr<LinearSolver> make_mumps_linear_solver();

}  // namespace substruct::slepc_plugin
