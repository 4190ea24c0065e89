// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Automatic partition of an object into domains by clustered PCA of its force-displacement
/// vectors (Huang et al. 2006, §7): elements whose nodes respond alike to forces (similar rows of
/// G = A⁻¹) end up in one domain, so domains gather where the object moves as a block and split
/// where it bends, and soft regions get more domains than stiff ones.
#include <cstdint>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/domains/element_partition.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct {

struct CpcaPartitionSettings {
  int domains = 8;           // N: CPCA clusters
  int node_clusters = 0;     // c, the columns are summed over (0: min(free vertices, max(48, 6N)))
  int components = 6;        // m per cluster (6: a block moving rigidly)
  Index min_fragment = 0;    // pieces with fewer elements are merged (0: max(1, E / (10 N)))
  std::uint64_t seed = 1;    // CPCA's start
  double dt = 0.01;          // h
  double rayleigh_mass = 0;  // α in D = αM + βK
  double rayleigh_stiffness = 0;  // β
};

/// What cpca_element_partition did, for the command to report.
struct CpcaPartitionReport {
  ElementPartition partition;
  int node_clusters = 0;   // c
  int components = 0;      // m
  Index min_fragment = 0;  // the threshold used
  int clusters = 0;        // non-empty CPCA clusters
  int cpca_iterations = 0;
  Index zero_elements = 0;  // elements whose four vertices are fixed (zero rows)
  int pieces = 0;           // face-connected pieces of the clusters
  int merged = 0;           // pieces merged into a neighbour (smaller than min_fragment)
  double seconds_assembly = 0, seconds_solve = 0, seconds_cpca = 0, seconds_split = 0;
};

/// The partition of §7:
///  1. A = M + hD + h²K over the free DOFs (consistent mass, linear stiffness K₀ of the mesh's
///     materials, D = αM + βK, fixed vertices and vertices no element uses removed);
///  2. node clusters (cluster_mesh_nodes on the free vertices) and G S = A⁻¹ S by solving
///     A Y = S for the 3c columns of the summation matrix S (A factored once by `solver`), never
///     forming G;
///  3. each element's three rows: the sum of its four vertices' rows of G S (fixed vertices'
///     rows are zero);
///  4. cpca() of those rows into N clusters with m components (groups of 3 rows = one element);
///  5. split_into_face_connected_domains() of the clusters, elements with zero rows (all four
///     vertices fixed) taking the cluster of their neighbours.
/// Throws Error when nothing is free, N < 1 or N exceeds the elements.
CpcaPartitionReport cpca_element_partition(const TetMesh& mesh,
                                           const std::vector<Index>& fixed_vertices,
                                           const CpcaPartitionSettings& settings,
                                           LinearSolver& solver);

/// Turns per-element cluster labels (≥ 0, or −1 for "any": such elements take, wave by wave
/// from the labelled ones, the label they share most faces with, lowest on ties) into a
/// partition whose domains are face-connected: every cluster is split into its face-connected
/// pieces, then the smallest piece with fewer than `min_fragment` elements (the lowest first
/// element on ties) is merged into the neighbouring piece it shares most faces with (lowest first
/// element on ties), repeatedly, until every piece is large enough or has no neighbour. Domains
/// are numbered by their lowest element: domain 0 holds element 0, domain 1 the lowest element
/// not in domain 0, and so on. `pieces` and `merged` (optional) receive the pieces before merging
/// and the merges.
ElementPartition split_into_face_connected_domains(const TetMesh& mesh, std::vector<int> labels,
                                                   Index min_fragment, int* pieces = nullptr,
                                                   int* merged = nullptr);

/// The vertices used by elements of more than one domain.
Index count_interface_vertices(const TetMesh& mesh, const ElementPartition& partition);

}  // namespace substruct
