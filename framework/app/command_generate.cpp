// SPDX-License-Identifier: GPL-3.0-or-later
// substruct generate flower|tree|beam|bar|bimaterial-bar|torus-knot|hybrid-bar|limb|figure --out
// DIR …: writes a mesh
// (.veg), its fixed vertices (.bou) and a scene (.ini) that runs it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "commands.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/trim.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/reduction/mode_count.hpp"
#include "substruct/scene/bar_generator.hpp"
#include "substruct/scene/bimaterial_bar_generator.hpp"
#include "substruct/scene/figure_generator.hpp"
#include "substruct/scene/flower_generator.hpp"
#include "substruct/scene/forest_generator.hpp"
#include "substruct/scene/hybrid_bar_generator.hpp"
#include "substruct/scene/limb_generator.hpp"
#include "substruct/scene/torus_knot_generator.hpp"
#include "substruct/scene/tree_generator.hpp"

namespace substruct::cli {

namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;

/// What every generated scene shares: where to write and how to run it.
struct SceneOptions {
  std::string out;
  std::string mesh_dir;
  std::string name;
  std::string coupling;
  std::string gravity;
  double dt = 0.01;
  long steps = 200;
};

po::options_description scene_options(SceneOptions& s, const std::string& default_name,
                                      const std::string& default_coupling = "full",
                                      long default_steps = 200) {
  po::options_description d("output and run");
  d.add_options()("help,h", "print this help")("out", po::value<std::string>(&s.out)->required(),
                                               "folder of the scene file (.ini)")(
      "mesh-dir", po::value<std::string>(&s.mesh_dir),
      "folder of the mesh (.veg) and fixed vertices (.bou); default: --out")(
      "name", po::value<std::string>(&s.name)->default_value(default_name),
      "file stem: NAME.veg, NAME.bou, NAME.ini; output out/NAME.pvd")(
      "coupling", po::value<std::string>(&s.coupling)->default_value(default_coupling),
      "[coupling] plugin of the scene")(
      "gravity", po::value<std::string>(&s.gravity)->default_value("0 -9.81 0"),
      "[gravity] acceleration [m/s²] (empty: no gravity)")(
      "dt", po::value<double>(&s.dt)->default_value(0.01, "0.01"), "[run] dt [s]")(
      "steps", po::value<long>(&s.steps)->default_value(default_steps), "[run] steps");
  return d;
}

/// Parses `args`; returns false (after printing the help) when --help was given.
bool parse(const Args& args, const po::options_description& options, const std::string& usage) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n" << options << "\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    std::vector<std::string> known;
    for (const auto& option : options.options()) known.push_back("--" + option->long_name());
    throw unknown_option("generate", e.get_option_name(), known);
  } catch (const po::error& e) {
    throw Error(fmt::format("generate: {} (see substruct generate --help)", e.what()));
  }
  return true;
}

/// Vega .bou: 1-based vertex indices, comma separated, 10 a line.
void write_bou(const fs::path& file, const std::vector<Index>& fixed) {
  std::string text;
  for (std::size_t i = 0; i < fixed.size(); ++i)
    text += fmt::format("{},{}", fixed[i] + 1, (i % 10 == 9 || i + 1 == fixed.size()) ? "\n" : "");
  write_file_atomically(file, text);
}

std::string join(const std::vector<Index>& values) {
  std::string s;
  for (Index v : values) s += fmt::format("{}{}", s.empty() ? "" : " ", v);
  return s;
}

/// Writes NAME.veg, NAME.bou and NAME.ini and prints what it wrote.
void write_scene(const SceneOptions& s, const TetMesh& mesh, const std::vector<Index>& fixed,
                 const std::string& comment, const std::string& domains,
                 const std::vector<Index>& tracked, const std::string& tracked_comment,
                 const std::string& pull_section = "", const std::string& reduction_section = "",
                 const std::string& material_lines = "") {
  if (s.name.empty() || s.name.find('/') != std::string::npos)
    throw Error(fmt::format("generate: --name must be a file stem, found '{}'", s.name));
  if (!(s.dt > 0)) throw Error(fmt::format("generate: --dt must be > 0, found {}", s.dt));
  if (s.steps < 0) throw Error(fmt::format("generate: --steps must be ≥ 0, found {}", s.steps));
  const fs::path out = s.out;
  const fs::path mesh_dir = s.mesh_dir.empty() ? out : fs::path(s.mesh_dir);
  fs::create_directories(out);
  fs::create_directories(mesh_dir);
  const fs::path veg = mesh_dir / (s.name + ".veg");
  const fs::path bou = mesh_dir / (s.name + ".bou");
  const fs::path ini = out / (s.name + ".ini");

  write_veg(veg, mesh);
  std::printf("wrote %s: %d vertices, %d tets, %zu element sets\n", veg.string().c_str(),
              mesh.num_vertices(), mesh.num_elements(), mesh.element_sets.size());
  write_bou(bou, fixed);
  std::printf("wrote %s: %zu fixed vertices\n", bou.string().c_str(), fixed.size());

  const auto relative = [&](const fs::path& p) {
    return fs::absolute(p)
        .lexically_normal()
        .lexically_relative(fs::absolute(out).lexically_normal())
        .generic_string();
  };
  std::string text = comment;
  text += fmt::format(
      "[scene]\n"
      "mesh = {}\n"
      "fixed = {}\n"
      "domains = {}\n"
      "root = auto\n"
      "tracked_vertices = {}  # {}\n\n"
      "[material]\n"
      "model = stvk\n"
      "{}\n"
      "[coupling]\n"
      "plugin = {}\n\n"
      "{}"
      "[run]\n"
      "dt = {}\n"
      "steps = {}\n"
      "output = out/{}.pvd\n",
      relative(veg), relative(bou), domains, join(tracked), tracked_comment, material_lines,
      s.coupling, reduction_section, s.dt, s.steps, s.name);
  std::string loads;
  if (!s.gravity.empty()) loads += "gravity";
  if (!pull_section.empty()) loads += loads.empty() ? "pull" : " pull";
  text += fmt::format("loads = {}\nexporters = vtk csv\n", loads);
  if (!s.gravity.empty()) text += fmt::format("\n[gravity]\nacceleration = {}\n", s.gravity);
  text += pull_section;
  write_file_atomically(ini, text);
  std::printf("wrote %s: run it with  substruct run %s\n", ini.string().c_str(),
              ini.string().c_str());
}

