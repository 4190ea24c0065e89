// SPDX-License-Identifier: GPL-3.0-or-later
// The arguments shared by the commands that work on a scene (run, precompute).
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/framework_sections.hpp"
#include "substruct/core/error.hpp"

namespace substruct::cli {
namespace {

// The framework setting "section.key" whose key is `name` or a few edits from it; "" if none.
std::string framework_key_named(const std::string& name) {
  std::vector<std::string> keys, full;
  for (const OptionTable* table : framework_sections())
    for (const OptionInfo& option : table->options) {
      keys.push_back(option.key);
      full.push_back(table->section + "." + option.key);
    }
  const std::string nearest = nearest_key(name, keys);
  if (nearest.empty() || !close_to_one_of(name, {nearest})) return "";
  return full[std::size_t(std::find(keys.begin(), keys.end(), nearest) - keys.begin())];
}

}  // namespace

SceneArguments parse_scene_arguments(const char* command, const Args& raw_args,
                                     const std::vector<std::string>& command_options) {
  SceneArguments parsed;
  for (const std::string& a : take_global_options(raw_args, parsed.global)) {
    if (a == "--help" || a == "-h") {
      parsed.help = true;
    } else if (a.starts_with("--")) {
      // Settings are --section.key=value; anything else after "--" is an option this command
      // does not have (a typo such as --frams 3 must not turn into a stray scene argument).
      const auto eq = a.find('=');
      if (eq == std::string::npos || a.find('.') > eq) {
        std::vector<std::string> known = command_options;
        known.push_back("--help");
        const std::string name = a.substr(0, eq);
        if (!close_to_one_of(name, known)) {
          // --steps=3 for --run.steps=3: a framework key of that name.
          if (const std::string key = framework_key_named(name.substr(2)); !key.empty())
            throw Error(fmt::format(
                "{}: unknown option '{}'; did you mean '--{}{}'? (settings are "
                "--section.key=value; see substruct {} --help)",
                command, a, key, eq == std::string::npos ? "=…" : a.substr(eq), command));
        }
        throw unknown_option(command, a, known, "settings are --section.key=value");
      }
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
