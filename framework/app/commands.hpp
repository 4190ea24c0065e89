#pragma once
// The sub-commands of the `substruct` command, one file each (command_<name>.cpp).
// Each takes the arguments after the sub-command name and returns the process exit code;
// errors are thrown as substruct::Error and reported by main().
#include <filesystem>
#include <string>
#include <vector>

namespace substruct::cli {

using Args = std::vector<std::string>;

/// Options every command accepts: --plugin-path DIR (repeatable), --quiet, --verbose.
struct GlobalOptions {
  std::vector<std::filesystem::path> plugin_paths;
};
/// Removes the global options from `args` (applying --quiet/--verbose) and returns the rest.
Args take_global_options(const Args& args, GlobalOptions& options);

int command_run(const Args& args);       // substruct run SCENE [--section.key=value…]
int command_plugins(const Args& args);   // substruct plugins
int command_help(const Args& args);      // substruct help [PLUGIN|scene]
int command_generate(const Args& args);  // substruct generate flower|beam …

}  // namespace substruct::cli
