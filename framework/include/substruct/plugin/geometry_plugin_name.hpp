// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// How `[solvers] geometry = NAME` names a geometry plugin.
#include <string>

namespace substruct {

class PluginHost;

/// The geometry plugin that `[solvers] geometry = NAME` selects: the plugin NAME, or
/// geometry-NAME (so `cpu` names the plugin geometry-cpu). Throws Error listing the geometry
/// plugins otherwise.
std::string geometry_plugin_name(const PluginHost& host, const std::string& name);

}  // namespace substruct
