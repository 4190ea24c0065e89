// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Whether this process was started by an MPI launcher (mpirun, mpiexec, srun), read from the
/// environment the launchers set, without initialising MPI.
namespace substruct {

/// True under Open MPI's mpirun (OMPI_COMM_WORLD_SIZE), PMIx launchers (PMIX_RANK: Open MPI 4+,
/// srun --mpi=pmix) and PMI-1/2 launchers (PMI_RANK, PMI_SIZE: MPICH's hydra, srun --mpi=pmi2).
bool started_by_mpi_launcher();

}  // namespace substruct
