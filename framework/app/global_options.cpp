// SPDX-License-Identifier: GPL-3.0-or-later
// The options every command accepts (also compiled into the viewer, viewers/osg).
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

}  // namespace substruct::cli