/// The vertex of element set `set` farthest from the stem axis (x = z = 0); ties: lowest id.
Index tip_of(const TetMesh& mesh, const std::string& set) {
  std::set<Index> vertices;
  for (Index e : mesh.element_sets.at(set))
    for (int k = 0; k < 4; ++k) vertices.insert(mesh.tets(e, k));
  Index best = *vertices.begin();
  double best_distance = -1;
  for (Index v : vertices) {
    const double d = std::hypot(mesh.vertices(v, 0), mesh.vertices(v, 2));
    if (d > best_distance) {
      best_distance = d;
      best = v;
    }
  }
  return best;
}

/// Adds a shape parameter with its current value as the default: option(name, &value, help).
struct ShapeOption {
  po::options_description& options;
  void operator()(const char* name, int* value, const char* help) const {
    options.add_options()(name, po::value<int>(value)->default_value(*value), help);
  }
  void operator()(const char* name, double* value, const char* help) const {
    options.add_options()(
        name, po::value<double>(value)->default_value(*value, fmt::format("{}", *value)), help);
  }
};

/// The material of a generated mesh: --youngs-modulus, --poisson-ratio, --density.
void material_options(const ShapeOption& option, Material& material) {
  option("youngs-modulus", &material.youngs_modulus, "E [Pa]");
  option("poisson-ratio", &material.poisson_ratio, "ν");
  option("density", &material.density, "ρ [kg/m³]");
}

int generate_flower_scene(const Args& args) {
  SceneOptions s;
  FlowerParameters p;
  std::string pull;
  double pull_time = 0.3;
  po::options_description flower("flower shape (sizes in lattice cells)");
  const ShapeOption int_option{flower}, double_option{flower};
  int_option("segments", &p.segments, "stem segments, one domain each");
  int_option("leaves", &p.leaves, "leaves, at most 4 per segment");
  int_option("petals", &p.petals, "petals around the bloom, 0…4");
  double_option("cell-size", &p.cell_size, "lattice cell edge [m]");
  int_option("stem-half-width", &p.stem_half_width, "half the stem's thickness");
  int_option("segment-height", &p.segment_height,
             "height of a stem segment, ≥ 3 (≥ 5 with more than 2 leaves on a segment)");
  int_option("leaf-length", &p.leaf_length, "length of a leaf");
  int_option("leaf-half-width", &p.leaf_half_width, "half the width of a leaf at its widest");
  int_option("bloom-half-width", &p.bloom_half_width, "half the width of the bloom");
  int_option("bloom-height", &p.bloom_height, "height of the bloom");
  int_option("petal-length", &p.petal_length, "length of a petal");
  int_option("petal-half-width", &p.petal_half_width, "half the width of a petal at its widest");
  double_option("curl", &p.curl, "upward curl of leaves and petals [1/m]");
  material_options(double_option, p.material);
  flower.add_options()("pull", po::value<std::string>(&pull)->default_value(""),
                       "[pull] force on the top of the bloom [N], e.g. \"2 0 0\" (default: no "
                       "pull)");
  double_option("pull-time", &pull_time, "[pull] end: how long the pull lasts [s]");
  po::options_description all;
  all.add(flower).add(scene_options(s, "flower"));
  if (!parse(args, all,
             "usage: substruct generate flower --out DIR [options]\n"
             "  A flower (stem segments, leaves, a bloom, petals) with one domain per part, for\n"
             "  multi-domain methods: [scene] domains = sets."))
    return 0;
  if (!(p.material.youngs_modulus > 0) || !(p.material.density > 0) ||
      !(p.material.poisson_ratio > -1 && p.material.poisson_ratio < 0.5))
    throw Error("generate flower: expected E > 0, ρ > 0 and −1 < ν < 0.5");

  std::vector<Index> fixed;
  const TetMesh mesh = generate_flower(p, &fixed);
  // Tracked: the top centre of the bloom, the tip of the first petal and of the first leaf.
  std::vector<Index> tracked;
  std::string tracked_comment;
  {
    Index top = -1;
    for (Index v = 0; v < mesh.num_vertices(); ++v)
      if (mesh.vertices(v, 0) == 0 && mesh.vertices(v, 2) == 0 &&
          (top < 0 || mesh.vertices(v, 1) > mesh.vertices(top, 1)))
        top = v;
    tracked.push_back(top);
    tracked_comment = "top of the bloom";
    if (p.petals > 0) {
      tracked.push_back(tip_of(mesh, "petal0"));
      tracked_comment += ", tip of petal0";
    }
    if (p.leaves > 0) {
      tracked.push_back(tip_of(mesh, "leaf0"));
      tracked_comment += ", tip of leaf0";
    }
  }
  std::string made_by = "substruct generate flower";
  for (const std::string& a : args) made_by += " " + a;
  const std::string comment = fmt::format(
      "# A flower: {} stem segments, {} leaves, a bloom and {} petals, one domain each (element\n"
      "# sets stem0…, leaf0…, bloom, petal0…); the base of the stem is fixed.\n"
      "# Made by: {}\n"
      "# {}\n"
      "# Other methods on the same scene: substruct run {}.ini --coupling.plugin=inertia\n\n",
      p.segments, p.leaves, p.petals, made_by,
      pull.empty() ? fmt::format("To swing it, pull the top of the bloom (vertex {}) sideways: "
                                 "--pull \"2 0 0\".",
                                 tracked[0])
                   : fmt::format("The top of the bloom is pulled by {} N for {} s, then released.",
                                 pull, pull_time),
      s.name);
  std::string pull_section;
  if (!pull.empty())
    pull_section =
        fmt::format("\n[pull]\nvertices = {}  # top of the bloom\nforce = {}\nend = {}\n",
                    tracked[0], pull, pull_time);
  write_scene(s, mesh, fixed, comment, "sets", tracked, tracked_comment, pull_section);
  return 0;
}

