// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/solvers/solver_provider.hpp"

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/mpi_launch.hpp"
#include "substruct/plugin/eigen_plugin_name.hpp"
#include "substruct/plugin/geometry_plugin_name.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct {

SolverProvider::SolverProvider(const PluginHost& host, const Config& config)
    : host_(host), config_(config), settings_(solver_options().read(config)) {}

std::unique_ptr<LinearSolver> SolverProvider::linear() const {
  return host_.create<LinearSolver>(settings_.linear, PluginKind::linear_solver,
                                    PluginContext{config_});
}

std::unique_ptr<LinearSolver> SolverProvider::coupled() const {
  return host_.create<LinearSolver>(settings_.coupled, PluginKind::linear_solver,
                                    PluginContext{config_});
}

std::unique_ptr<LinearSolver> SolverProvider::derivatives_linear() const {
  if (!shared_solves_ || settings_.shared_linear == "none") return linear();
  auto solver = host_.create<LinearSolver>(settings_.shared_linear, PluginKind::linear_solver,
                                           PluginContext{config_});
  solver->set_shared(true);
  return solver;
}

std::unique_ptr<EigenSolver> SolverProvider::eigen() const {
  auto solver =
      host_.create<EigenSolver>(eigen_plugin_name(&host_, settings_.eigen, shared_solves_),
                                PluginKind::eigen_solver, PluginContext{config_});
  solver->set_shared(shared_solves_);
  return solver;
}

std::unique_ptr<ProcessGroup> SolverProvider::processes() const {
  if (!started_by_mpi_launcher()) return single_process();
  if (host_.try_find(settings_.processes) == nullptr)
    throw Error(fmt::format(
        "this process was started by an MPI launcher (mpirun), but the process-group plugin "
        "'{}' ([solvers] processes) is not installed: it is built with the slepc plugin, where "
        "SLEPc, PETSc and MPI are found (Debian: libslepc-real-dev libpetsc-real-dev)",
        settings_.processes));
  return host_.create<ProcessGroup>(settings_.processes, PluginKind::process_group,
                                    PluginContext{config_});
}

std::unique_ptr<GeometrySolver> SolverProvider::geometry() const {
  return host_.create<GeometrySolver>(geometry_plugin_name(host_, settings_.geometry),
                                      PluginKind::geometry, PluginContext{config_});
}

}  // namespace substruct
