// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A fixture for the eigen-solver plugins' tests (slepc, spectra): the plugin made through a
// PluginHost over the build's plugin folder, as the framework makes it, with test settings.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "substruct/config/config.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/eigen_solver.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct::testing {

class EigenSolverTest : public TempDirTest {
 protected:
  /// The eigen-solver plugin `plugin` with [solvers] eigen = plugin and `settings`.
  std::unique_ptr<EigenSolver> make_solver(const std::string& plugin,
                                           std::vector<Setting> settings) {
    settings.insert(settings.begin(), {"solvers.eigen", plugin, "test"});
    if (!host_)
      host_ = std::make_unique<PluginHost>(std::vector<std::filesystem::path>{SUBSTRUCT_PLUGIN_DIR},
                                           false);
    const Config config = Config::from_settings(settings, dir(), *host_);
    return host_->create<EigenSolver>(plugin, PluginKind::eigen_solver, PluginContext{config});
  }

  std::unique_ptr<PluginHost> host_;  // made by the first make_solver()
};

}  // namespace substruct::testing
