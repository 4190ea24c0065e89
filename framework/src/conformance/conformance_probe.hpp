// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the conformance rules share: the scene's config with the plugin under test as its method,
// one fresh method on it, and the list of what a rule found broken.
#include <memory>
#include <string>
#include <vector>

#include "substruct/config/config.hpp"
#include "substruct/conformance/coupling_conformance.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/loads/external_forces.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::conformance {

/// The scene's settings with [coupling] plugin = `plugin`, no model cache, and `extra` (e.g.
/// run.threads) replacing the scene's values of the same keys.
Config rule_config(const PluginHost& host, const std::string& plugin, const ConformanceScene& scene,
                   const std::vector<Setting>& extra = {});

/// A fresh method of the plugin on the scene, with its own solvers, not yet precomputed.
class Probe {
 public:
  Probe(const PluginHost& host, const std::string& plugin, const ConformanceScene& scene,
        const std::vector<Setting>& extra = {});
  CouplingMethod& method() { return *method_; }
  const Scene& scene() const { return scene_; }
  Index vertices() const { return scene_.mesh.num_vertices(); }
  double dt() const { return dt_; }
  void precompute();
  /// precompute(), reset() to rest, `steps` steps under pull(); the positions and velocities.
  void run_from_rest(long steps, Points& x, Points& v);
  /// Loads that move any scene: gravity across the object and a pull on its tracked vertex of a
  /// tenth of its weight.
  const ExternalForces& pull() const { return pull_; }

 private:
  Config config_;
  Scene scene_;
  SolverProvider solvers_;
  std::unique_ptr<CouplingMethod> method_;
  double dt_ = 0;
  ExternalForces pull_;
};

/// What a rule found broken, each in one sentence; the rule passes when it stays empty.
using Problems = std::vector<std::string>;

/// The full-referenced rule (reference_run.cpp).
RuleOutcome check_full_referenced_run(const PluginHost& host, const std::string& plugin,
                                      const ConformanceScene& scene);

}  // namespace substruct::conformance