/// The first element set whose name starts with `prefix` (sets are in name order).
std::string first_set(const TetMesh& mesh, const std::string& prefix) {
  for (const auto& [name, elements] : mesh.element_sets)
    if (name.starts_with(prefix)) return name;
  return {};
}

/// An [inertia] section making every domain whose element set's name contains `leaf` rigid. With
/// [scene] domains = sets, domain d is the d-th set by name, so the leaves are a few ranges (one
/// per plant).
std::string rigid_leaves_section(const TetMesh& mesh, const std::string& leaf) {
  std::string ranges;
  int first = -1, d = 0, leaves = 0;
  const auto close = [&](int last) {
    if (first >= 0) ranges += fmt::format("{}{}-{}", ranges.empty() ? "" : " ", first, last);
    first = -1;
  };
  for (const auto& [name, elements] : mesh.element_sets) {
    if (name == "allElements") continue;
    if (name.find(leaf) != std::string::npos) {
      if (first < 0) first = d;
      ++leaves;
    } else {
      close(d - 1);
    }
    ++d;
  }
  close(d - 1);
  return fmt::format("[inertia]\nrigid_domains = {}  # the {} leaves\n\n", ranges, leaves);
}

int generate_tree_scene(const Args& args) {
  SceneOptions s;
  TreeParameters p;
  constexpr int kMaxModes = 20;
  po::options_description tree("tree shape (sizes in lattice cells)");
  const ShapeOption int_option{tree}, double_option{tree};
  int_option("branches", &p.branches, "branches of all levels together");
  int_option("levels", &p.levels, "branch levels (1: every branch on the trunk)");
  int_option("sub-branches", &p.sub_branches, "most sub-branches on a branch above the last level");
  int_option("leaves-per-branch", &p.leaves_per_branch, "leaves on every branch");
  double_option("cell-size", &p.cell_size, "lattice cell edge [m]");
  int_option("trunk-half-width", &p.trunk_half_width, "half the trunk's thickness, even ≥ 2");
  int_option("trunk-base", &p.trunk_base, "trunk below the first branches, even ≥ 2");
  int_option("leaf-length", &p.leaf_length, "leaf length, away from the branch");
  int_option("leaf-width", &p.leaf_width, "leaf width, along the branch, even ≥ 2");
  material_options(double_option, p.material);
  bool rigid_leaves = false;
  tree.add_options()("rigid-leaves", po::bool_switch(&rigid_leaves),
                     "simulate the leaves as rigid bodies ([inertia] rigid_domains), as the "
                     "thesis's large plants do");
  po::options_description all;
  all.add(tree).add(scene_options(s, "tree", "inertia"));
  if (!parse(
          args, all,
          "usage: substruct generate tree --out DIR [--branches N] [--levels L]\n"
          "                               [--sub-branches S] [--leaves-per-branch K] [options]\n"
          "  A tree (trunk, branches in whorls, sub-branches, leaves) with one domain per part,\n"
          "  every leaf a copy of one leaf and branches copies of a few: [scene] domains = sets,\n"
          "  [reduction] instancing = true. e.g. --branches 40 --leaves-per-branch 35: oak scale."))
    return 0;

  std::vector<Index> fixed;
  TreeSummary summary;
  const TetMesh mesh = generate_tree(p, &fixed, &summary);
  const std::string branch0 = first_set(mesh, "branch");
  const std::string leaf0 = first_set(mesh, "leaf");

  // Adaptive basis sizes, r = max(5, ⌊r_max log e / log e_max⌋), as [reduction] will make them.
  Index largest = 0;
  for (const auto& [name, elements] : mesh.element_sets)
    largest = std::max(largest, static_cast<Index>(elements.size()));
  const auto modes = [&](const std::string& set) {
    return mode_count(static_cast<Index>(mesh.element_sets.at(set).size()), largest, kMaxModes);
  };
  long reduced = 0;
  int branch_lo = kMaxModes, branch_hi = 0;
  for (const auto& [name, elements] : mesh.element_sets) {
    const int r = mode_count(static_cast<Index>(elements.size()), largest, kMaxModes);
    reduced += r;
    if (name.starts_with("branch")) {
      branch_lo = std::min(branch_lo, r);
      branch_hi = std::max(branch_hi, r);
    }
  }
  std::string levels;
  for (int n : summary.branches_per_level)
    levels += (levels.empty() ? "" : " + ") + std::to_string(n);
  const int branches = p.branches;
  const std::string modes_text =
      fmt::format("trunk {}, branches {}, leaves {}", modes("trunk"),
                  branch_lo == branch_hi ? std::to_string(branch_lo)
                                         : fmt::format("{}–{}", branch_lo, branch_hi),
                  leaf0.empty() ? std::string("-") : std::to_string(modes(leaf0)));

  // Tracked: the top centre of the trunk, the tip of the first branch and of the first leaf.
  std::vector<Index> tracked;
  std::string tracked_comment = "top of the trunk";
  {
    Index top = -1;
    for (Index v = 0; v < mesh.num_vertices(); ++v)
      if (mesh.vertices(v, 0) == 0 && mesh.vertices(v, 2) == 0 &&
          (top < 0 || mesh.vertices(v, 1) > mesh.vertices(top, 1)))
        top = v;
    tracked.push_back(top);
    tracked.push_back(tip_of(mesh, branch0));
    tracked_comment += ", tip of " + branch0;
    if (!leaf0.empty()) {
      tracked.push_back(tip_of(mesh, leaf0));
      tracked_comment += ", tip of " + leaf0;
    }
  }
  std::string made_by = "substruct generate tree";
  for (const std::string& a : args) made_by += " " + a;
  const std::string comment = fmt::format(
      "# A tree: a trunk, {} branches ({} by level) and {} leaves, one domain each ({} domains,\n"
      "# element sets trunk, branch…, leaf…; depth {}); the base of the trunk is fixed. Every "
      "leaf\n"
      "# is a copy of one leaf and the branches copies of {} shapes, so instancing reduces {}\n"
      "# models for {} domains.\n"
      "# Made by: {}\n\n",
      branches, levels, summary.leaves, summary.domains, summary.depth, summary.branch_shapes,
      summary.branch_shapes + 1 + (summary.leaves > 0 ? 1 : 0), summary.domains, made_by);
  std::string reduction = fmt::format(
      "[reduction]\n"
      "mode_count = adaptive  # r = max(5, ⌊r_max log e / log e_max⌋): {}\n"
      "r_max = {}\n"
      "instancing = true\n\n",
      modes_text, kMaxModes);
  if (rigid_leaves && summary.leaves > 0) {
    reduction += rigid_leaves_section(mesh, "leaf");
    reduced -= static_cast<long>(summary.leaves) * (leaf0.empty() ? 0 : modes(leaf0));
  }
  write_scene(s, mesh, fixed, comment, "sets", tracked, tracked_comment, "", reduction);
  std::printf(
      "tree: %d domains (1 trunk, %d branches = %s by level, %d leaves), depth %d, %d branch "
      "shapes\n",
      summary.domains, branches, levels.c_str(), summary.leaves, summary.depth,
      summary.branch_shapes);
  std::printf("size: %d vertices, %d tets, %d DOFs; reduced ≈ %ld DOFs (r: %s)\n",
              mesh.num_vertices(), mesh.num_elements(), 3 * mesh.num_vertices(), reduced,
              modes_text.c_str());
  return 0;
}

