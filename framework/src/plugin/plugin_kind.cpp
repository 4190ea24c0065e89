// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/plugin/plugin_kind.hpp"

namespace substruct {

std::string_view to_string(PluginKind kind) {
  switch (kind) {
    case PluginKind::coupling:
      return "coupling";
    case PluginKind::eigen_solver:
      return "eigen-solver";
    case PluginKind::linear_solver:
      return "linear-solver";
    case PluginKind::geometry:
      return "geometry";
    case PluginKind::load:
      return "load";
    case PluginKind::exporter:
      return "exporter";
    case PluginKind::process_group:
      return "process-group";
  }
  return "unknown";
}

const std::vector<PluginKind>& all_plugin_kinds() {
  static const std::vector<PluginKind> kinds = {PluginKind::coupling,      PluginKind::eigen_solver,
                                                PluginKind::linear_solver, PluginKind::geometry,
                                                PluginKind::load,          PluginKind::exporter,
                                                PluginKind::process_group};
  return kinds;
}

}  // namespace substruct
