// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The kinds of plugin the host knows.
#include <string_view>
#include <vector>

namespace substruct {

enum class PluginKind {
  coupling,
  eigen_solver,
  linear_solver,
  geometry,
  load,
  exporter,
  process_group
};

/// "coupling", "eigen-solver", "linear-solver", "geometry", "load", "exporter", "process-group".
std::string_view to_string(PluginKind kind);
const std::vector<PluginKind>& all_plugin_kinds();

}  // namespace substruct