/// --species: a count of forest_species() (1 to 3) or a comma-separated list of names.
std::vector<TreeParameters> species_list(const std::string& text) {
  if (text == "1" || text == "2" || text == "3") {
    std::vector<TreeParameters> species = forest_species();
    species.resize(static_cast<std::size_t>(text[0] - '0'));
    return species;
  }
  std::vector<TreeParameters> species;
  for (const std::string& name : split_trimmed(text, ',')) species.push_back(forest_species(name));
  return species;
}

int generate_forest_scene(const Args& args) {
  SceneOptions s;
  ForestParameters p;
  std::string species = "3";
  double cell_size = 0.01;
  bool rigid_leaves = false;
  po::options_description forest("forest");
  const ShapeOption int_option{forest}, double_option{forest};
  int_option("plants", &p.plants, "plants, on a square-ish grid");
  forest.add_options()("species", po::value<std::string>(&species)->default_value(species),
                       "species in turn: a count (1 broadleaf, 2 + conifer, 3 + bush) or names, "
                       "e.g. fir or broadleaf,fir (broadleaf, conifer, bush, fir: a fir of "
                       "Zhao 2014 Table 5.1's size, 8,806 domains)");
  double_option("variation", &p.variation, "share of the plants with a shape of their own");
  forest.add_options()("seed", po::value<unsigned>(&p.seed)->default_value(p.seed),
                       "which plants vary, and how");
  int_option("ground-thickness", &p.ground_thickness, "the ground slab [cells], even ≥ 2");
  int_option("gap", &p.gap, "between neighbouring crowns [cells]");
  double_option("cell-size", &cell_size, "lattice cell edge [m]");
  forest.add_options()("rigid-leaves", po::bool_switch(&rigid_leaves),
                       "simulate the leaves as rigid bodies ([inertia] rigid_domains), as the "
                       "thesis's large plants do");
  po::options_description all;
  all.add(forest).add(scene_options(s, "forest", "inertia"));
  if (!parse(args, all,
             "usage: substruct generate forest --out DIR [--plants N] [--species K|NAMES] "
             "[--variation F] [options]\n"
             "  Plants of K species (a broadleaf, a conifer, a bush, a fir: substruct generate\n"
             "  tree's trees) on one ground domain, every vertex of it fixed (the root of the "
             "domain tree,\n"
             "  as the thesis's virtual rigid root): plants of a species are copies, a share F\n"
             "  of them varied (a few branches more or fewer, longer leaves)."))
    return 0;
  p.species = species_list(species);
  p.species.front().cell_size = cell_size;

  std::vector<Index> fixed;
  ForestSummary summary;
  const TetMesh mesh = generate_forest(p, &fixed, &summary);
  // Tracked: the tips of the first plant's first branch and first leaf.
  std::vector<Index> tracked;
  std::string tracked_comment;
  const std::string first = fmt::format("p{:0{}}_", 0, std::to_string(p.plants - 1).size());
  for (const char* part : {"branch", "leaf"}) {
    const std::string set = first_set(mesh, first + part);
    if (set.empty()) continue;
    tracked.push_back(tip_of(mesh, set));
    tracked_comment += (tracked_comment.empty() ? "tip of " : ", tip of ") + set;
  }
  std::string per_species;
  for (int n : summary.plants_per_species)
    per_species += (per_species.empty() ? "" : " + ") + std::to_string(n);
  std::string made_by = "substruct generate forest";
  for (const std::string& a : args) made_by += " " + a;
  const std::string comment = fmt::format(
      "# A forest: {} plants ({} by species, {} varied: {} distinct shapes) on one ground\n"
      "# domain, the root of the domain tree ({} domains: element set ground, then pNN_trunk,\n"
      "# pNN_branch…, pNN_leaf… per plant); every vertex of the ground is fixed (the thesis's\n"
      "# fixed virtual root: it has no modes to compute and no method moves it).\n"
      "# Made by: {}\n\n",
      p.plants, per_species, summary.varied, summary.distinct_plants, summary.domains, made_by);
  std::string reduction =
      "[reduction]\n"
      "mode_count = adaptive\n"
      "r_max = 20\n"
      "instancing = true\n\n";
  if (rigid_leaves) reduction += rigid_leaves_section(mesh, "_leaf");
  write_scene(s, mesh, fixed, comment, "sets", tracked, tracked_comment, "", reduction);
  std::printf("forest: %d plants (%s by species, %d varied, %d distinct shapes), %d domains\n",
              p.plants, per_species.c_str(), summary.varied, summary.distinct_plants,
              summary.domains);
  std::printf("size: %d vertices, %d tets, %d DOFs\n", mesh.num_vertices(), mesh.num_elements(),
              3 * mesh.num_vertices());
  return 0;
}

