// SPDX-License-Identifier: GPL-3.0-or-later
// substruct generate beam | bar | bimaterial-bar | hybrid-bar: box beams of cells clamped at
// x = 0 — a plain cantilever, the bars of Huang et al. 2006 (Fig. 1, 9) and the hybrid bar of
// Yang et al. 2010 (some domains rigid).
#include <cmath>

#include <fmt/format.h>

#include "generators.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/scene/bar_generator.hpp"
#include "substruct/scene/bimaterial_bar_generator.hpp"
#include "substruct/scene/hybrid_bar_generator.hpp"

namespace substruct::cli {

namespace {

/// --length, --height, --width and --cells NX NY NZ of a bar (S derives its parameters and
/// has `cells`).
template <class S>
OptionSet<S>& bar_box_options(OptionSet<S>& options, std::string cells_help) {
  return options.number("length", &S::length, "m", "along x", positive)
      .number("height", &S::height, "m", "along y, across gravity", positive)
      .number("width", &S::width, "m", "along z", positive)
      .indices("cells", &S::cells, std::move(cells_help));
}
template <class S>
OptionSet<S>& bar_box_options(OptionSet<S>&& options, std::string cells_help) {
  return bar_box_options(options, std::move(cells_help));
}

struct BeamSettings : GeneratedScene {
  double length = 1.0;
  double height = 0.1;
  double width = 0.1;
  std::vector<Index> cells = {10, 2, 2};
  std::string domains = "single";
  Material material{"beam", 1000.0, 1.0e7, 0.45};
  BeamSettings() : GeneratedScene("beam") {}
};

const OptionSet<BeamSettings>& beam_options() {
  using S = BeamSettings;
  static const auto options = scene_options(material_options(
      OptionSet<S>("generate beam",
                   "beam shape: [0, length] × [−height/2, height/2] × [−width/2, width/2], fixed "
                   "at x = 0")
          .number("length", &S::length, "m", "along x", positive)
          .number("height", &S::height, "m", "along y", positive)
          .number("width", &S::width, "m", "along z", positive)
          .indices("cells", &S::cells, "cells along x, y, z; 6 tets each")
          .text("domains", &S::domains, "[scene] domains, e.g. auto:4"),
      &S::material));
  return options;
}

int generate_beam_scene(const Args& args) {
  BeamSettings s;
  if (!parse_generator_arguments(beam_generator, args, beam_options(), s)) return 0;
  int nx = 0, ny = 0, nz = 0;
  read_cells(s.cells, nx, ny, nz, "beam");
  const TetMesh mesh =
      make_box_mesh(Vec3(0, -s.height / 2, -s.width / 2), Vec3(s.length, s.height / 2, s.width / 2),
                    nx, ny, nz, s.material);
  const std::vector<Index> fixed = mesh.vertex_sets.at("xmin");
  // Tracked: the free end's corner vertex (i = nx, j = 0, k = 0).
  const std::vector<Index> tracked = {nx};
  const std::string comment = fmt::format(
      "# A cantilever beam {} m × {} m × {} m of {} × {} × {} cells (6 tets each), clamped at\n"
      "# x = 0. Made by: {}\n\n",
      s.length, s.height, s.width, nx, ny, nz, made_by("beam", args));
  write_scene(s, mesh, fixed, comment, s.domains, tracked, "free end, lower corner");
  return 0;
}

struct BarSettings : GeneratedScene, BarParameters, GeneratedDamping {
  std::vector<Index> cells{cells_x, cells_y, cells_z};
  BarSettings() : GeneratedScene("bar", "full", 300) {}
};

const OptionSet<BarSettings>& bar_options() {
  using S = BarSettings;
  static const auto options = scene_options(damping_options(material_options(
      bar_box_options(
          OptionSet<S>("generate bar",
                       "bar: [0, length] × [−height/2, height/2] × [−width/2, width/2], clamped "
                       "at x = 0"),
          "cells along x, y, z; 6 tets each")
          .integer("domains", &S::domains, "",
                   "element sets domain0… of equal length along x, domain 0 at the clamp "
                   "([scene] domains = sets)"),
      &S::material)));
  return options;
}

int generate_bar_scene(const Args& args) {
  BarSettings s;
  if (!parse_generator_arguments(bar_generator, args, bar_options(), s)) return 0;
  BarParameters& p = s;
  read_cells(s.cells, p.cells_x, p.cells_y, p.cells_z, "bar");
  std::vector<Index> fixed, tip;
  const TetMesh mesh = generate_bar(p, &fixed, &tip);
  const double h = p.height, a = p.width;
  // Linear Euler–Bernoulli tip deflection under the bar's own weight: q L⁴ / (8 E I).
  const double linear = p.material.density * 9.81 * h * a * std::pow(p.length, 4) /
                        (8 * p.material.youngs_modulus * a * h * h * h / 12);
  const std::string comment = fmt::format(
      "# The bar of Huang et al. 2006 (Fig. 1): {} m × {} m × {} m of {} × {} × {} cells (6 tets\n"
      "# each), clamped at x = 0 and released at rest under gravity across its length; {} domains\n"
      "# of equal length along it (element sets domain0… from the clamp: [scene] domains = sets).\n"
      "# E = {} Pa, ν = {}, ρ = {} kg/m³ (linear beam theory: tip deflection {:.2f} m). StVK\n"
      "# bends it round, its tip swinging down and in towards the clamp; a linear model\n"
      "# (--material.model=linear) moves the tip straight down, stretching the bar (Fig. 1).\n"
      "# Made by: {}\n\n",
      p.length, p.height, p.width, p.cells_x, p.cells_y, p.cells_z, p.domains,
      p.material.youngs_modulus, p.material.poisson_ratio, p.material.density, linear,
      made_by("bar", args));
  write_scene(s, mesh, fixed, comment, "sets", tip, "free end: the four corners", "", "",
              s.lines(": settles in about 3 s"));
  return 0;
}

struct BimaterialBarSettings : GeneratedScene, BimaterialBarParameters, GeneratedDamping {
  std::vector<Index> cells{cells_x, cells_y, cells_z};
  std::string domains = "auto:4";
  BimaterialBarSettings() : GeneratedScene("bimaterial_bar", "full", 300) {}
};

const OptionSet<BimaterialBarSettings>& bimaterial_bar_options() {
  using S = BimaterialBarSettings;
  static const auto options = scene_options(damping_options(
      material_options(
          bar_box_options(OptionSet<S>("generate bimaterial-bar",
                                       "bar: [0, length] × [−height/2, height/2] × [−width/2, "
                                       "width/2], clamped at x = 0; stiff for x < length/2, soft "
                                       "beyond"),
                          "cells along x (even), y, z; 6 tets each")
              .text("domains", &S::domains,
                    "[scene] domains, e.g. auto:6, or sets (the two halves)"),
          &S::soft, {"E of the soft half", "ν of both halves", "ρ of both halves"})
          .number("stiffness-ratio", &S::stiffness_ratio, "",
                  "E of the stiff half / E of the soft half", positive)));
  return options;
}

int generate_bimaterial_bar_scene(const Args& args) {
  BimaterialBarSettings s;
  if (!parse_generator_arguments(bimaterial_bar_generator, args, bimaterial_bar_options(), s))
    return 0;
  BimaterialBarParameters& p = s;
  read_cells(s.cells, p.cells_x, p.cells_y, p.cells_z, "bimaterial-bar");
  std::vector<Index> fixed, tip;
  const TetMesh mesh = generate_bimaterial_bar(p, &fixed, &tip);
  const std::string comment = fmt::format(
      "# The bar of Huang et al. 2006 (Fig. 9): {} m × {} m × {} m of {} × {} × {} cells (6 tets\n"
      "# each), clamped at x = 0, under gravity across its length. The clamped half (element set\n"
      "# and material \"stiff\") has E = {} Pa, the free half (\"soft\") E = {} Pa; ν = {},\n"
      "# ρ = {} kg/m³. The stiff half carries the largest bending moment and stays nearly\n"
      "# straight; the soft half hangs from it, so the deformation gathers there.\n"
      "# Made by: {}\n\n",
      p.length, p.height, p.width, p.cells_x, p.cells_y, p.cells_z,
      p.soft.youngs_modulus * p.stiffness_ratio, p.soft.youngs_modulus, p.soft.poisson_ratio,
      p.soft.density, made_by("bimaterial-bar", args));
  write_scene(s, mesh, fixed, comment, s.domains, tip, "free end: the four corners", "", "",
              s.lines(""));
  return 0;
}

struct HybridBarSettings : GeneratedScene, HybridBarParameters, GeneratedDamping {
  std::vector<Index> cells{cells_x, cells_y, cells_z};
  int modes = 100;
  std::string boundary_nodes = "2";
  HybridBarSettings() : GeneratedScene("hybrid_bar", "spectral-hybrid", 300) {}
};

const OptionSet<HybridBarSettings>& hybrid_bar_options() {
  using S = HybridBarSettings;
  static const auto options = scene_options(damping_options(
      material_options(
          bar_box_options(
              OptionSet<S>("generate hybrid-bar",
                           "hybrid bar: [0, length] × [−height/2, height/2] × [−width/2, "
                           "width/2], clamped at x = 0, cut into domains along x, some "
                           "rigid"),
              "cells along x, y, z (18 3 1: 324 tets; 30 6 5: 5,400); 6 tets each")
              .integer("domains", &S::domains, "", "element sets domain0… of equal length along x")
              .indices("rigid-domains", &S::rigid_domains, "the rigid domains (the middle of 3)"),
          &S::soft, {.youngs_modulus = "E of the deformable domains"})
          .number("rigid-stiffness-ratio", &S::rigid_stiffness_ratio, "",
                  "E of the rigid domains' material / E (what unreduced methods see)", positive)
          .integer("modes", &S::modes, "", "[spectral-hybrid] modes of each deformable region")
          .text("boundary-nodes", &S::boundary_nodes,
                "[spectral-hybrid] boundary_nodes: constrained nodes per boundary, or all")));
  return options;
}

int generate_hybrid_bar_scene(const Args& args) {
  HybridBarSettings s;
  if (!parse_generator_arguments(hybrid_bar_generator, args, hybrid_bar_options(), s)) return 0;
  HybridBarParameters& p = s;
  read_cells(s.cells, p.cells_x, p.cells_y, p.cells_z, "hybrid-bar");
  std::vector<Index> fixed, tip, free_end;
  const TetMesh mesh = generate_hybrid_bar(p, &fixed, &tip, &free_end);
  const std::string comment = fmt::format(
      "# The hybrid bar of Yang et al. 2010 (Fig. 2, Table 1): {} m × {} m × {} m of {} × {} × {}\n"
      "# cells (6 tets each: {} tets), clamped at x = 0, {} domains of equal length along x "
      "(element\n"
      "# sets domain0… from the clamp), rigid: {} (their materials E × {} for unreduced\n"
      "# methods). E = {} Pa, ν = {}, ρ = {} kg/m³; released at rest under gravity.\n"
      "# Twist the free end (Fig. 2) with\n"
      "#   --spectral-hybrid.target_vertices=\"{}\"\n"
      "#   --spectral-hybrid.target_rotation=\"3.14159 0 0\" --gravity.acceleration=\"0 0 0\"\n"
      "# Made by: {}\n\n",
      p.length, p.height, p.width, p.cells_x, p.cells_y, p.cells_z, mesh.num_elements(), p.domains,
      join(p.rigid_domains), p.rigid_stiffness_ratio, p.soft.youngs_modulus, p.soft.poisson_ratio,
      p.soft.density, join(free_end), made_by("hybrid-bar", args));
  const std::string section =
      fmt::format("[spectral-hybrid]\nrigid_domains = {}\nmodes = {}\nboundary_nodes = {}\n\n",
                  join(p.rigid_domains), s.modes, s.boundary_nodes);
  write_scene(s, mesh, fixed, comment, "sets", tip, "free end: the four corners", "", section,
              s.lines(""));
  return 0;
}

}  // namespace

const Generator beam_generator{"beam", "--out DIR [--length L] [--cells NX NY NZ] [options]",
                               "A cantilever beam of box cells, clamped at x = 0.",
                               []() -> const OptionTable& { return beam_options().table(); },
                               &generate_beam_scene};
const Generator bar_generator{
    "bar", "--out DIR [--domains N] [--cells NX NY NZ] [options]",
    "The bar of Huang et al. 2006 (Fig. 1): a long box beam clamped at x = 0, bent by gravity "
    "across its length, cut into N equal domains along it (element sets).",
    []() -> const OptionTable& { return bar_options().table(); }, &generate_bar_scene};
const Generator bimaterial_bar_generator{
    "bimaterial-bar", "--out DIR [--stiffness-ratio R] [options]",
    "The bar of Huang et al. 2006 (Fig. 9): a box beam, its clamped half stiff and its free half "
    "soft (materials and element sets \"stiff\" and \"soft\"), under gravity.",
    []() -> const OptionTable& { return bimaterial_bar_options().table(); },
    &generate_bimaterial_bar_scene};
const Generator hybrid_bar_generator{
    "hybrid-bar", "--out DIR [--cells NX NY NZ] [--rigid-domains D…] [options]",
    "The hybrid bar of Yang et al. 2010 (Fig. 2, Table 1): a box beam clamped at x = 0, cut into "
    "domains along it, some rigid ([spectral-hybrid] rigid_domains).",
    []() -> const OptionTable& { return hybrid_bar_options().table(); },
    &generate_hybrid_bar_scene};

}  // namespace substruct::cli
