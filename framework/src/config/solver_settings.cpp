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
                "eigen-solver plugin: auto (slepc in a process mpirun started, spectra in one "
                "started alone: no MPI start-up), spectra, slepc or another installed one")
          .text("geometry", &S::geometry,
                "geometry plugin: NAME or geometry-NAME (world positions of reduced methods, "
                "render mesh)");
  return options;
}

}  // namespace substruct
