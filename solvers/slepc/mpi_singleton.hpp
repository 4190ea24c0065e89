// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a process started without mpirun initialises Open MPI: as an isolated singleton.

#include <string>

namespace substruct::slepc_plugin {

/// Before MPI_Init in a process no launcher started: chooses, through Open MPI's environment
/// (MCA) variables, the start-up that one process needs. By default Open MPI starts a
/// singleton by forking an `orted` daemon (so that it could spawn more ranks later) and probes
/// every transport (UCX, shared memory, TCP), which on a workstation costs 0.2–0.4 s before the
/// first solve. One process needs none of it:
///   ess_singleton_isolated = 1   no daemon (the process will never spawn ranks)
///   pml = ob1, btl = self        messages to itself only: no UCX or network probing
///   osc = pt2pt                  one-sided communication without the RDMA components
///   orte_tmpdir_base = a fresh $TMPDIR/substruct-mpi-XXXXXX, removed at exit: Open MPI 4's
///                      session folder /tmp/ompi.HOST.UID is shared by every singleton of a
///                      user, and one process's finalisation removing it while another creates
///                      its own below it fails the second's MPI_Init ("A call to mkdir was
///                      unable to create the desired directory"), as in runs side by side
/// A variable the user has set is left as it is, a launched process (started_by_mpi_launcher(),
/// core/mpi_launch.hpp) is left alone, and
/// SUBSTRUCT_MPI_SINGLETON=openmpi keeps Open MPI's own singleton start-up.
/// Returns the number of variables set.
int prepare_mpi_singleton();

/// The session folder prepare_mpi_singleton() made for this process ("" if none).
std::string mpi_singleton_session_folder();

}  // namespace substruct::slepc_plugin
