// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A coupling method made from a config by the plugin host, precomputed on its scene and reset to
// rest: what the coupling plugins' tests drive step by step.
#include <filesystem>
#include <memory>
#include <string>

#include "substruct/config/config.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::testing {

struct MethodRun {
  Config config;
  Scene scene;
  SolverProvider solvers;
  std::unique_ptr<CouplingMethod> method;

  /// `cache_dir` empty: no model cache.
  MethodRun(const PluginHost& host, Config c, const std::string& plugin,
            const std::filesystem::path& cache_dir = {})
      : config(std::move(c)),
        scene(load_scene(config)),
        solvers(host, config),
        method(host.create<CouplingMethod>(plugin, PluginKind::coupling, PluginContext{config})) {
    method->precompute(PrecomputeContext{scene, solvers, cache_dir});
    method->reset({}, {});
  }
  Points x() const {
    Points p;
    method->positions(p);
    return p;
  }
  Points v() const {
    Points p;
    method->velocities(p);
    return p;
  }
  /// x − X, flattened (3N).
  Eigen::VectorXd displacement() const { return flat(x()) - flat(scene.mesh.vertices); }
  void run(int steps, double dt, const ExternalForces& f) {
    StepStats stats;
    for (int i = 0; i < steps; ++i) method->step(dt, f, stats);
  }
};

}  // namespace substruct::testing
