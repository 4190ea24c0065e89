// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Vertex partitions (Wu, Mukherjee, Wang 2015, §4.1): the vertices are split into disjoint
/// domains; an element whose vertices lie in more than one domain is a coupling element.
#include <vector>

#include "substruct/domains/element_partition.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// domain_of_vertex[v] ∈ [0, num_domains), or −1 for a vertex that no element uses.
/// Every domain holds at least one vertex.
struct VertexPartition {
  std::vector<int> domain_of_vertex;
  int num_domains = 0;
};

/// Each vertex goes to the lowest-numbered domain among the elements that use it. Throws Error
/// when a domain keeps no vertex (all its vertices are shared with lower-numbered domains).
VertexPartition vertex_partition_from_elements(const TetMesh& mesh,
                                               const ElementPartition& partition);

/// N domains from METIS on the vertex graph (vertices adjacent when they share a tet edge),
/// contiguous when the mesh is connected, fixed seed: deterministic. Throws Error when N is
/// not in [1, the number of used vertices] or METIS leaves a domain empty.
VertexPartition metis_vertex_partition(const TetMesh& mesh, int num_domains);

}  // namespace substruct
