// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The shapes of `substruct generate`, one file per family (generate_plants.cpp, generate_bars.cpp,
// generate_figures.cpp); generate_scene.cpp holds what they share. Each shape declares its
// options once, as an OptionSet over its settings struct: its --help, the parsing and checking of
// its arguments and its part of framework/docs/options.md come from that declaration.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/options/options.hpp"

namespace substruct::cli {

/// One shape of `substruct generate`.
struct Generator {
  const char* name;   // "flower"
  const char* usage;  // "--out DIR [options]": the arguments after the shape
  const char* about;  // what it makes, a few sentences
  const OptionTable& (*options)();
  int (*run)(const Args& args);  // the arguments after the shape
};

/// Every shape, in the order `substruct generate --help` lists them.
const std::vector<const Generator*>& generators();

extern const Generator flower_generator, tree_generator, forest_generator;
extern const Generator beam_generator, bar_generator, bimaterial_bar_generator,
    hybrid_bar_generator;
extern const Generator torus_knot_generator, limb_generator, figure_generator;

/// What every generated scene shares: where to write and how to run it.
struct GeneratedScene {
  explicit GeneratedScene(std::string name_, std::string coupling_ = "full", long steps_ = 200)
      : name(std::move(name_)), coupling(std::move(coupling_)), steps(steps_) {}
  std::string out;
  std::string mesh_dir;
  std::string name;
  std::string coupling;
  std::string gravity = "0 -9.81 0";
  double dt = 0.01;
  long steps;
};

/// [material] Rayleigh damping of a generated scene. α = 2/s damps the first bending mode of the
/// default bar (≈ 1 Hz) by about 15 %: it settles to within 1 cm in 3 s (α = 1/s leaves it
/// swinging ±3 cm at 4 s); β only damps the high modes.
struct GeneratedDamping {
  double rayleigh_mass = 2.0;
  double rayleigh_stiffness = 0.002;
  /// The two [material] lines, `comment` after α's.
  std::string lines(const std::string& comment) const;
};

/// --out, --mesh-dir, --name, --coupling, --gravity, --dt, --steps (S derives GeneratedScene).
template <class S>
OptionSet<S>& scene_options(OptionSet<S>& options) {
  return options.text("out", &S::out, "folder of the scene file (.ini); required")
      .text("mesh-dir", &S::mesh_dir,
            "folder of the mesh (.veg) and fixed vertices (.bou); default: --out")
      .text("name", &S::name, "file stem: NAME.veg, NAME.bou, NAME.ini; output out/NAME.pvd")
      .text("coupling", &S::coupling, "[coupling] plugin of the scene")
      .text("gravity", &S::gravity, "[gravity] acceleration [m/s²] (empty: no gravity)")
      .number("dt", &S::dt, "s", "[run] dt", positive)
      .integer("steps", &S::steps, "", "[run] steps", non_negative);
}

/// The help lines of material_options().
struct MaterialHelp {
  const char* youngs_modulus = "E";
  const char* poisson_ratio = "ν";
  const char* density = "ρ";
};

/// --youngs-modulus, --poisson-ratio, --density of the Material `material` of S.
template <class S, class C>
OptionSet<S>& material_options(OptionSet<S>& options, Material C::*material,
                               const MaterialHelp& help = {}) {
  return options
      .number("youngs-modulus", member(material, &Material::youngs_modulus), "Pa",
              help.youngs_modulus, positive)
      .number("poisson-ratio", member(material, &Material::poisson_ratio), "", help.poisson_ratio,
              in_open_range(-1, 0.5))
      .number("density", member(material, &Material::density), "kg/m³", help.density, positive);
}

/// --rayleigh-mass, --rayleigh-stiffness (S derives GeneratedDamping).
template <class S>
OptionSet<S>& damping_options(OptionSet<S>& options) {
  return options
      .number("rayleigh-mass", &S::rayleigh_mass, "1/s",
              "[material] rayleigh_mass α in D = αM + βK", non_negative)
      .number("rayleigh-stiffness", &S::rayleigh_stiffness, "s", "[material] rayleigh_stiffness β",
              non_negative);
}

/// Parses the arguments of `shape` into `settings`: `--key VALUE` or `--key=VALUE`, a flag
/// alone, a list's items in one argument or several (--cells 10 2 2). Returns false after
/// printing the help when --help (-h) was given; throws Error naming the shape and the option
/// for an unknown option, a missing value or one its option refuses.
template <class S>
bool parse_generator_arguments(const Generator& shape, const Args& args,
                               const OptionSet<S>& options, S& settings) {
  return parse_generator_arguments(shape, args, [&](const std::string& key, const std::string& v) {
    return options.assign(settings, key, v);
  });
}
/// The untyped walk: `assign(key, text)` stores a value or returns why it was refused.
bool parse_generator_arguments(
    const Generator& shape, const Args& args,
    const std::function<std::string(const std::string&, const std::string&)>& assign);

/// "substruct generate SHAPE ARGS…": the Made by line of a scene.
std::string made_by(const char* shape, const Args& args);

/// Writes NAME.veg, NAME.bou and NAME.ini and prints what it wrote.
void write_scene(const GeneratedScene& s, const TetMesh& mesh, const std::vector<Index>& fixed,
                 const std::string& comment, const std::string& domains,
                 const std::vector<Index>& tracked, const std::string& tracked_comment,
                 const std::string& pull_section = "", const std::string& reduction_section = "",
                 const std::string& material_lines = "");

/// The vertex of element set `set` farthest from the stem axis (x = z = 0); ties: lowest id.
Index tip_of(const TetMesh& mesh, const std::string& set);
/// The first element set whose name starts with `prefix` (sets are in name order); "" if none.
std::string first_set(const TetMesh& mesh, const std::string& prefix);
/// The highest vertex on the axis x = z = 0 (ties: lowest id).
Index top_of_axis(const TetMesh& mesh);

/// Indices separated by single spaces.
std::string join(const std::vector<Index>& values);

/// --cells NX NY NZ of a bar into nx, ny, nz; throws Error unless there are three.
void read_cells(const std::vector<Index>& cells, int& nx, int& ny, int& nz, const char* shape);

}  // namespace substruct::cli
