// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A mesh cut into domains: the partition, each domain's sub-mesh and the interfaces.
#include <vector>

#include "substruct/domains/element_partition.hpp"
#include "substruct/domains/interface.hpp"
#include "substruct/domains/sub_mesh.hpp"
#include "substruct/domains/vertex_partition.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

struct Decomposition {
  ElementPartition partition;
  std::vector<SubMesh> domains;       // domains[d].domain == d
  std::vector<Interface> interfaces;  // sorted by (a, b)

  int num_domains() const { return partition.num_domains; }
};

/// Splits the mesh along an element partition (validated first; Error on mismatch or empty
/// domains). Runs in O(M log M) for M elements, whatever the number of domains.
Decomposition decompose(const TetMesh& mesh, ElementPartition partition);

/// The coupling-element layers of a vertex partition, sorted by (a, b); O(M log M).
std::vector<CouplingInterface> coupling_interfaces(const TetMesh& mesh,
                                                   const VertexPartition& partition);

}  // namespace substruct
