// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/solver_settings.hpp"

namespace substruct {

const OptionSet<SolverSettings>& solver_options() {
  using S = SolverSettings;
  static const auto options =
      OptionSet<S>("solvers", "numerical engines the method uses")
          .text("linear", &S::linear,
                "linear-solver plugin for the sparse FEM systems (full method, bases)")
          .text("coupled", &S::coupled,
                "linear-solver plugin for the per-step systems of domain blocks coupled along the "
                "domain graph (coupling-elements): block-cholesky or cholmod")
          .text("eigen", &S::eigen,
                "eigen-solver plugin: auto (spectra for the solves a process makes alone, every "
                "domain's in a precompute too, even under mpirun; slepc for a solve the ranks of "
                "an MPI job share, as `substruct modes` under mpirun), spectra, slepc or another "
                "installed one")
          .text("geometry", &S::geometry,
                "geometry plugin: NAME or geometry-NAME (world positions of reduced methods, "
                "render mesh)")
          .text("processes", &S::processes,
                "process-group plugin that joins the ranks of a job an MPI launcher started "
                "(mpirun -n K substruct precompute: the domains are shared out): mpi (PETSc's MPI "
                "communicator)")
          .text("shared_linear", &S::shared_linear,
                "linear-solver plugin for a large domain's modal derivatives ([reduction] "
                "shared_solve_dofs), in one process too: mumps (one MUMPS factorization of K; "
                "under mpirun distributed over the ranks, so each holds a part of it, and every "
                "rank takes part in every solve) or none ([solvers] linear: under mpirun every "
                "rank factors K itself and solves its share of the right-hand sides)");
  return options;
}

}  // namespace substruct
