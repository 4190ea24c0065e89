#include "substruct/solvers/solver_provider.hpp"

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
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
  return host_.create<EigenSolver>(settings_.eigen, PluginKind::eigen_solver,
                                   PluginContext{config_});
}

std::unique_ptr<GeometrySolver> SolverProvider::geometry() const {
  return host_.create<GeometrySolver>(geometry_plugin_name(host_, settings_.geometry),
                                      PluginKind::geometry, PluginContext{config_});
}

std::string geometry_plugin_name(const PluginHost& host, const std::string& name) {
  for (const std::string& candidate : {name, "geometry-" + name}) {
    const PluginDescriptor* d = host.try_find(candidate);
    if (d != nullptr && d->kind == PluginKind::geometry) return candidate;
  }
  std::string names;
  for (const PluginDescriptor* d : host.of_kind(PluginKind::geometry))
    names += fmt::format("{}{}", names.empty() ? "" : ", ", d->name);
  throw Error(fmt::format(
      "[solvers] geometry = {}: no geometry plugin '{}' or 'geometry-{}'; available geometry "
      "plugins: {}",
      name, name, name, names.empty() ? std::string("none") : names));
}

}  // namespace substruct
