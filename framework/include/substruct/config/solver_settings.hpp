// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The [solvers] section: the plugins of the numerical engines a method uses (SolverProvider
/// creates them).
#include <string>

#include "substruct/options/options.hpp"

namespace substruct {

struct SolverSettings {
  std::string linear = "cholmod";          // sparse FEM systems
  std::string coupled = "block-cholesky";  // systems of domain blocks coupled along the graph
  std::string eigen = "auto";
  std::string geometry = "cpu";         // NAME or geometry-NAME
  std::string processes = "mpi";        // the ranks of a job an MPI launcher started
  std::string shared_linear = "mumps";  // a large domain's systems, shared by the ranks (or none)
};

const OptionSet<SolverSettings>& solver_options();

}  // namespace substruct
