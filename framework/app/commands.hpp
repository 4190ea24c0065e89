// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The sub-commands of the `substruct` command, one file each (command_<name>.cpp). Each file
// registers itself with SUBSTRUCT_COMMAND; main() dispatches by name and prints the usage.
// A command takes the arguments after its name and returns the exit code; errors are thrown as
// substruct::Error and reported by main().
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "substruct/core/error.hpp"
#include "substruct/options/option_table.hpp"

namespace substruct::cli {

using Args = std::vector<std::string>;

struct Command {
  const char* name;     // e.g. "run"
  const char* usage;    // arguments, e.g. "SCENE.ini [--section.key=value …]"
  const char* summary;  // one line
  int (*run)(const Args& args);
};

/// Runs `body` and returns its exit status; what it throws is printed on stderr and becomes the
/// status: 3 for a diverging simulation (DivergenceError), 1 for any other Error (bad input, a
/// missing file), 70 for anything else (an internal error).
int run_reporting_errors(const std::function<int()>& body);

/// Every registered command, sorted by name.
const std::vector<Command>& commands();
bool register_command(const Command& command);

/// The option tables of commands whose own options are declared in an OptionSet (given as
/// --KEY VALUE), for the reference page; a command registers its table once, by name.
struct CommandOptions {
  const char* command;
  const OptionTable& (*table)();
};
const std::vector<CommandOptions>& command_options();
bool register_command_options(const CommandOptions& options);

/// Options every command accepts: --plugin-path DIR (repeatable), --quiet, --verbose.
struct GlobalOptions {
  std::vector<std::filesystem::path> plugin_paths;
};
/// Removes the global options from `args` (applying --quiet/--verbose) and returns the rest.
Args take_global_options(const Args& args, GlobalOptions& options);

/// The error for an option `command` does not have: "COMMAND: unknown option 'OPTION'; did you
/// mean 'NEAREST'? (NOTE; see substruct COMMAND --help)", the suggestion made only when one of
/// `known` (the command's options, e.g. "--count") is a few edits away.
Error unknown_option(const char* command, const std::string& option,
                     const std::vector<std::string>& known, const std::string& note = "");
/// Whether one of `known` is a few edits from `name` (at most 2, or a third of its length).
bool close_to_one_of(const std::string& name, const std::vector<std::string>& known);

/// Walks a command's own options, each `--name value` or `--name=value`:
///   for (OptionArguments a("modes", args); a.next();)
///     if (a.is("--count")) count = parse(a.value("--count")); else …
class OptionArguments {
 public:
  OptionArguments(const char* command, const Args& args) : command_(command), args_(args) {}
  /// Moves to the next argument; false past the last one.
  bool next() { return ++i_ < args_.size(); }
  const std::string& current() const { return args_[i_]; }
  /// The current argument is `name` or `name=…`. Every name asked about is remembered as one of
  /// the command's options (asked()), for the suggestion of unknown().
  bool is(const std::string& name) const;
  /// The value of option `name` (the current argument): after its '=', else the next argument,
  /// which is then consumed. Throws Error "COMMAND: NAME needs a value …" when there is none.
  std::string value(const std::string& name);
  /// The options is() was asked about so far.
  const std::vector<std::string>& asked() const { return asked_; }
  /// unknown_option() for the current argument, suggesting among asked().
  Error unknown() const { return unknown_option(command_, current(), asked_); }

 private:
  const char* command_;
  const Args& args_;
  mutable std::vector<std::string> asked_;
  std::size_t i_ = static_cast<std::size_t>(-1);
};

/// The arguments of a command that works on a scene: `COMMAND SCENE.ini [--section.key=value …]`.
struct SceneArguments {
  GlobalOptions global;
  std::string scene_file;
  std::vector<std::string> overrides;  // "--section.key=value"
  bool help = false;                   // --help or -h was given
};
/// Parses them; throws Error naming `command` for a missing scene, a stray argument or an option
/// that is not a setting (with a suggestion among `command_options`, the options the command
/// took out of `args` before).
SceneArguments parse_scene_arguments(const char* command, const Args& args,
                                     const std::vector<std::string>& command_options = {});

}  // namespace substruct::cli

#define SUBSTRUCT_COMMAND_CONCAT2(a, b) a##b
#define SUBSTRUCT_COMMAND_CONCAT(a, b) SUBSTRUCT_COMMAND_CONCAT2(a, b)
/// Registers a command: SUBSTRUCT_COMMAND("run", "SCENE.ini …", "simulate a scene", run_function)
#define SUBSTRUCT_COMMAND(name, usage, summary, function)                               \
  static const bool SUBSTRUCT_COMMAND_CONCAT(substruct_command_registered_, __LINE__) = \
      ::substruct::cli::register_command({name, usage, summary, function})
