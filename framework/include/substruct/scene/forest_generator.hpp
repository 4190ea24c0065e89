// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A procedural forest (Zhao 2014, §4.2: plants on a virtual rigid root): N trees of a few
/// species standing on one ground domain, the root of the domain tree, in one conforming tet mesh
/// on the tree generator's lattice. Trees of a species are exact copies (instancing reduces them
/// once); a share of the plants is varied (a few branches more or fewer, longer leaves), so that
/// not everything collapses to a handful of models.
#include <string>
#include <vector>

#include "substruct/scene/tree_generator.hpp"

namespace substruct {

struct ForestParameters {
  int plants = 6;  // ≥ 1
  std::vector<TreeParameters>
      species;               // empty: forest_species(); cell_size and material from the first
  double variation = 0.5;    // share of the plants varied, in [0, 1]
  unsigned seed = 1;         // which plants are varied, and how
  int ground_thickness = 2;  // [cells], even ≥ 2
  int gap = 4;               // [cells] between neighbouring crowns, ≥ 2
};

/// Three built-in species on a 1 cm lattice: a broadleaf (two branch levels, leaves on every
/// branch), a conifer (one level, many short branches) and a bush (low, few branches).
std::vector<TreeParameters> forest_species();

/// A species by name: "broadleaf", "conifer", "bush" (forest_species()'s three) or "fir", a fir
/// of the size of Zhao 2014 Table 5.1's (587 branches on two levels, 14 leaves each: 8,806
/// domains, 0.9 M tets). Throws Error naming the known species for any other name.
TreeParameters forest_species(const std::string& name);

struct ForestSummary {
  int domains = 0;                      // 1 (ground) + the plants' domains
  std::vector<int> plants_per_species;  // as given
  int varied = 0;                       // plants whose shape differs from their species'
  int distinct_plants = 0;              // distinct tree shapes among the plants
};

/// The forest as one mesh. Plants stand on a grid (row by row, species in turn), their trunks'
/// bases on the ground: a slab `ground_thickness` cells thick under every trunk, with strips
/// joining the trunks of a row and the rows (y ≤ 0; the plants are above). Element sets:
/// "ground" (domain 0 with `[scene] domains = sets`, the root), then "pNN_trunk", "pNN_branch…",
/// "pNN_leaf…" per plant. `fixed_vertices` receives every vertex of the ground (the thesis's
/// fixed virtual root: no modes to compute, no method moves it). Deterministic for a
/// seed. Throws Error for parameters out of range or more than 24 million tets.
TetMesh generate_forest(const ForestParameters& parameters,
                        std::vector<Index>* fixed_vertices = nullptr,
                        ForestSummary* summary = nullptr);

}  // namespace substruct
