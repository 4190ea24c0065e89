// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The process-wide SLEPc/PETSc state: initialised once per process, finalised at exit, errors
// turned into substruct::Error.
#include <mutex>

#include <petscsys.h>

namespace substruct::slepc_plugin {

/// Initialises SLEPc (and PETSc, and MPI unless the program already did) on first use, on
/// PETSC_COMM_WORLD = MPI_COMM_WORLD. Safe to call any number of times. What this call starts
/// it also finalises at process exit (MPI included when it started MPI); a program that
/// initialised SLEPc or PETSc itself keeps finalising them itself. PETSc's signal handlers are
/// not installed, no ~/.petscrc or ./.petscrc is read, and PETSc errors are returned rather than
/// printed (printed with their traceback on stderr when the log level is verbose).
void ensure_slepc_initialized();

/// PETSc is not thread-safe: every call into it from this process holds this mutex.
std::mutex& petsc_mutex();

/// Throws Error "slepc: <what>: <PETSc's message>" when `code` is not 0.
void check(PetscErrorCode code, const char* what);

/// This process's rank and the number of processes of `comm`.
int rank_of(MPI_Comm comm);
int size_of(MPI_Comm comm);

}  // namespace substruct::slepc_plugin
