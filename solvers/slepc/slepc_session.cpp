// SPDX-License-Identifier: GPL-3.0-or-later
#include "slepc_session.hpp"

#include "mpi_singleton.hpp"

#include <cstdlib>
#include <mutex>
#include <string>

#include <fmt/format.h>
#include <slepcsys.h>

#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"

namespace substruct::slepc_plugin {
namespace {

// PETSc keeps pointers to its arguments for the whole run.
char program_name[] = "substruct";
char no_signal_handler[] = "-no_signal_handler";
char skip_petscrc[] = "-skip_petscrc";
char* arguments[] = {program_name, no_signal_handler, skip_petscrc, nullptr};
int argument_count = 3;
char** argument_vector = arguments;

void finalize_at_exit() {
  // A program that finalised MPI itself left nothing PETSc could still do.
  int mpi_finalized = 0;
  MPI_Finalized(&mpi_finalized);
  PetscBool finalized = PETSC_FALSE;
  PetscFinalized(&finalized);
  if (!mpi_finalized && !finalized) SlepcFinalize();
}

}  // namespace

void ensure_slepc_initialized() {
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  PetscBool initialized = PETSC_FALSE;
  check(SlepcInitialized(&initialized), "SlepcInitialized");
  if (initialized) return;
  int mpi_finalized = 0;
  MPI_Finalized(&mpi_finalized);
  if (mpi_finalized)
    throw Error("slepc: MPI was already finalised in this process; SLEPc cannot start again");
  int mpi_initialized = 0;
  MPI_Initialized(&mpi_initialized);
  if (!mpi_initialized) {
    const int chosen = prepare_mpi_singleton();
    if (chosen > 0)
      log::debug(
          "slepc: one process without mpirun: Open MPI starts as an isolated singleton "
          "({} OMPI_MCA_ variables set)",
          chosen);
  }
  const PetscErrorCode code = SlepcInitialize(&argument_count, &argument_vector, nullptr, nullptr);
  if (code != 0)
    throw Error(
        fmt::format("slepc: SlepcInitialize failed with PETSc error {} (is MPI usable "
                    "here? a program run by mpirun needs every rank to start)",
                    int(code)));
  // Errors come back as codes and become substruct::Error; PETSc prints them only when verbose.
  if (log::level() < log::Level::verbose)
    check(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr), "PetscPushErrorHandler");
  std::atexit(finalize_at_exit);
}

void check(PetscErrorCode code, const char* what) {
  if (code == 0) return;
  const char* text = nullptr;
  char* specific = nullptr;
  PetscErrorMessage(code, &text, &specific);
  std::string message = specific != nullptr && specific[0] != '\0' ? specific : "";
  if (text != nullptr)
    message += (message.empty() ? "" : " (") + std::string(text) + (message.empty() ? "" : ")");
  throw Error(fmt::format("slepc: {} failed: {}", what, message));
}

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

std::mutex& petsc_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace substruct::slepc_plugin
