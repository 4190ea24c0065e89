// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/plugin/eigen_plugin_name.hpp"

#include "substruct/core/mpi_launch.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct {

std::string eigen_plugin_name(const PluginHost* host, const std::string& name, bool shared) {
  if (name != "auto") return name;
  if (shared) return "slepc";
  if (host == nullptr) return "spectra";
  const PluginDescriptor* spectra = host->try_find("spectra");
  return spectra != nullptr && spectra->kind == PluginKind::eigen_solver ? "spectra" : "slepc";
}

}  // namespace substruct
