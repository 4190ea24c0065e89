// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The slepc plugin in two parts, so that loading it costs nothing until a solve is wanted:
//   libsubstruct-slepc.so        the plugin: descriptor and [slepc] options; links no PETSc;
//   libsubstruct_slepc_engine.so the solver, linked to SLEPc, PETSc and MPI (about a hundred
//                                libraries, 80 ms to load), opened by the plugin's create()
//                                from its own folder.
// The plugin host loads every plugin to learn its options, so a command that never solves an
// eigenproblem (or solves it with spectra) does not pay for PETSc.
#include <optional>

#include "slepc_settings.hpp"

namespace substruct {
class EigenSolver;
class LinearSolver;
class ProcessGroup;
}  // namespace substruct

namespace substruct::slepc_plugin {

/// The engine's entry point (C linkage, looked up by name): a new solver with these settings
/// and, when set, the shift that replaces the caller's; SLEPc (and MPI) initialised first.
/// Errors are thrown as substruct::Error (the engine and the plugin share the framework's
/// libraries).
using MakeSolver = EigenSolver* (*)(const SlepcSettings& settings,
                                    const std::optional<double>& shift);
inline constexpr const char* kEngineLibrary = "libsubstruct_slepc_engine.so";
inline constexpr const char* kEngineEntryPoint = "substruct_slepc_make_solver";

/// The engine's second entry point: the ranks of this MPI job (mpi_process_group.hpp), for the
/// mpi process-group plugin; collective over PETSC_COMM_WORLD.
using MakeProcessGroup = ProcessGroup* (*)();
inline constexpr const char* kProcessGroupEntryPoint = "substruct_slepc_make_process_group";

/// The engine's third entry point: a MUMPS linear solver (mumps_linear_solver.hpp), for the
/// mumps linear-solver plugin.
using MakeLinearSolver = LinearSolver* (*)();
inline constexpr const char* kLinearSolverEntryPoint = "substruct_slepc_make_linear_solver";

/// The entry point `name` of the engine library beside the plugin library this code is part
/// of (engine_library.cpp), loaded once and kept; throws Error when it cannot be loaded.
void* engine_entry(const char* name);

}  // namespace substruct::slepc_plugin
