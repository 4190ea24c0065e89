// substruct help PLUGIN | scene: the options a plugin (or the framework) reads from a scene.
#include <iostream>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct::cli {

int command_help(const Args& raw_args) {
  GlobalOptions global;
  const Args args = take_global_options(raw_args, global);
  if (args.size() != 1) throw Error("usage: substruct help PLUGIN | substruct help scene");
  if (args[0] == "scene") {
    std::cout << Config::framework_options() << "\n";
    return 0;
  }
  PluginHost host(global.plugin_paths);
  const PluginDescriptor& d = host.find(args[0]);
  std::cout << fmt::format("{} {} ({} plugin): {}\n\n", d.name, d.version, to_string(d.kind),
                           d.summary);
  const auto options = d.options();
  if (options.options().empty())
    std::cout << fmt::format("[{}] has no options.\n", d.name);
  else
    std::cout << fmt::format("[{}] section of a scene file, or --{}.KEY=VALUE:\n", d.name, d.name)
              << options << "\n";
  return 0;
}

SUBSTRUCT_COMMAND("help", "PLUGIN | scene", "the config options of a plugin, or of the scene",
                  command_help);

}  // namespace substruct::cli
