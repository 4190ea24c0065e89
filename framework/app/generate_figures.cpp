// SPDX-License-Identifier: GPL-3.0-or-later
// substruct generate torus-knot | limb | figure: the torus knot of Huang et al. 2006 (a cycle of
// domains), the hybrid limb of Yang et al. 2010 (rigid bones in soft flesh) and the boxy figures
// of Wu et al. 2015 and Barbič–Zhao 2011.
#include <fmt/format.h>

#include "generators.hpp"
#include "substruct/scene/figure_generator.hpp"
#include "substruct/scene/limb_generator.hpp"
#include "substruct/scene/torus_knot_generator.hpp"

namespace substruct::cli {

namespace {

struct TorusKnotSettings : GeneratedScene, TorusKnotParameters, GeneratedDamping {
  TorusKnotSettings() : GeneratedScene("torus_knot") {}
};

const OptionSet<TorusKnotSettings>& torus_knot_options() {
  using S = TorusKnotSettings;
  static const auto options = scene_options(damping_options(material_options(
      OptionSet<S>("generate torus-knot",
                   "torus knot: a tube along a (p, q) torus knot in the x-y plane")
          .integer("p", &S::p, "", "turns round the knot's axis (z), coprime to q")
          .integer("q", &S::q, "", "turns round the core circle")
          .number("knot-radius", &S::knot_radius, "m", "radius of the core circle", positive)
          .number("knot-minor-radius", &S::knot_minor_radius, "m",
                  "distance of the centre line from the core circle", positive)
          .number("tube-radius", &S::tube_radius, "m", "radius of the tube", positive)
          .integer("segments", &S::segments, "",
                   "cross-sections along the knot (3 tets · sides each)")
          .integer("sides", &S::sides, "", "vertices round a cross-section")
          .integer("domains", &S::domains, "",
                   "element sets domain0… of equal arc length round the loop ([scene] domains = "
                   "sets)"),
      &S::material)));
  return options;
}

int generate_torus_knot_scene(const Args& args) {
  TorusKnotSettings s;
  if (!parse_generator_arguments(torus_knot_generator, args, torus_knot_options(), s)) return 0;
  const TorusKnotParameters& p = s;
  std::vector<Index> fixed;
  TorusKnotSummary summary;
  const TetMesh mesh = generate_torus_knot(p, &fixed, &summary);
  // Tracked: the lowest vertex (ties: the lowest id) and the centre of the cross-section halfway
  // round the loop from the clamped one.
  Index lowest = 0;
  for (Index v = 1; v < mesh.num_vertices(); ++v)
    if (mesh.vertices(v, 1) < mesh.vertices(lowest, 1)) lowest = v;
  const std::vector<Index> tracked = {lowest,
                                      static_cast<Index>(summary.opposite_section) * (p.sides + 1)};
  const std::string comment = fmt::format(
      "# A ({}, {}) torus knot (Huang et al. 2006, Table 2): a tube of radius {} m along the knot\n"
      "# (radii {} m and {} m; centre line {:.3f} m long) in {} segments of {} sides, {} domains\n"
      "# of equal arc length (element sets domain0… round the loop: [scene] domains = sets). The\n"
      "# loop closes, so the domain graph is a cycle: methods that need a tree take\n"
      "# --scene.resolve_loops=spanning-tree. It hangs under gravity from cross-section {} (its\n"
      "# {} vertices, at the top, in the middle of domain 0). E = {} Pa, ν = {}, ρ = {} kg/m³.\n"
      "# Made by: {}\n\n",
      p.p, p.q, p.tube_radius, p.knot_radius, p.knot_minor_radius, summary.length, p.segments,
      p.sides, p.domains, summary.fixed_section, fixed.size(), p.material.youngs_modulus,
      p.material.poisson_ratio, p.material.density, made_by("torus-knot", args));
  write_scene(s, mesh, fixed, comment, "sets", tracked,
              "the lowest vertex, the centre of the section opposite the clamp", "", "",
              s.lines(""));
  return 0;
}

struct LimbSettings : GeneratedScene, LimbParameters, GeneratedDamping {
  int modes = 100;
  LimbSettings() : GeneratedScene("limb", "spectral-hybrid", 300) {}
};

const OptionSet<LimbSettings>& limb_options() {
  using S = LimbSettings;
  static const auto options = scene_options(damping_options(
      material_options(
          OptionSet<S>(
              "generate limb",
              "limb: [0, length] × [−thickness/2, thickness/2]², clamped at the hip x = 0, "
              "two rigid bones inside soft flesh")
              .number("length", &S::length, "m", "along x", positive)
              .number("thickness", &S::thickness, "m", "across, along y and z", positive)
              .integer("cells-x", &S::cells_x, "", "cell layers along x")
              .integer("cells", &S::cells, "", "cells across (y and z)")
              .integer("bone-cells", &S::bone_cells, "", "cells across each bone (centred)")
              .integer("thigh-begin", &S::thigh_begin, "", "first cell layer of the thigh bone")
              .integer("thigh-end", &S::thigh_end, "", "cell layer after the thigh bone")
              .integer("shin-begin", &S::shin_begin, "", "first cell layer of the shin bone")
              .integer("shin-end", &S::shin_end, "", "cell layer after the shin bone"),
          &S::flesh, {.youngs_modulus = "E of the flesh"})
          .number("bone-stiffness-ratio", &S::bone_stiffness_ratio, "",
                  "E of the bones' material / E of the flesh (what unreduced methods see)",
                  positive)
          .integer("modes", &S::modes, "", "[spectral-hybrid] modes of the flesh")));
  return options;
}

int generate_limb_scene(const Args& args) {
  LimbSettings s;
  if (!parse_generator_arguments(limb_generator, args, limb_options(), s)) return 0;
  const LimbParameters& p = s;
  std::vector<Index> fixed, foot;
  const TetMesh mesh = generate_limb(p, &fixed, &foot);
  const std::string comment = fmt::format(
      "# A limb with two rigid bones inside soft flesh (Yang et al. 2010, Fig. 1, 6: the hybrid\n"
      "# Armadillo leg): {} m long, {} m × {} m across, {} × {} × {} cells ({} tets), clamped at\n"
      "# the hip x = 0. Domains = element sets: 0 bone0 (thigh, cell layers [{}, {})), 1 bone1\n"
      "# (shin, [{}, {})), 2 flesh; the bones are rigid regions inside the deformable flesh,\n"
      "# joined through it at the hip, the knee and the foot. Flesh E = {} Pa, ν = {}, ρ = {}\n"
      "# kg/m³; the bones' materials bone0, bone1: E × {} for unreduced methods. It sags under\n"
      "# gravity.\n"
      "# Made by: {}\n\n",
      p.length, p.thickness, p.thickness, p.cells_x, p.cells, p.cells, mesh.num_elements(),
      p.thigh_begin, p.thigh_end, p.shin_begin, p.shin_end, p.flesh.youngs_modulus,
      p.flesh.poisson_ratio, p.flesh.density, p.bone_stiffness_ratio, made_by("limb", args));
  const std::string section = fmt::format(
      "[spectral-hybrid]\nrigid_domains = 0 1\nmodes = {}\nboundary_nodes = 2\n\n", s.modes);
  write_scene(s, mesh, fixed, comment, "sets", foot, "the foot's four corners", "", section,
              s.lines(""));
  return 0;
}

struct FigureSettings : GeneratedScene, FigureParameters {
  FigureSettings() : GeneratedScene("", "coupling-elements") {  // name: the shape's
    material.youngs_modulus = 0;                                // the shape's
  }
};

const OptionSet<FigureSettings>& figure_options() {
  using S = FigureSettings;
  static const auto options = scene_options(
      OptionSet<S>("generate figure",
                   "figure: boxes of lattice cells, one domain each (the scenes of Wu et al. "
                   "2015, smaller)")
          .choice("shape", &S::shape,
                  {FigureShape::hammock, FigureShape::caterpillar, FigureShape::armadillo,
                   FigureShape::chain},
                  "hammock (5 strips hung at the corners), caterpillar (8 segments, tail fixed), "
                  "armadillo (11 parts, held at the back) or chain (8 blocks and 7 links, "
                  "free-flying: the SIGGRAPH letters of Barbic-Zhao 2011)")
          .integer("resolution", &S::resolution, "", "cells per unit along each axis (1 … 8)")
          .number("unit", &S::unit, "m", "one unit of the outline", positive)
          .number("youngs-modulus", member(&S::material, &Material::youngs_modulus), "Pa",
                  "E; 0: the shape's (hammock 2e8, caterpillar 1e8, armadillo and chain 2e6)",
                  non_negative)
          .number("poisson-ratio", member(&S::material, &Material::poisson_ratio), "", "ν",
                  in_open_range(-1, 0.5))
          .number("density", member(&S::material, &Material::density), "kg/m³", "ρ", positive));
  return options;
}

int generate_figure_scene(const Args& args) {
  FigureSettings s;
  if (!parse_generator_arguments(figure_generator, args, figure_options(), s)) return 0;
  FigureParameters& p = s;
  if (p.material.youngs_modulus == 0) p.material.youngs_modulus = figure_youngs_modulus(p.shape);
  if (s.name.empty()) s.name = to_string(p.shape);
  std::vector<Index> fixed, tracked;
  const TetMesh mesh = generate_figure(p, &fixed, &tracked);
  const char* what =
      p.shape == FigureShape::hammock
          ? "The hammock of Wu, Mukherjee, Wang 2015 (Tables 3-4), generated: a sheet 40 × 16 × 1\n"
            "# units in 5 strips along x, hung at its four corners (the paper's: 14K nodes, 42K "
            "tets)"
      : p.shape == FigureShape::caterpillar
          ? "The caterpillar of Wu, Mukherjee, Wang 2015 (Tables 3-4), generated: 8 segments of\n"
            "# 5 × 4 × 4 units along x, the tail face fixed (the paper's: 31K nodes, 98K tets)"
      : p.shape == FigureShape::armadillo
          ? "The armadillo of Wu, Mukherjee, Wang 2015 (Tables 3-4), generated: a torso, a head,\n"
            "# two arms and two legs of two segments and a tail, held at its upper back (the\n"
            "# paper's: 62K nodes, 241K tets)"
          : "The SIGGRAPH letters of Barbič-Zhao 2011 (Table 1), generated: 8 blocks joined by 7\n"
            "# links (element sets letter0…, link0…), free-flying; rigid links with [inertia]\n"
            "# rigid_domains = 8 9 10 11 12 13 14 (the paper's: 18,945 vertices, 15 domains)";
  const std::string comment = fmt::format(
      "# {}.\n"
      "# Here: unit {} m, {} cells per unit: {} vertices, {} tets, {} domains (element sets).\n"
      "# E = {} Pa, ν = {}, ρ = {} kg/m³; released at rest under gravity.\n"
      "# Made by: {}\n\n",
      what, p.unit, p.resolution, mesh.num_vertices(), mesh.num_elements(),
      mesh.element_sets.size(), p.material.youngs_modulus, p.material.poisson_ratio,
      p.material.density, made_by("figure", args));
  write_scene(s, mesh, fixed, comment, "sets", tracked, "a free corner or tip first");
  return 0;
}

}  // namespace

const Generator torus_knot_generator{
    "torus-knot", "--out DIR [--p P --q Q] [--domains N] [options]",
    "The torus knot of Huang et al. 2006: a round tube swept along a (p, q) torus knot, hanging "
    "under gravity from one cross-section; its N domains form a cycle.",
    []() -> const OptionTable& { return torus_knot_options().table(); },
    &generate_torus_knot_scene};
const Generator limb_generator{
    "limb", "--out DIR [options]",
    "A limb with rigid bones inside a soft body (the hybrid Armadillo leg of Yang et al. 2010, "
    "Fig. 1, 6): element sets bone0, bone1 (rigid) and flesh.",
    []() -> const OptionTable& { return limb_options().table(); }, &generate_limb_scene};
const Generator figure_generator{
    "figure", "--shape hammock|caterpillar|armadillo|chain --out DIR [options]",
    "Generated analogues of the scenes of Wu, Mukherjee, Wang 2015 (Tables 3-4) and of the "
    "free-flying letters of Barbic-Zhao 2011 (Table 1).",
    []() -> const OptionTable& { return figure_options().table(); }, &generate_figure_scene};

}  // namespace substruct::cli
