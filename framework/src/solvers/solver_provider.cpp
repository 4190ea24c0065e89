#include "substruct/solvers/solver_provider.hpp"

#include "substruct/config/config.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct {

SolverProvider::SolverProvider(const PluginHost& host, const Config& config)
    : host_(host), config_(config) {}

std::unique_ptr<LinearSolver> SolverProvider::linear() const {
  return host_.create<LinearSolver>(config_.get<std::string>("solvers.linear"),
                                    PluginKind::linear_solver, PluginContext{config_});
}

std::unique_ptr<EigenSolver> SolverProvider::eigen() const {
  return host_.create<EigenSolver>(config_.get<std::string>("solvers.eigen"),
                                   PluginKind::eigen_solver, PluginContext{config_});
}

}  // namespace substruct