int generate_beam_scene(const Args& args) {
  SceneOptions s;
  double length = 1.0;
  double height = 0.1;
  double width = 0.1;
  std::vector<int> cells;
  std::string domains;
  Material material{"beam", 1000.0, 1.0e7, 0.45};
  po::options_description beam(
      "beam shape: [0, length] × [−height/2, height/2] × [−width/2, "
      "width/2], fixed at x = 0");
  beam.add_options()("length", po::value<double>(&length)->default_value(length), "along x [m]")(
      "height", po::value<double>(&height)->default_value(height, "0.1"), "along y [m]")(
      "width", po::value<double>(&width)->default_value(width, "0.1"), "along z [m]")(
      "cells", po::value<std::vector<int>>(&cells)->multitoken(),
      "cells along x, y, z (default 10 2 2); 6 tets each")(
      "domains", po::value<std::string>(&domains)->default_value("single"),
      "[scene] domains, e.g. auto:4")(
      "youngs-modulus",
      po::value<double>(&material.youngs_modulus)->default_value(material.youngs_modulus),
      "E [Pa]")(
      "poisson-ratio",
      po::value<double>(&material.poisson_ratio)->default_value(material.poisson_ratio, "0.45"),
      "ν")("density", po::value<double>(&material.density)->default_value(material.density),
           "ρ [kg/m³]");
  po::options_description all;
  all.add(beam).add(scene_options(s, "beam"));
  if (!parse(args, all,
             "usage: substruct generate beam --out DIR [--length L] [--cells NX NY NZ] [options]\n"
             "  A cantilever beam of box cells, clamped at x = 0."))
    return 0;
  if (cells.empty()) cells = {10, 2, 2};
  if (cells.size() != 3)
    throw Error(fmt::format("generate beam: --cells expects three counts NX NY NZ, found {}",
                            cells.size()));
  if (!(length > 0) || !(height > 0) || !(width > 0))
    throw Error("generate beam: --length, --height and --width must be > 0");
  const TetMesh mesh =
      make_box_mesh(Vec3(0, -height / 2, -width / 2), Vec3(length, height / 2, width / 2), cells[0],
                    cells[1], cells[2], material);
  const std::vector<Index> fixed = mesh.vertex_sets.at("xmin");
  // Tracked: the free end's corner vertex (i = nx, j = 0, k = 0).
  const std::vector<Index> tracked = {cells[0]};
  std::string made_by = "substruct generate beam";
  for (const std::string& a : args) made_by += " " + a;
  const std::string comment = fmt::format(
      "# A cantilever beam {} m × {} m × {} m of {} × {} × {} cells (6 tets each), clamped at\n"
      "# x = 0. Made by: {}\n\n",
      length, height, width, cells[0], cells[1], cells[2], made_by);
  write_scene(s, mesh, fixed, comment, domains, tracked, "free end, lower corner");
  return 0;
}

