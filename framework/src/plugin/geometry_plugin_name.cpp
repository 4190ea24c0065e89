// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/plugin/geometry_plugin_name.hpp"

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct {

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
