// SPDX-License-Identifier: GPL-3.0-or-later
// substruct: simulate large deformable objects by domain decomposition and model reduction.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/core/interrupt.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"

namespace substruct::cli {

namespace {

std::vector<Command>& registry() {
  static std::vector<Command> all;
  return all;
}

int command_version(const Args&) {
  std::printf("substruct %s\n", SUBSTRUCT_VERSION);
  return 0;
}
SUBSTRUCT_COMMAND("version", "", "print the version", command_version);

void print_usage() {
  std::printf(
      "substruct %s — real-time substructured simulation of deformable objects\n\n"
      "usage: substruct COMMAND [arguments] [--plugin-path DIR] [--quiet|--verbose]\n\n"
      "commands:\n",
      SUBSTRUCT_VERSION);
  for (const Command& c : commands()) {
    fmt::print("  {:<44} {}\n", fmt::format("{} {}", c.name, c.usage), c.summary);
  }
  std::printf(
      "\nPlugins are searched in --plugin-path, SUBSTRUCT_PLUGIN_PATH, and the build/installed\n"
      "plugin folders. COMMAND --help says more; substruct help says where the documentation "
      "is.\n");
}

}  // namespace

namespace {
// Inserts `item` into `all`, kept sorted by the name `name_of` gives.
template <class T, class Name>
bool insert_by_name(std::vector<T>& all, const T& item, Name name_of) {
  all.insert(std::upper_bound(all.begin(), all.end(), item,
                              [&](const T& a, const T& b) {
                                return std::string_view(name_of(a)) < std::string_view(name_of(b));
                              }),
             item);
  return true;
}
}  // namespace

bool register_command(const Command& command) {
  return insert_by_name(registry(), command, [](const Command& c) { return c.name; });
}

const std::vector<Command>& commands() {
  return registry();
}

namespace {
std::vector<CommandOptions>& options_registry() {
  static std::vector<CommandOptions> all;
  return all;
}
}  // namespace

bool register_command_options(const CommandOptions& options) {
  return insert_by_name(options_registry(), options,
                        [](const CommandOptions& c) { return c.command; });
}

const std::vector<CommandOptions>& command_options() {
  return options_registry();
}
}  // namespace substruct::cli

int main(int argc, char** argv) {
  using namespace substruct;
  cli::Args args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    cli::print_usage();
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  install_interrupt_handlers();  // Ctrl-C stops at a safe point (core/interrupt.hpp)
  return cli::run_reporting_errors([&] {
    const std::string name = command == "--version" ? "version" : command;
    std::string names;
    for (const cli::Command& c : cli::commands()) {
      if (name == c.name) return c.run(args);
      names += (names.empty() ? "" : ", ") + std::string(c.name);
    }
    std::fprintf(stderr, "substruct: unknown command '%s' (commands: %s; see substruct --help)\n",
                 command.c_str(), names.c_str());
    return 2;
  });
}
