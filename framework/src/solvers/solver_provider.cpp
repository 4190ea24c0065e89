#include "substruct/solvers/solver_provider.hpp"

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
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

std::unique_ptr<EigenSolver> SolverProvider::eigen() const {
  return host_.create<EigenSolver>(eigen_plugin_name(&host_, settings_.eigen),
                                   PluginKind::eigen_solver, PluginContext{config_});
}

std::unique_ptr<GeometrySolver> SolverProvider::geometry() const {
  return host_.create<GeometrySolver>(geometry_plugin_name(host_, settings_.geometry),
                                      PluginKind::geometry, PluginContext{config_});
}

}  // namespace substruct
