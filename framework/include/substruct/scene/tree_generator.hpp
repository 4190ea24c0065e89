// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A procedural tree for many-domain examples (after the oak of Barbič–Zhao 2011, §5: 41 branches
/// in 5 instance classes and 1,394 copies of one leaf): a trunk, branches in whorls of four on it,
/// sub-branches on the branches and leaves on every branch, one domain each, in one conforming tet
/// mesh on a cubic lattice.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Sizes are in lattice cells of edge `cell_size`; y is up, the trunk axis is x = z = 0.
struct TreeParameters {
  int branches = 24;           // all levels together, ≥ 1
  int levels = 2;              // branch levels: 1 puts every branch on the trunk
  int sub_branches = 3;        // most sub-branches on a branch of a level above the last, ≥ 1
  int leaves_per_branch = 12;  // on every branch, ≥ 0
  double cell_size = 0.01;     // [m]
  int trunk_half_width = 2;    // even, ≥ 2: the trunk's cross-section is (2 · this)² cells
  int trunk_base = 10;         // even, ≥ 2: the trunk below its first whorl of branches
  int leaf_length = 3;         // ≥ 1, away from the branch
  int leaf_width = 2;          // even, ≥ 2, along the branch; leaves are one cell thick
  Material material{"wood", 700.0, 1.0e9, 0.35};  // one material: `[scene] domains = sets` needs
                                                  // the element sets to be the domains only
};

/// What generate_tree made.
struct TreeSummary {
  int domains = 0;                      // 1 + branches + leaves
  std::vector<int> branches_per_level;  // level 1 first
  int leaves = 0;
  int depth = 0;          // of the domain tree rooted at the trunk
  int branch_shapes = 0;  // distinct branches (instance classes among branches)
};

/// The tree as one conforming tet mesh: every cell split into 6 positively oriented tets by the
/// reflected Kuhn split, which makes quarter-turned copies split alike.
///
/// Layout. The trunk (root, its base y = 0 fixed) carries the level-1 branches in whorls of four
/// (+x, +z, −x, −z) every 4 cells up. A branch is a horizontal bar of 2 × 2 cells; along it, in
/// slots alternating between its two sides, come first its sub-branches (perpendicular,
/// horizontal), then its leaves (plates leaf_length × leaf_width × 1 cells). The branches count
/// is shared out breadth-first: ⌈branches / (1 + s + … + s^(levels−1))⌉ level-1 branches, each
/// branch's descendants split as evenly as possible among its (at most sub_branches) children.
/// Slots are spaced so that the subtrees never touch: domains meet only parent–child, along
/// planar interfaces of at least 6 vertices. Depth: levels + 1 with leaves.
///
/// Instancing: every leaf is an exact copy of one leaf (a quarter turn about y and a translation,
/// its vertices and tets in the same local order), and branches whose subtrees have the same
/// shape are exact copies too: vertices are numbered domain by domain (breadth-first from the
/// trunk), each domain numbering the vertices it does not share with its children in the order
/// (y, z, x) of its own unturned frame; elements domain by domain in that frame's cell order.
///
/// Domains are element sets "trunk", "branchNN…", "leafNN…" (zero-padded, breadth-first), so that
/// `[scene] domains = sets` splits it. (Softer leaves: a per-domain frequency scale of the
/// coupling method, as in the paper's flower.)
/// `fixed_vertices` receives the trunk's base, sorted. Deterministic. Throws Error for parameters
/// out of range or a mesh of more than 6 million tets.
TetMesh generate_tree(const TreeParameters& parameters,
                      std::vector<Index>* fixed_vertices = nullptr, TreeSummary* summary = nullptr);

}  // namespace substruct
