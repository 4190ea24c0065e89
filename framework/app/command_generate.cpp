// SPDX-License-Identifier: GPL-3.0-or-later
// substruct generate SHAPE --out DIR …: writes a mesh (.veg), its fixed vertices (.bou) and a
// scene (.ini) that runs it. The shapes are in generate_*.cpp (generators.hpp).
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "generators.hpp"
#include "substruct/core/error.hpp"

namespace substruct::cli {

const std::vector<const Generator*>& generators() {
  static const std::vector<const Generator*> all = {
      &flower_generator, &tree_generator,           &forest_generator,     &beam_generator,
      &bar_generator,    &bimaterial_bar_generator, &torus_knot_generator, &hybrid_bar_generator,
      &limb_generator,   &figure_generator};
  return all;
}

namespace {

std::string shape_names(const char* separator) {
  std::string names;
  for (const Generator* g : generators())
    names += (names.empty() ? "" : separator) + std::string(g->name);
  return names;
}

}  // namespace

int command_generate(const Args& raw_args) {
  GlobalOptions global;
  const Args args = take_global_options(raw_args, global);
  const std::string usage = fmt::format(
      "usage: substruct generate {} --out DIR [options]\n"
      "  Writes DIR/NAME.veg (mesh), DIR/NAME.bou (fixed vertices) and DIR/NAME.ini (a scene).\n"
      "  substruct generate SHAPE --help lists the options of each shape.\n",
      shape_names("|"));
  if (args.empty()) throw Error("generate: what? " + usage);
  if (args[0] == "--help" || args[0] == "-h") {
    std::printf("%s", usage.c_str());
    return 0;
  }
  const Args rest(args.begin() + 1, args.end());
  for (const Generator* g : generators())
    if (args[0] == g->name) return g->run(rest);
  throw Error(fmt::format("generate: unknown shape '{}' (shapes: {})", args[0], shape_names(", ")));
}

SUBSTRUCT_COMMAND(
    "generate",
    "flower|tree|forest|beam|bar|bimaterial-bar|torus-knot|hybrid-bar|limb|figure --out DIR …",
    "make a scene (mesh, fixed vertices, .ini)", command_generate);

}  // namespace substruct::cli
