// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/run_settings.hpp"

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/parallel_tasks.hpp"

namespace substruct {

const OptionSet<RunSettings>& run_options() {
  using S = RunSettings;
  static const auto options =
      OptionSet<S>("run", "time stepping and output")
          .number("dt", &S::dt, "s", "time step", positive)
          .integer("steps", &S::steps, "", "number of steps", non_negative)
          .text("threads", &S::threads,
                "threads for each step: N or auto (the cores this process may use); the "
                "methods spread their domains and coupling elements over them, with results "
                "identical for any count")
          .text("output", &S::output,
                "output series (.pvd), relative to the working directory; default "
                "out/<scene>.pvd")
          .integer("output_every", &S::output_every, "", "write every k-th step", at_least(1))
          .list("loads", &S::loads, "load plugins, e.g. gravity pull")
          .list("exporters", &S::exporters, "exporter plugins, e.g. vtk csv (empty: write nothing)")
          .path("cache_dir", &S::cache_dir,
                "folder for precomputed models; default .substruct-cache beside the scene, or "
                "the user's cache folder ($XDG_CACHE_HOME or ~/.cache, substruct/models) for "
                "an installed scene or a read-only folder")
          .number("max_displacement", &S::max_displacement, "",
                  "divergence guard: stop when a vertex moves more than this many object sizes",
                  positive)
          .text("memory_limit", &S::memory_limit,
                "memory the run may use: auto (what the system has available when the run "
                "starts) or a size such as 16G, 512M (K, M, G, T: powers of 1024); large "
                "allocations are announced and refused beyond it")
          .text("initial_displacement", &S::initial_displacement,
                "initial displacement: empty (rest) | mode K AMPLITUDE (the K-th lowest "
                "vibration mode of the whole mesh with its fixed vertices, scaled so that the "
                "largest vertex displacement is AMPLITUDE [m])")
          .text("initial_velocity", &S::initial_velocity,
                "initial velocity: empty (rest) | mode K AMPLITUDE (the K-th lowest vibration "
                "mode of the whole mesh with its fixed vertices, scaled so that the largest "
                "vertex speed is AMPLITUDE [m/s])");
  return options;
}

int run_threads(const Config& config) {
  const std::string setting = run_options().read(config).threads;
  try {
    return parse_thread_count(setting);
  } catch (const Error&) {
    throw config.value_error("run.threads", "expected auto or a whole number from 1 to 4096");
  }
}

}  // namespace substruct
