// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Steps 3–7 of the plant import (Zhao 2014, §4.1): which pieces touch (their triangles cross or
/// come within a tolerance: artists' pieces overlap and share no vertices), and from that the
/// tree of domains: the flexible graph connected (a piece or group touching nothing attached to
/// the nearest), rooted, its loops cut by the breadth-first spanning tree, rigid pieces parented.
#include <string>
#include <utility>
#include <vector>

#include "substruct/meshing/plant_pieces.hpp"

namespace substruct {

/// Pieces a < b with `pairs` pairs of their triangles within the tolerance of each other.
struct PieceContact {
  int a = 0;
  int b = 0;
  Index pairs = 0;
};

/// Every touching pair of pieces, sorted by (a, b): triangles are binned on a uniform grid by
/// their bounding boxes grown by `tolerance`, and the pairs of different pieces in a cell whose
/// boxes overlap are measured (exact triangle–triangle distance; 0 when they cross).
std::vector<PieceContact> find_piece_contacts(const SurfaceMesh& surface,
                                              const std::vector<PlantPiece>& pieces,
                                              double tolerance);

/// The least distance between two pieces: over the vertices of each and the triangles of the
/// other.
double piece_distance(const SurfaceMesh& surface, const PlantPiece& a, const PlantPiece& b);

/// A piece (or a group of flexible pieces, by its nearest piece) that touched nothing of the
/// tree, attached to the nearest piece.
struct Attachment {
  int piece = 0;
  int to = 0;
  double distance = 0;
};

struct PlantTree {
  int root = 0;
  std::vector<int> parent;           // −1 for the root
  std::vector<int> order;            // breadth-first from the root: parents before children
  int flexible_components = 0;       // of the contact graph of F pieces (Step 4)
  std::vector<Attachment> attached;  // Steps 4 and 7
  std::vector<std::pair<int, int>> cut_loops;  // Step 6: F contacts left out of the tree
};

/// Steps 4–7 on the contacts of `pieces` (typed F or R1 by Step 1):
///   4. each group of F pieces touching none of the root's group is attached to the nearest F
///      piece of the tree, the nearest group first;
///   5. the root: `root` "lowest" (the F piece with the lowest point, along −y), "largest"
///      (the F piece with the longest box diagonal, the thesis's suggestion) or a piece index;
///   6. the breadth-first spanning tree from the root (DomainGraph::spanning_tree, lowest
///      neighbours first); the contacts it leaves out are the cut loops;
///   7. a rigid piece touching F pieces is R1 under the one it touches most; one touching only
///      R1 pieces is R2 under the R1 it touches most; one touching neither is attached to the
///      nearest F or R1 piece (R1 under F, R2 under R1).
/// Sets the pieces' R types. Throws Error for a root that is not an F piece.
PlantTree build_plant_tree(const SurfaceMesh& surface, std::vector<PlantPiece>& pieces,
                           const std::vector<PieceContact>& contacts, const std::string& root);

}  // namespace substruct
