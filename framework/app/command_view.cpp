// SPDX-License-Identifier: GPL-3.0-or-later
// substruct view SCENE.ini [options] — runs the OpenSceneGraph viewer (viewers/osg), a separate
// program (substruct-view) so that the framework and the other commands do not depend on
// OpenSceneGraph. It is looked up next to this program, then in ../libexec/substruct.
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <boost/dll/runtime_symbol_info.hpp>

#include "commands.hpp"
#include "substruct/core/error.hpp"

namespace substruct::cli {

namespace fs = std::filesystem;

int command_view(const Args& args) {
  std::error_code ec;
  const fs::path here = boost::dll::program_location(ec).parent_path();
  std::vector<fs::path> candidates;
  if (!ec) {
    candidates.push_back(here / "substruct-view");
    candidates.push_back(here.parent_path() / "libexec" / "substruct" / "substruct-view");
  }
  for (const fs::path& viewer : candidates) {
    if (!fs::exists(viewer, ec)) continue;
    std::vector<std::string> storage{viewer.string()};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);
    ::execv(viewer.c_str(), argv.data());
    throw Error(fmt::format("cannot run the viewer {}: {}", viewer.string(), std::strerror(errno)));
  }
  throw Error(
      "the OpenSceneGraph viewer (substruct-view) is not built: build it with `cmake --build "
      "build --target substruct_view` (framework/tools/setup.sh run builds it after the first "
      "simulation); it needs libopenscenegraph-dev, which setup.sh installs");
}

SUBSTRUCT_COMMAND("view", "SCENE.ini [--compare A,B,…] [--frames N] [--section.key=value …]",
                  "simulate a scene live (methods side by side), or render it headless",
                  command_view);

}  // namespace substruct::cli
