// SPDX-License-Identifier: GPL-3.0-or-later
// substruct generate flower | tree | forest: plants with one domain per part (stem segments,
// leaves, petals; trunk, branches, leaves), the trees' parts copies of a few for instancing.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "generators.hpp"
#include "substruct/core/trim.hpp"
#include "substruct/reduction/mode_count.hpp"
#include "substruct/scene/flower_generator.hpp"
#include "substruct/scene/forest_generator.hpp"
#include "substruct/scene/tree_generator.hpp"

namespace substruct::cli {

namespace {

struct FlowerSettings : GeneratedScene, FlowerParameters {
  std::string pull;  // [pull] force on the top of the bloom; empty: no pull
  double pull_time = 0.3;
  FlowerSettings() : GeneratedScene("flower") {}
};

const OptionSet<FlowerSettings>& flower_options() {
  using S = FlowerSettings;
  static const auto options = scene_options(
      material_options(
          OptionSet<S>("generate flower", "flower shape (sizes in lattice cells)")
              .integer("segments", &S::segments, "", "stem segments, one domain each")
              .integer("leaves", &S::leaves, "", "leaves, at most 4 per segment")
              .integer("petals", &S::petals, "", "petals around the bloom, 0…4")
              .number("cell-size", &S::cell_size, "m", "lattice cell edge", positive)
              .integer("stem-half-width", &S::stem_half_width, "", "half the stem's thickness")
              .integer("segment-height", &S::segment_height, "",
                       "height of a stem segment, ≥ 3 (≥ 5 with more than 2 leaves on a segment)")
              .integer("leaf-length", &S::leaf_length, "", "length of a leaf")
              .integer("leaf-half-width", &S::leaf_half_width, "",
                       "half the width of a leaf at its widest")
              .integer("bloom-half-width", &S::bloom_half_width, "", "half the width of the bloom")
              .integer("bloom-height", &S::bloom_height, "", "height of the bloom")
              .integer("petal-length", &S::petal_length, "", "length of a petal")
              .integer("petal-half-width", &S::petal_half_width, "",
                       "half the width of a petal at its widest")
              .number("curl", &S::curl, "1/m", "upward curl of leaves and petals"),
          &S::material)
          .text("pull", &S::pull,
                "[pull] force on the top of the bloom [N], e.g. \"2 0 0\" (default: no pull)")
          .number("pull-time", &S::pull_time, "s", "[pull] end: how long the pull lasts",
                  non_negative));
  return options;
}

int generate_flower_scene(const Args& args) {
  FlowerSettings s;
  if (!parse_generator_arguments(flower_generator, args, flower_options(), s)) return 0;
  const FlowerParameters& p = s;
  std::vector<Index> fixed;
  const TetMesh mesh = generate_flower(p, &fixed);
  // Tracked: the top centre of the bloom, the tip of the first petal and of the first leaf.
  std::vector<Index> tracked = {top_of_axis(mesh)};
  std::string tracked_comment = "top of the bloom";
  if (p.petals > 0) {
    tracked.push_back(tip_of(mesh, "petal0"));
    tracked_comment += ", tip of petal0";
  }
  if (p.leaves > 0) {
    tracked.push_back(tip_of(mesh, "leaf0"));
    tracked_comment += ", tip of leaf0";
  }
  const std::string comment = fmt::format(
      "# A flower: {} stem segments, {} leaves, a bloom and {} petals, one domain each (element\n"
      "# sets stem0…, leaf0…, bloom, petal0…); the base of the stem is fixed.\n"
      "# Made by: {}\n"
      "# {}\n"
      "# Other methods on the same scene: substruct run {}.ini --coupling.plugin=inertia\n\n",
      p.segments, p.leaves, p.petals, made_by("flower", args),
      s.pull.empty() ? fmt::format("To swing it, pull the top of the bloom (vertex {}) sideways: "
                                   "--pull \"2 0 0\".",
                                   tracked[0])
                     : fmt::format("The top of the bloom is pulled by {} N for {} s, then "
                                   "released.",
                                   s.pull, s.pull_time),
      s.name);
  std::string pull_section;
  if (!s.pull.empty())
    pull_section =
        fmt::format("\n[pull]\nvertices = {}  # top of the bloom\nforce = {}\nend = {}\n",
                    tracked[0], s.pull, s.pull_time);
  write_scene(s, mesh, fixed, comment, "sets", tracked, tracked_comment, pull_section);
  return 0;
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

constexpr const char* kRigidLeavesHelp =
    "simulate the leaves as rigid bodies ([inertia] rigid_domains), as the thesis's large plants "
    "do";

struct TreeSettings : GeneratedScene, TreeParameters {
  bool rigid_leaves = false;
  TreeSettings() : GeneratedScene("tree", "inertia") {}
};

const OptionSet<TreeSettings>& tree_options() {
  using S = TreeSettings;
  static const auto options = scene_options(
      material_options(
          OptionSet<S>("generate tree", "tree shape (sizes in lattice cells)")
              .integer("branches", &S::branches, "", "branches of all levels together")
              .integer("levels", &S::levels, "", "branch levels (1: every branch on the trunk)")
              .integer("sub-branches", &S::sub_branches, "",
                       "most sub-branches on a branch above the last level")
              .integer("leaves-per-branch", &S::leaves_per_branch, "", "leaves on every branch")
              .number("cell-size", &S::cell_size, "m", "lattice cell edge", positive)
              .integer("trunk-half-width", &S::trunk_half_width, "",
                       "half the trunk's thickness, even ≥ 2")
              .integer("trunk-base", &S::trunk_base, "", "trunk below the first branches, even ≥ 2")
              .integer("leaf-length", &S::leaf_length, "", "leaf length, away from the branch")
              .integer("leaf-width", &S::leaf_width, "", "leaf width, along the branch, even ≥ 2"),
          &S::material)
          .flag("rigid-leaves", &S::rigid_leaves, kRigidLeavesHelp));
  return options;
}

int generate_tree_scene(const Args& args) {
  constexpr int kMaxModes = 20;
  TreeSettings s;
  if (!parse_generator_arguments(tree_generator, args, tree_options(), s)) return 0;
  const TreeParameters& p = s;
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
  const std::string modes_text =
      fmt::format("trunk {}, branches {}, leaves {}", modes("trunk"),
                  branch_lo == branch_hi ? std::to_string(branch_lo)
                                         : fmt::format("{}–{}", branch_lo, branch_hi),
                  leaf0.empty() ? std::string("-") : std::to_string(modes(leaf0)));

  // Tracked: the top centre of the trunk, the tip of the first branch and of the first leaf.
  std::vector<Index> tracked = {top_of_axis(mesh), tip_of(mesh, branch0)};
  std::string tracked_comment = "top of the trunk, tip of " + branch0;
  if (!leaf0.empty()) {
    tracked.push_back(tip_of(mesh, leaf0));
    tracked_comment += ", tip of " + leaf0;
  }
  const std::string comment = fmt::format(
      "# A tree: a trunk, {} branches ({} by level) and {} leaves, one domain each ({} domains,\n"
      "# element sets trunk, branch…, leaf…; depth {}); the base of the trunk is fixed. Every "
      "leaf\n"
      "# is a copy of one leaf and the branches copies of {} shapes, so instancing reduces {}\n"
      "# models for {} domains.\n"
      "# Made by: {}\n\n",
      p.branches, levels, summary.leaves, summary.domains, summary.depth, summary.branch_shapes,
      summary.branch_shapes + 1 + (summary.leaves > 0 ? 1 : 0), summary.domains,
      made_by("tree", args));
  std::string reduction = fmt::format(
      "[reduction]\n"
      "mode_count = adaptive  # r = max(5, ⌊r_max log e / log e_max⌋): {}\n"
      "r_max = {}\n"
      "instancing = true\n\n",
      modes_text, kMaxModes);
  if (s.rigid_leaves && summary.leaves > 0) {
    reduction += rigid_leaves_section(mesh, "leaf");
    reduced -= static_cast<long>(summary.leaves) * (leaf0.empty() ? 0 : modes(leaf0));
  }
  write_scene(s, mesh, fixed, comment, "sets", tracked, tracked_comment, "", reduction);
  std::printf(
      "tree: %d domains (1 trunk, %d branches = %s by level, %d leaves), depth %d, %d branch "
      "shapes\n",
      summary.domains, p.branches, levels.c_str(), summary.leaves, summary.depth,
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

struct ForestSettings : GeneratedScene, ForestParameters {
  std::string species_names = "3";
  double cell_size = 0.01;
  bool rigid_leaves = false;
  ForestSettings() : GeneratedScene("forest", "inertia") {}
};

const OptionSet<ForestSettings>& forest_options() {
  using S = ForestSettings;
  static const auto options = scene_options(
      OptionSet<S>("generate forest", "forest")
          .integer("plants", &S::plants, "", "plants, on a square-ish grid")
          .text("species", &S::species_names,
                "species in turn: a count (1 broadleaf, 2 + conifer, 3 + bush) or names, e.g. "
                "fir or broadleaf,fir (broadleaf, conifer, bush, fir: a fir of Zhao 2014 Table "
                "5.1's size, 8,806 domains)")
          .number("variation", &S::variation, "", "share of the plants with a shape of their own",
                  in_range(0, 1))
          .integer("seed", &S::seed, "", "which plants vary, and how")
          .integer("ground-thickness", &S::ground_thickness, "",
                   "the ground slab [cells], even ≥ 2")
          .integer("gap", &S::gap, "", "between neighbouring crowns [cells]")
          .number("cell-size", &S::cell_size, "m", "lattice cell edge", positive)
          .flag("rigid-leaves", &S::rigid_leaves, kRigidLeavesHelp));
  return options;
}

int generate_forest_scene(const Args& args) {
  ForestSettings s;
  if (!parse_generator_arguments(forest_generator, args, forest_options(), s)) return 0;
  ForestParameters p = s;
  p.species = species_list(s.species_names);
  p.species.front().cell_size = s.cell_size;

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
  const std::string comment = fmt::format(
      "# A forest: {} plants ({} by species, {} varied: {} distinct shapes) on one ground\n"
      "# domain, the root of the domain tree ({} domains: element set ground, then pNN_trunk,\n"
      "# pNN_branch…, pNN_leaf… per plant); every vertex of the ground is fixed (the thesis's\n"
      "# fixed virtual root: it has no modes to compute and no method moves it).\n"
      "# Made by: {}\n\n",
      p.plants, per_species, summary.varied, summary.distinct_plants, summary.domains,
      made_by("forest", args));
  std::string reduction =
      "[reduction]\n"
      "mode_count = adaptive\n"
      "r_max = 20\n"
      "instancing = true\n\n";
  if (s.rigid_leaves) reduction += rigid_leaves_section(mesh, "_leaf");
  write_scene(s, mesh, fixed, comment, "sets", tracked, tracked_comment, "", reduction);
  std::printf("forest: %d plants (%s by species, %d varied, %d distinct shapes), %d domains\n",
              p.plants, per_species.c_str(), summary.varied, summary.distinct_plants,
              summary.domains);
  std::printf("size: %d vertices, %d tets, %d DOFs\n", mesh.num_vertices(), mesh.num_elements(),
              3 * mesh.num_vertices());
  return 0;
}

}  // namespace

const Generator flower_generator{
    "flower", "--out DIR [options]",
    "A flower (stem segments, leaves, a bloom, petals) with one domain per part, for multi-domain "
    "methods: [scene] domains = sets.",
    []() -> const OptionTable& { return flower_options().table(); }, &generate_flower_scene};
const Generator tree_generator{
    "tree",
    "--out DIR [--branches N] [--levels L] [--sub-branches S] [--leaves-per-branch K] [options]",
    "A tree (trunk, branches in whorls, sub-branches, leaves) with one domain per part, every "
    "leaf a copy of one leaf and branches copies of a few: [scene] domains = sets, [reduction] "
    "instancing = true. e.g. --branches 40 --leaves-per-branch 35: oak scale.",
    []() -> const OptionTable& { return tree_options().table(); }, &generate_tree_scene};
const Generator forest_generator{
    "forest", "--out DIR [--plants N] [--species K|NAMES] [--variation F] [options]",
    "Plants of K species (a broadleaf, a conifer, a bush, a fir: substruct generate tree's "
    "trees) on one ground domain, every vertex of it fixed (the root of the domain tree, as the "
    "thesis's virtual rigid root): plants of a species are copies, a share F of them varied (a "
    "few branches more or fewer, longer leaves).",
    []() -> const OptionTable& { return forest_options().table(); }, &generate_forest_scene};

}  // namespace substruct::cli
