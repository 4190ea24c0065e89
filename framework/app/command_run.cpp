// SPDX-License-Identifier: GPL-3.0-or-later
// substruct run SCENE.ini [--section.key=value …]
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"

namespace substruct::cli {

namespace {

// The method's "memory: bytes per KIND domain" figures (measured from its data structures), when
// it reports them: "memory     flexible 12 × 35.1 kB, rigid 150 × 1.2 kB per domain".
void print_domain_memory(const std::vector<std::pair<std::string, double>>& figures) {
  const auto figure = [&figures](const std::string& name) -> const double* {
    for (const auto& [key, value] : figures)
      if (key == name) return &value;
    return nullptr;
  };
  std::string line;
  for (const char* kind : {"flexible", "instance", "rigid"}) {
    const double* count = figure(fmt::format("memory: {} domains", kind));
    const double* bytes = figure(fmt::format("memory: bytes per {} domain", kind));
    if (count == nullptr || bytes == nullptr || *count == 0) continue;
    line += fmt::format("{}{} {:.0f} × {:.3g} kB", line.empty() ? "" : ", ", kind, *count,
                        *bytes / 1e3);
  }
  if (!line.empty()) std::printf("memory     %s per domain\n", line.c_str());
}

}  // namespace

int command_run(const Args& raw_args) {
  const SceneArguments args = parse_scene_arguments("run", raw_args);
  if (args.help) {
    std::printf(
        "usage: substruct run SCENE.ini [--section.key=value …]\n"
        "  Simulates the scene with the coupling method it names (or --coupling.plugin=NAME)\n"
        "  and writes the trajectory ([run] output, default out/<scene>.pvd).\n"
        "  Any scene key can be overridden, e.g. --run.steps=50 --material.model=linear.\n"
        "  substruct help scene lists the keys.\n");
    return 0;
  }

  PluginHost host(args.global.plugin_paths);
  const Config config = Config::load(args.scene_file, args.overrides, host);
  Simulation simulation(config, host);
  const RunSummary s = simulation.run();

  std::printf("scene      %s: %d vertices, %d tets, %d domain%s\n", s.scene.c_str(), s.vertices,
              s.elements, s.domains, s.domains == 1 ? "" : "s");
  std::printf("method     %s, %d DOFs\n", s.method.c_str(), s.dofs);
  std::printf("precompute %.3f s\n", s.precompute_seconds);
  print_domain_memory(s.precompute.figures);
  std::printf("steps      %ld × dt %.4g s = %.4g s simulated\n", s.steps, s.dt,
              double(s.steps) * s.dt);
  std::printf("time/step  %.3f ms median", 1e3 * s.median_step_seconds());
  if (!s.stages.stage_seconds.empty() && s.steps > 0) {
    std::printf(" (");
    bool first = true;
    for (const auto& [stage, seconds] : s.stages.stage_seconds) {
      std::printf("%s%s %.3f ms", first ? "" : ", ", stage.c_str(),
                  1e3 * seconds / double(s.steps));
      first = false;
    }
    std::printf(" mean)");
  }
  std::printf("\nenergy     kinetic %.6g J, elastic %.6g J, gravity %.6g J (final)\n",
              s.final_energies.kinetic, s.final_energies.elastic, s.final_energies.gravity);
  if (s.contact) {
    const ContactStats& c = s.contact_stats;
    std::printf(
        "contact    max penetration %.3g m (tolerance %.3g m), %.1f contacts/step (max %ld, "
        "%.0f %% sliding), stage %.3f ms/step\n",
        c.max_penetration, s.contact_tolerance, c.contacts_per_step(), c.max_contacts,
        100 * c.sliding_share(), c.evaluations ? 1e3 * c.seconds / double(c.evaluations) : 0.0);
  }
  for (const auto& file : s.outputs)
    std::printf("output     %s\n", std::filesystem::absolute(file).lexically_normal().c_str());
  if (s.outputs.empty()) std::printf("output     none ([run] exporters is empty)\n");
  return 0;
}

SUBSTRUCT_COMMAND("run", "SCENE.ini [--section.key=value …]",
                  "simulate a scene, write VTK/CSV output", command_run);

}  // namespace substruct::cli