/// [material] Rayleigh damping of a generated scene: --rayleigh-mass, --rayleigh-stiffness.
struct Damping {
  double mass = 0;
  double stiffness = 0;
  void add_options(const ShapeOption& option) {
    option("rayleigh-mass", &mass, "[material] rayleigh_mass α [1/s] in D = αM + βK");
    option("rayleigh-stiffness", &stiffness, "[material] rayleigh_stiffness β [s]");
  }
  std::string lines(const std::string& comment) const {
    if (!(mass >= 0) || !(stiffness >= 0))
      throw Error(
          fmt::format("generate: --rayleigh-mass and --rayleigh-stiffness must be ≥ 0, "
                      "found {} and {}",
                      mass, stiffness));
    return fmt::format("rayleigh_mass = {}  # α [1/s]{}\nrayleigh_stiffness = {}  # β [s]\n", mass,
                       comment, stiffness);
  }
};

/// --cells NX NY NZ of a bar (empty: keep nx, ny, nz).
void read_cells(const std::vector<int>& cells, int& nx, int& ny, int& nz, const char* shape) {
  if (cells.empty()) return;
  if (cells.size() != 3)
    throw Error(fmt::format("generate {}: --cells expects three counts NX NY NZ, found {}", shape,
                            cells.size()));
  nx = cells[0];
  ny = cells[1];
  nz = cells[2];
}

/// The box of a bar: --length, --height, --width and --cells NX NY NZ (read with read_cells).
void bar_box_options(po::options_description& options, const ShapeOption& option, double& length,
                     double& height, double& width, std::vector<int>& cells,
                     const char* cells_help) {
  option("length", &length, "along x [m]");
  option("height", &height, "along y, across gravity [m]");
  option("width", &width, "along z [m]");
  options.add_options()("cells", po::value<std::vector<int>>(&cells)->multitoken(), cells_help);
}

std::string made_by(const char* shape, const Args& args) {
  std::string text = fmt::format("substruct generate {}", shape);
  for (const std::string& a : args) text += " " + a;
  return text;
}

int generate_bar_scene(const Args& args) {
  SceneOptions s;
  BarParameters p;
  // α = 2/s damps the first bending mode (≈ 1 Hz) by about 15 %: the default bar settles to
  // within 1 cm in 3 s (α = 1/s leaves it swinging ±3 cm at 4 s); β only damps the high modes.
  Damping damping{2.0, 0.002};
  std::vector<int> cells;
  po::options_description bar(
      "bar: [0, length] × [−height/2, height/2] × [−width/2, width/2], clamped at x = 0");
  const ShapeOption option{bar};
  bar_box_options(bar, option, p.length, p.height, p.width, cells,
                  "cells along x, y, z (default 24 4 4); 6 tets each");
  option("domains", &p.domains,
         "element sets domain0… of equal length along x, domain 0 at the clamp ([scene] domains "
         "= sets)");
  material_options(option, p.material);
  damping.add_options(option);
  po::options_description all;
  all.add(bar).add(scene_options(s, "bar", "full", 300));
  if (!parse(args, all,
             "usage: substruct generate bar --out DIR [--domains N] [--cells NX NY NZ] [options]\n"
             "  The bar of Huang et al. 2006 (Fig. 1): a long box beam clamped at x = 0, bent by\n"
             "  gravity across its length, cut into N equal domains along it (element sets)."))
    return 0;
  read_cells(cells, p.cells_x, p.cells_y, p.cells_z, "bar");
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
              damping.lines(": settles in about 3 s"));
  return 0;
}

int generate_bimaterial_bar_scene(const Args& args) {
  SceneOptions s;
  BimaterialBarParameters p;
  Damping damping{2.0, 0.002};
  std::vector<int> cells;
  std::string domains = "auto:4";
  po::options_description bar(
      "bar: [0, length] × [−height/2, height/2] × [−width/2, width/2], clamped at x = 0; stiff "
      "for x < length/2, soft beyond");
  const ShapeOption option{bar};
  bar_box_options(bar, option, p.length, p.height, p.width, cells,
                  "cells along x (even), y, z (default 24 4 4); 6 tets each");
  bar.add_options()("domains", po::value<std::string>(&domains)->default_value(domains),
                    "[scene] domains, e.g. auto:6, or sets (the two halves)");
  option("youngs-modulus", &p.soft.youngs_modulus, "E of the soft half [Pa]");
  option("stiffness-ratio", &p.stiffness_ratio, "E of the stiff half / E of the soft half");
  option("poisson-ratio", &p.soft.poisson_ratio, "ν of both halves");
  option("density", &p.soft.density, "ρ of both halves [kg/m³]");
  damping.add_options(option);
  po::options_description all;
  all.add(bar).add(scene_options(s, "bimaterial_bar", "full", 300));
  if (!parse(
          args, all,
          "usage: substruct generate bimaterial-bar --out DIR [--stiffness-ratio R] [options]\n"
          "  The bar of Huang et al. 2006 (Fig. 9): a box beam, its clamped half stiff and its\n"
          "  free half soft (materials and element sets \"stiff\" and \"soft\"), under gravity."))
    return 0;
  read_cells(cells, p.cells_x, p.cells_y, p.cells_z, "bimaterial-bar");
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
  write_scene(s, mesh, fixed, comment, domains, tip, "free end: the four corners", "", "",
              damping.lines(""));
  return 0;
}

