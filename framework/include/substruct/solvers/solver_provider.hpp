// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Creates the solvers a scene's config selects ([solvers] linear / eigen / geometry), so that
/// coupling plugins use solvers only through their interfaces. A method may create several (e.g.
/// one factorization per domain).
#include <memory>
#include <string>

#include "substruct/config/solver_settings.hpp"
#include "substruct/solvers/eigen_solver.hpp"
#include "substruct/solvers/geometry_solver.hpp"
#include "substruct/solvers/linear_solver.hpp"
#include "substruct/solvers/process_group.hpp"

namespace substruct {

class Config;
class PluginHost;

class SolverProvider {
 public:
  SolverProvider(const PluginHost& host, const Config& config);
  /// [solvers] linear: for sparse FEM systems (the full method, basis construction).
  std::unique_ptr<LinearSolver> linear() const;
  /// [solvers] coupled: for a coupling method's per-step system of domain blocks (the caller
  /// passes the blocks in MatrixProperties::blocks to analyze()).
  std::unique_ptr<LinearSolver> coupled() const;
  /// [solvers] eigen. Its solves are this process's own, unless set_shared_solves(true): then,
  /// in a job an MPI launcher started, every rank takes part in each (and `auto` picks a solver
  /// that can share a solve, slepc).
  std::unique_ptr<EigenSolver> eigen() const;
  /// The solver of a basis's modal derivatives: linear(), unless set_shared_solves(true): then
  /// [solvers] shared_linear, set to share its solves over the ranks of an MPI job
  /// (LinearSolver::set_shared), or linear() when that is none.
  std::unique_ptr<LinearSolver> derivatives_linear() const;
  /// Solvers for a large domain ([reduction] shared_solve_dofs): eigen() and
  /// derivatives_linear() give solvers that can share a solve, in one process too, so that the
  /// model's cache key is the same with or without mpirun.
  void set_shared_solves(bool shared) { shared_solves_ = shared; }
  /// The ranks that share one domain's work beyond its eigen solve (its modal derivatives and
  /// polynomial), or null (the default): this process does all of it. Not owned.
  ProcessGroup* shared_work() const { return shared_work_; }
  void set_shared_work(ProcessGroup* group) { shared_work_ = group; }
  /// The processes of this job: in one an MPI launcher (mpirun) started, the group of the
  /// [solvers] processes plugin (mpi: over PETSc's MPI communicator); otherwise this process
  /// alone. Throws Error when the plugin is not installed.
  std::unique_ptr<ProcessGroup> processes() const;
  std::unique_ptr<GeometrySolver> geometry() const;

 private:
  const PluginHost& host_;
  const Config& config_;
  SolverSettings settings_;  // [solvers]
  bool shared_solves_ = false;
  ProcessGroup* shared_work_ = nullptr;
};

}  // namespace substruct
