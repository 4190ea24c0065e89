// The arguments shared by the commands that work on a scene (run, precompute).
#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/core/error.hpp"

namespace substruct::cli {

SceneArguments parse_scene_arguments(const char* command, const Args& raw_args) {
  SceneArguments parsed;
  for (const std::string& a : take_global_options(raw_args, parsed.global)) {
    if (a == "--help" || a == "-h") {
      parsed.help = true;
    } else if (a.starts_with("--")) {
      // Settings are --section.key=value; anything else after "--" is an option this command
      // does not have (a typo such as --frams 3 must not turn into a stray scene argument).
      const auto eq = a.find('=');
      if (eq == std::string::npos || a.find('.') > eq)
        throw Error(fmt::format(
            "{}: unknown option '{}' (settings are --section.key=value; see substruct {} --help)",
            command, a, command));
      parsed.overrides.push_back(a);
    } else if (parsed.scene_file.empty()) {
      parsed.scene_file = a;
    } else {
      throw Error(fmt::format(
          "{}: unexpected argument '{}' (one scene file; settings as --section.key=value)", command,
          a));
    }
  }
  if (parsed.scene_file.empty() && !parsed.help)
    throw Error(fmt::format("{}: which scene? usage: substruct {} SCENE.ini", command, command));
  return parsed;
}

}  // namespace substruct::cli