int generate_torus_knot_scene(const Args& args) {
  SceneOptions s;
  TorusKnotParameters p;
  Damping damping{2.0, 0.002};
  po::options_description knot("torus knot: a tube along a (p, q) torus knot in the x-y plane");
  const ShapeOption option{knot};
  option("p", &p.p, "turns round the knot's axis (z), coprime to q");
  option("q", &p.q, "turns round the core circle");
  option("knot-radius", &p.knot_radius, "radius of the core circle [m]");
  option("knot-minor-radius", &p.knot_minor_radius,
         "distance of the centre line from the core circle [m]");
  option("tube-radius", &p.tube_radius, "[m]");
  option("segments", &p.segments, "cross-sections along the knot (3 tets · sides each)");
  option("sides", &p.sides, "vertices round a cross-section");
  option("domains", &p.domains,
         "element sets domain0… of equal arc length round the loop ([scene] domains = sets)");
  material_options(option, p.material);
  damping.add_options(option);
  po::options_description all;
  all.add(knot).add(scene_options(s, "torus_knot"));
  if (!parse(
          args, all,
          "usage: substruct generate torus-knot --out DIR [--p P --q Q] [--domains N] "
          "[options]\n"
          "  The torus knot of Huang et al. 2006: a round tube swept along a (p, q) torus knot,\n"
          "  hanging under gravity from one cross-section; its N domains form a cycle."))
    return 0;
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
              damping.lines(""));
  return 0;
}

std::string join_ints(const std::vector<int>& values) {
  std::string s;
  for (int v : values) s += fmt::format("{}{}", s.empty() ? "" : " ", v);
  return s;
}

int generate_hybrid_bar_scene(const Args& args) {
  SceneOptions s;
  HybridBarParameters p;
  Damping damping{2.0, 0.002};
  std::vector<int> cells;
  std::vector<int> rigid;
  int modes = 100;
  po::options_description bar(
      "hybrid bar: [0, length] × [−height/2, height/2] × [−width/2, width/2], clamped at x = 0, "
      "cut into domains along x, some rigid");
  const ShapeOption option{bar};
  bar_box_options(bar, option, p.length, p.height, p.width, cells,
                  "cells along x, y, z (default 18 3 1: 324 tets; 30 6 5: 5,400); 6 tets each");
  option("domains", &p.domains, "element sets domain0… of equal length along x");
  bar.add_options()("rigid-domains", po::value<std::vector<int>>(&rigid)->multitoken(),
                    "the rigid domains (default 1, the middle of 3)");
  option("youngs-modulus", &p.soft.youngs_modulus, "E of the deformable domains [Pa]");
  option("poisson-ratio", &p.soft.poisson_ratio, "ν");
  option("density", &p.soft.density, "ρ [kg/m³]");
  option("rigid-stiffness-ratio", &p.rigid_stiffness_ratio,
         "E of the rigid domains' material / E (what unreduced methods see)");
  option("modes", &modes, "[spectral-hybrid] modes of each deformable region");
  std::string nodes = "2";
  bar.add_options()("boundary-nodes", po::value<std::string>(&nodes)->default_value(nodes),
                    "[spectral-hybrid] boundary_nodes: constrained nodes per boundary, or all");
  damping.add_options(option);
  po::options_description all;
  all.add(bar).add(scene_options(s, "hybrid_bar", "spectral-hybrid", 300));
  if (!parse(
          args, all,
          "usage: substruct generate hybrid-bar --out DIR [--cells NX NY NZ] [--rigid-domains "
          "D…] [options]\n"
          "  The hybrid bar of Yang et al. 2010 (Fig. 2, Table 1): a box beam clamped at x = 0,\n"
          "  cut into domains along it, some rigid ([spectral-hybrid] rigid_domains)."))
    return 0;
  read_cells(cells, p.cells_x, p.cells_y, p.cells_z, "hybrid-bar");
  if (!rigid.empty()) p.rigid_domains = rigid;
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
      join_ints(p.rigid_domains), p.rigid_stiffness_ratio, p.soft.youngs_modulus,
      p.soft.poisson_ratio, p.soft.density, join(free_end), made_by("hybrid-bar", args));
  const std::string section =
      fmt::format("[spectral-hybrid]\nrigid_domains = {}\nmodes = {}\nboundary_nodes = {}\n\n",
                  join_ints(p.rigid_domains), modes, nodes);
  write_scene(s, mesh, fixed, comment, "sets", tip, "free end: the four corners", "", section,
              damping.lines(""));
  return 0;
}

