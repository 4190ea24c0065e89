// SPDX-License-Identifier: GPL-3.0-or-later
// substruct plugins: every plugin found, by kind, and the libraries that failed to load.
#include <cstdio>

#include "commands.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct::cli {

int command_plugins(const Args& raw_args) {
  GlobalOptions global;
  take_global_options(raw_args, global);
  PluginHost host(global.plugin_paths);
  std::printf("plugin folders:\n");
  for (const auto& dir : host.search_dirs()) std::printf("  %s\n", dir.string().c_str());
  for (PluginKind kind : all_plugin_kinds()) {
    const auto plugins = host.of_kind(kind);
    std::printf("\n%.*s plugins:\n", int(to_string(kind).size()), to_string(kind).data());
    if (plugins.empty()) std::printf("  (none)\n");
    for (const PluginDescriptor* d : plugins)
      std::printf("  %-20s %-8s %s\n", d->name, d->version, d->summary);
  }
  bool header = false;
  for (const PluginInfo& info : host.plugins()) {
    if (info.descriptor != nullptr) continue;
    if (!header) std::printf("\nnot loaded:\n");
    header = true;
    std::printf("  %s: %s\n", info.file.string().c_str(), info.problem.c_str());
  }
  return 0;
}

SUBSTRUCT_COMMAND("plugins", "", "list the plugins found and their kinds", command_plugins);

}  // namespace substruct::cli
