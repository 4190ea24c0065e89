// SPDX-License-Identifier: GPL-3.0-or-later
// The slepc engine (slepc_engine.hpp): the solver behind the slepc plugin, in its own library so
// that PETSc, SLEPc and MPI load only when a solver is made. Run under mpirun, every rank calls
// solve() with the same matrices; the problem is distributed by blocks of rows over
// PETSC_COMM_WORLD and every rank gets all the eigenpairs (unless set_shared(false): then each
// rank solves its own problem on PETSC_COMM_SELF). It also gives the mpi plugin its process
// group and the mumps plugin its linear solver (mumps_linear_solver.hpp).
#include <mutex>
#include <optional>

#include <slepcsys.h>

#include "generalized_eigensolve.hpp"
#include "mpi_process_group.hpp"
#include "mumps_linear_solver.hpp"
#include "slepc_engine.hpp"
#include "slepc_session.hpp"
#include "substruct/solvers/eigen_solver.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct::slepc_plugin {
namespace {

class SlepcEigenSolver final : public EigenSolver {
 public:
  SlepcEigenSolver(const SlepcSettings& settings, std::optional<double> shift)
      : settings_(settings), shift_(shift) {}

  EigenPairs solve(const SparseMatrix& K, const SparseMatrix& M, int count, double shift) override {
    ensure_slepc_initialized();
    const std::lock_guard<std::mutex> lock(petsc_mutex());
    return solve_generalized(shared_ ? PETSC_COMM_WORLD : PETSC_COMM_SELF, K, M, count,
                             shift_ ? *shift_ : shift, settings_);
  }
  void set_shared(bool shared) override { shared_ = shared; }

 private:
  SlepcSettings settings_;
  std::optional<double> shift_;
  bool shared_ = true;  // one solve over every rank of PETSC_COMM_WORLD
};

}  // namespace
}  // namespace substruct::slepc_plugin

extern "C" __attribute__((visibility("default"))) substruct::EigenSolver*
substruct_slepc_make_solver(const substruct::slepc_plugin::SlepcSettings& settings,
                            const std::optional<double>& shift) {
  // Starting SLEPc (and MPI, in a process started without mpirun) takes a moment: done here,
  // once per process, so that solve() times only the solve.
  substruct::slepc_plugin::ensure_slepc_initialized();
  return new substruct::slepc_plugin::SlepcEigenSolver(settings, shift);
}

extern "C" __attribute__((visibility("default"))) substruct::ProcessGroup*
substruct_slepc_make_process_group() {
  return substruct::slepc_plugin::make_mpi_process_group().release();
}

extern "C" __attribute__((visibility("default"))) substruct::LinearSolver*
substruct_slepc_make_linear_solver() {
  return substruct::slepc_plugin::make_mumps_linear_solver().release();
}
