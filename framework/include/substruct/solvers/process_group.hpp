// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The processes of a job that an MPI launcher started (`mpirun -n K substruct precompute …`),
/// as the framework uses them: who this process is, a gather of every rank's results, and a
/// stop signal that one rank raises for the others. Implemented by process-group plugins (mpi:
/// PETSc's MPI communicator, PETSC_COMM_WORLD); a process started alone is a group of one
/// (single_process()).
#include <memory>
#include <string>
#include <vector>

#include "substruct/plugin/component.hpp"

namespace substruct {

class ProcessGroup : public Component {
 public:
  /// This process's rank in [0, size()).
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Collective (every rank calls it): every rank's `bytes`, in rank order, on every rank.
  virtual std::vector<std::string> all_gather(const std::string& bytes) = 0;
  /// Tells the other ranks to stop (a failure here); returns at once. Once per process is enough.
  virtual void raise_stop() = 0;
  /// Whether another rank has raised the stop; returns at once.
  virtual bool stop_raised() = 0;
};

/// The group of this process alone: rank 0 of 1.
std::unique_ptr<ProcessGroup> single_process();

}  // namespace substruct