int generate_limb_scene(const Args& args) {
  SceneOptions s;
  LimbParameters p;
  Damping damping{2.0, 0.002};
  int modes = 100;
  po::options_description limb(
      "limb: [0, length] × [−thickness/2, thickness/2]², clamped at the hip x = 0, two rigid "
      "bones inside soft flesh");
  const ShapeOption option{limb};
  option("length", &p.length, "along x [m]");
  option("thickness", &p.thickness, "across, along y and z [m]");
  option("cells-x", &p.cells_x, "cell layers along x");
  option("cells", &p.cells, "cells across (y and z)");
  option("bone-cells", &p.bone_cells, "cells across each bone (centred)");
  option("thigh-begin", &p.thigh_begin, "first cell layer of the thigh bone");
  option("thigh-end", &p.thigh_end, "cell layer after the thigh bone");
  option("shin-begin", &p.shin_begin, "first cell layer of the shin bone");
  option("shin-end", &p.shin_end, "cell layer after the shin bone");
  option("youngs-modulus", &p.flesh.youngs_modulus, "E of the flesh [Pa]");
  option("poisson-ratio", &p.flesh.poisson_ratio, "ν");
  option("density", &p.flesh.density, "ρ [kg/m³]");
  option("bone-stiffness-ratio", &p.bone_stiffness_ratio,
         "E of the bones' material / E of the flesh (what unreduced methods see)");
  option("modes", &modes, "[spectral-hybrid] modes of the flesh");
  damping.add_options(option);
  po::options_description all;
  all.add(limb).add(scene_options(s, "limb", "spectral-hybrid", 300));
  if (!parse(args, all,
             "usage: substruct generate limb --out DIR [options]\n"
             "  A limb with rigid bones inside a soft body (the hybrid Armadillo leg of Yang et\n"
             "  al. 2010, Fig. 1, 6): element sets bone0, bone1 (rigid) and flesh."))
    return 0;
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
      "[spectral-hybrid]\nrigid_domains = 0 1\nmodes = {}\nboundary_nodes = 2\n\n", modes);
  write_scene(s, mesh, fixed, comment, "sets", foot, "the foot's four corners", "", section,
              damping.lines(""));
  return 0;
}

int generate_figure_scene(const Args& args) {
  SceneOptions s;
  FigureParameters p;
  std::string shape = "hammock";
  po::options_description figure(
      "figure: boxes of lattice cells, one domain each (the scenes of Wu et al. 2015, smaller)");
  const ShapeOption option{figure};
  figure.add_options()("shape", po::value<std::string>(&shape)->default_value(shape),
                       "hammock (5 strips hung at the corners), caterpillar (8 segments, tail "
                       "fixed), armadillo (11 parts, held at the back) or chain (8 blocks and 7 "
                       "links, free-flying: the SIGGRAPH letters of Barbic-Zhao 2011)");
  option("resolution", &p.resolution, "cells per unit along each axis (1 … 8)");
  option("unit", &p.unit, "[m] of one unit of the outline");
  p.material.youngs_modulus = 0;
  option("youngs-modulus", &p.material.youngs_modulus,
         "E [Pa]; 0: the shape's (hammock 2e8, caterpillar 1e8, armadillo and chain 2e6)");
  option("poisson-ratio", &p.material.poisson_ratio, "ν");
  option("density", &p.material.density, "ρ [kg/m³]");
  po::options_description all;
  all.add(figure).add(scene_options(s, "", "coupling-elements", 200));
  if (!parse(args, all,
             "usage: substruct generate figure --shape hammock|caterpillar|armadillo|chain --out "
             "DIR [options]\n"
             "  Generated analogues of the scenes of Wu, Mukherjee, Wang 2015 (Tables 3-4) and of\n"
             "  the free-flying letters of Barbic-Zhao 2011 (Table 1)."))
    return 0;
  p.shape = figure_shape(shape);
  if (p.material.youngs_modulus == 0) p.material.youngs_modulus = figure_youngs_modulus(p.shape);
  if (s.name.empty()) s.name = shape;
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

int command_generate(const Args& raw_args) {
  GlobalOptions global;
  const Args args = take_global_options(raw_args, global);
  const std::string usage =
      "usage: substruct generate "
      "flower|tree|forest|beam|bar|bimaterial-bar|torus-knot|hybrid-bar|limb|"
      "figure --out DIR "
      "[options]\n"
      "  Writes DIR/NAME.veg (mesh), DIR/NAME.bou (fixed vertices) and DIR/NAME.ini (a scene).\n"
      "  substruct generate SHAPE --help lists the options of each shape.\n";
  if (args.empty()) throw Error("generate: what? " + usage);
  if (args[0] == "--help" || args[0] == "-h") {
    std::printf("%s", usage.c_str());
    return 0;
  }
  const Args rest(args.begin() + 1, args.end());
  if (args[0] == "flower") return generate_flower_scene(rest);
  if (args[0] == "tree") return generate_tree_scene(rest);
  if (args[0] == "forest") return generate_forest_scene(rest);
  if (args[0] == "beam") return generate_beam_scene(rest);
  if (args[0] == "bar") return generate_bar_scene(rest);
  if (args[0] == "bimaterial-bar") return generate_bimaterial_bar_scene(rest);
  if (args[0] == "torus-knot") return generate_torus_knot_scene(rest);
  if (args[0] == "hybrid-bar") return generate_hybrid_bar_scene(rest);
  if (args[0] == "limb") return generate_limb_scene(rest);
  if (args[0] == "figure") return generate_figure_scene(rest);
  throw Error(fmt::format(
      "generate: unknown shape '{}' (shapes: flower, tree, forest, beam, bar, bimaterial-bar, "
      "torus-knot, hybrid-bar, limb, figure)",
      args[0]));
}

SUBSTRUCT_COMMAND(
    "generate",
    "flower|tree|forest|beam|bar|bimaterial-bar|torus-knot|hybrid-bar|limb|figure --out DIR …",
    "make a scene (mesh, fixed vertices, .ini)", command_generate);

}  // namespace substruct::cli
