// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The regions of a hybrid solid (Yang et al. 2010, §3): each domain of an element partition is
/// rigid or deformable, "regions of the same type sharing one or more triangle faces are counted
/// as one", and "the concept of boundary is only the interface between a pair of deformable and
/// rigid regions".
#include <vector>

#include "substruct/domains/element_partition.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

struct HybridRegion {
  bool rigid = false;
  std::vector<int> domains;     // increasing
  std::vector<Index> elements;  // global ids, increasing
};

/// The vertices shared by the elements of a deformable and a rigid region.
struct RegionBoundary {
  int deformable = 0;  // region ids
  int rigid = 0;
  std::vector<Index> vertices;  // global ids, increasing
};

struct HybridRegions {
  std::vector<HybridRegion> regions;  // ordered by their lowest domain
  std::vector<int> region_of_domain;
  std::vector<RegionBoundary> boundaries;  // sorted by (deformable, rigid)
};

/// Merges face-adjacent domains of the same type (`rigid_domain[d]`) into regions and finds the
/// deformable–rigid boundaries. Regions of the same type that touch only at an edge or a vertex
/// stay separate and are not constrained to each other (only deformable–rigid boundaries are).
/// Throws Error when `rigid_domain` does not have one flag per domain, or when a boundary is
/// degenerate — fewer than 3 non-collinear vertices, so a rotation cannot be transmitted — naming
/// the two regions and their domains.
HybridRegions hybrid_regions(const TetMesh& mesh, const ElementPartition& partition,
                             const std::vector<bool>& rigid_domain);

}  // namespace substruct
