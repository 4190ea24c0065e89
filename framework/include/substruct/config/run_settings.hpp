// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The [run] section: time stepping, loads, exporters, output, cache folder, divergence guard
/// initial state and threads.
#include <filesystem>
#include <string>
#include <vector>

#include "substruct/options/options.hpp"

namespace substruct {

struct RunSettings {
  double dt = 0.01;           // [s]
  std::string threads = "1";  // "auto" or N: cores for the per-step work (core/parallel_tasks.hpp)
  long steps = 100;
  std::string output;  // relative to the working directory; empty: out/<scene>.pvd
  long output_every = 1;
  std::vector<std::string> loads;                // load plugins
  std::vector<std::string> exporters = {"vtk"};  // exporter plugins
  std::filesystem::path cache_dir;               // empty: .substruct-cache beside the scene
  double max_displacement = 100;                 // in object sizes
  std::string memory_limit = "auto";  // core/memory_budget.hpp: "auto" or a size, e.g. "16G"
  std::string initial_displacement, initial_velocity;  // "" | "mode K AMPLITUDE"
};

class Config;

const OptionSet<RunSettings>& run_options();

/// [run] threads as a count: auto → the cores this process may use. Throws the config's error
/// naming the key for anything else than auto or a whole number ≥ 1.
int run_threads(const Config& config);

}  // namespace substruct
