// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The dimension reduction of Huang et al. 2006, §5.1: before clustered PCA, the vertices are
/// clustered "using the node connectivity and coordinates", and the columns of the
/// force-displacement matrix G that belong to one node cluster are summed (a vertex responds
/// alike to forces on nearby vertices), so that the rows CPCA clusters have 3c entries instead
/// of 3N.
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Clusters the vertices of `mesh` (or only `vertices`, when not empty) into `clusters` groups
/// that are compact and connected:
///  1. seeds by farthest-point sampling on the rest positions: the first is the selected vertex
///     farthest from their centroid, each next one the vertex farthest from the seeds so far
///     (lowest id on ties);
///  2. k-means (Lloyd) on the positions from those seeds, each vertex to the nearest centre
///     (lowest cluster on ties), at most `iterations` rounds or until nothing moves;
///  3. made connected on the vertex graph (two selected vertices adjacent when an element has
///     both): in every cluster the largest connected piece (the first one on a tie) stays and
///     each other piece joins the cluster it shares most edges with (lowest id on ties),
///     repeated until no piece moves. A piece with no edge to another cluster (a separate part
///     of the mesh) stays where it is.
/// Clusters left empty (only with fewer distinct positions than clusters) are dropped and the
/// others renumbered in order, so the ids are 0…c'−1 with c' ≤ min(clusters, selected vertices).
/// Returns the cluster of every vertex of the mesh, −1 for a vertex not selected. Deterministic.
/// Throws Error for clusters < 1, a vertex id outside the mesh, or no vertex to cluster.
std::vector<int> cluster_mesh_nodes(const TetMesh& mesh, int clusters,
                                    const std::vector<Index>& vertices = {}, int iterations = 20);

/// The number of clusters in a cluster_of_node vector: 1 + its largest id (0 when none ≥ 0).
int count_node_clusters(const std::vector<int>& cluster_of_node);

/// The summation matrix S (3N × 3c, N = cluster_of_node.size()): S(3v + j, 3·cluster(v) + j) = 1
/// for every node v with a cluster (≥ 0) and j = 0, 1, 2; rows of nodes with −1 are zero.
/// X S sums the columns of X per node cluster and component. Throws Error for an id ≥ clusters.
SparseMatrix node_cluster_summation(const std::vector<int>& cluster_of_node, int clusters);

/// X S without forming S: the reduced rows of §5.1. Column 3v + j of X (rows × 3N) is added to
/// column 3·cluster(v) + j of the result (rows × 3c); columns of nodes with cluster −1 are
/// dropped. Throws Error when X does not have 3·cluster_of_node.size() columns or an id is
/// ≥ clusters.
Eigen::MatrixXd sum_columns_by_node_cluster(const Eigen::MatrixXd& X,
                                            const std::vector<int>& cluster_of_node, int clusters);

}  // namespace substruct
