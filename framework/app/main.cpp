// substruct: simulate large deformable objects by domain decomposition and model reduction.
#include <cstdio>
#include <exception>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"

namespace substruct::cli {

Args take_global_options(const Args& args, GlobalOptions& options) {
  Args rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--plugin-path") {
      if (i + 1 == args.size()) throw Error("--plugin-path needs a folder");
      options.plugin_paths.emplace_back(args[++i]);
    } else if (a.starts_with("--plugin-path=")) {
      options.plugin_paths.emplace_back(a.substr(14));
    } else if (a == "--quiet" || a == "-q") {
      log::set_level(log::Level::quiet);
      Progress::set_enabled(false);
    } else if (a == "--verbose" || a == "-v") {
      log::set_level(log::Level::verbose);
    } else {
      rest.push_back(a);
    }
  }
  return rest;
}

namespace {

void print_usage() {
  std::printf(
      "substruct %s — real-time substructured simulation of deformable objects\n\n"
      "usage: substruct COMMAND [arguments] [--plugin-path DIR] [--quiet|--verbose]\n\n"
      "commands:\n"
      "  run SCENE.ini [--section.key=value …]   simulate a scene, write VTK/CSV output\n"
      "  plugins                                 list the plugins found and their kinds\n"
      "  help PLUGIN                             the config options of a plugin\n"
      "  help scene                              the framework's scene options\n"
      "  generate flower|beam --out DIR …        make a scene (mesh, fixed vertices, .ini)\n"
      "  version                                 print the version\n\n"
      "Plugins are searched in --plugin-path, SUBSTRUCT_PLUGIN_PATH, and the build/installed\n"
      "plugin folders.\n",
      SUBSTRUCT_VERSION);
}

}  // namespace
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
  try {
    if (command == "run") return cli::command_run(args);
    if (command == "plugins") return cli::command_plugins(args);
    if (command == "help") return cli::command_help(args);
    if (command == "generate") return cli::command_generate(args);
    if (command == "version" || command == "--version") {
      std::printf("substruct %s\n", SUBSTRUCT_VERSION);
      return 0;
    }
    std::fprintf(stderr,
                 "substruct: unknown command '%s' (commands: run, plugins, help, generate, "
                 "version; see substruct --help)\n",
                 command.c_str());
    return 2;
  } catch (const DivergenceError& e) {
    std::fprintf(stderr, "substruct: %s\n", e.what());
    return 3;
  } catch (const Error& e) {
    std::fprintf(stderr, "substruct: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "substruct: internal error: %s\n", e.what());
    return 70;
  }
}
