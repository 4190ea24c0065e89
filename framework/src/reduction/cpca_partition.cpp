// SPDX-License-Identifier: GPL-3.0-or-later
// Automatic partition by clustered PCA of the force-displacement vectors (Huang et al. 2006, §7).
#include "substruct/reduction/cpca_partition.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/reduction/cpca.hpp"
#include "substruct/reduction/node_clustering.hpp"

namespace substruct {

namespace {

// The elements sharing a face with each element (once per shared face).
std::vector<std::vector<Index>> face_neighbours(const TetMesh& mesh) {
  using Face = std::tuple<Index, Index, Index, Index>;  // sorted vertices, element
  std::vector<Face> faces;
  faces.reserve(4 * static_cast<std::size_t>(mesh.num_elements()));
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f;
      for (int i = 0, k = 0; i < 4; ++i)
        if (i != skip) f[k++] = mesh.tets(e, i);
      std::sort(f.begin(), f.end());
      faces.emplace_back(f[0], f[1], f[2], e);
    }
  std::sort(faces.begin(), faces.end());
  std::vector<std::vector<Index>> neighbours(static_cast<std::size_t>(mesh.num_elements()));
  for (std::size_t i = 0; i + 1 < faces.size(); ++i) {
    const auto& [a0, a1, a2, a] = faces[i];
    const auto& [b0, b1, b2, b] = faces[i + 1];
    if (a0 == b0 && a1 == b1 && a2 == b2 && a != b) {
      neighbours[static_cast<std::size_t>(a)].push_back(b);
      neighbours[static_cast<std::size_t>(b)].push_back(a);
    }
  }
  return neighbours;
}

// The label most of `e`'s face neighbours carry (lowest on ties), −1 when none is labelled.
int majority_label(const std::vector<Index>& neighbours, const std::vector<int>& labels) {
  std::map<int, int> count;
  for (Index f : neighbours)
    if (labels[static_cast<std::size_t>(f)] >= 0) ++count[labels[static_cast<std::size_t>(f)]];
  int best = -1, most = 0;
  for (const auto& [label, n] : count)
    if (n > most) {
      most = n;
      best = label;
    }
  return best;
}

}  // namespace

ElementPartition split_into_face_connected_domains(const TetMesh& mesh, std::vector<int> labels,
                                                   Index min_fragment, int* pieces_out,
                                                   int* merged_out) {
  const Index m = mesh.num_elements();
  if (static_cast<Index>(labels.size()) != m)
    throw Error(fmt::format("domain split: {} labels for {} elements", labels.size(), m));
  if (m == 0) throw Error("domain split: the mesh has no elements");
  const std::vector<std::vector<Index>> neighbours = face_neighbours(mesh);
  const auto at = [](auto& v, Index i) -> auto& {
    return v[static_cast<std::size_t>(i)];
  };

  // Unlabelled elements take their labelled neighbours' label, one wave at a time.
  for (;;) {
    std::vector<std::pair<Index, int>> wave;
    bool open = false;
    for (Index e = 0; e < m; ++e)
      if (at(labels, e) < 0) {
        open = true;
        const int label = majority_label(at(neighbours, e), labels);
        if (label >= 0) wave.emplace_back(e, label);
      }
    if (!open) break;
    if (wave.empty()) {  // nothing labelled touches them: one label for the rest
      for (int& label : labels)
        if (label < 0) label = 0;
      break;
    }
    for (const auto& [e, label] : wave) at(labels, e) = label;
  }

  // Face-connected pieces of every label; each piece is its own label from here on.
  std::vector<int> piece(static_cast<std::size_t>(m), -1);
  std::vector<std::vector<Index>> members;
  std::vector<Index> stack;
  for (Index s = 0; s < m; ++s) {
    if (at(piece, s) >= 0) continue;
    const int id = static_cast<int>(members.size());
    members.emplace_back();
    at(piece, s) = id;
    stack.push_back(s);
    while (!stack.empty()) {
      const Index e = stack.back();
      stack.pop_back();
      members.back().push_back(e);
      for (Index f : at(neighbours, e))
        if (at(piece, f) < 0 && at(labels, f) == at(labels, e)) {
          at(piece, f) = id;
          stack.push_back(f);
        }
    }
  }
  for (auto& list : members) std::sort(list.begin(), list.end());
  if (pieces_out) *pieces_out = static_cast<int>(members.size());

  // Merge the smallest fragment into the neighbour it shares most faces with, until none is left.
  int merged = 0;
  for (;;) {
    std::vector<int> order;
    for (std::size_t p = 0; p < members.size(); ++p)
      if (!members[p].empty() && static_cast<Index>(members[p].size()) < min_fragment)
        order.push_back(static_cast<int>(p));
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      return std::make_pair(members[a].size(), members[a].front()) <
             std::make_pair(members[b].size(), members[b].front());
    });
    bool done = true;
    for (int p : order) {
      std::map<int, int> shared;
      for (Index e : members[static_cast<std::size_t>(p)])
        for (Index f : at(neighbours, e))
          if (at(piece, f) != p) ++shared[at(piece, f)];
      if (shared.empty()) continue;  // a separate part of the mesh
      int target = -1, most = 0;
      for (const auto& [q, n] : shared)
        if (n > most || (n == most && members[static_cast<std::size_t>(q)].front() <
                                          members[static_cast<std::size_t>(target)].front())) {
          most = n;
          target = q;
        }
      auto& into = members[static_cast<std::size_t>(target)];
      for (Index e : members[static_cast<std::size_t>(p)]) at(piece, e) = target;
      into.insert(into.end(), members[static_cast<std::size_t>(p)].begin(),
                  members[static_cast<std::size_t>(p)].end());
      std::sort(into.begin(), into.end());
      members[static_cast<std::size_t>(p)].clear();
      ++merged;
      done = false;
      break;
    }
    if (done) break;
  }
  if (merged_out) *merged_out = merged;

  // Domains numbered by their lowest element.
  ElementPartition partition;
  partition.domain_of_element.assign(static_cast<std::size_t>(m), -1);
  std::vector<int> domain_of_piece(members.size(), -1);
  for (Index e = 0; e < m; ++e) {
    int& d = domain_of_piece[static_cast<std::size_t>(at(piece, e))];
    if (d < 0) d = partition.num_domains++;
    at(partition.domain_of_element, e) = d;
  }
  return partition;
}

Index count_interface_vertices(const TetMesh& mesh, const ElementPartition& partition) {
  std::vector<int> first(static_cast<std::size_t>(mesh.num_vertices()), -1);
  std::vector<char> shared(first.size(), 0);
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int a = 0; a < 4; ++a) {
      const auto v = static_cast<std::size_t>(mesh.tets(e, a));
      const int d = partition.domain_of_element[static_cast<std::size_t>(e)];
      if (first[v] < 0)
        first[v] = d;
      else if (first[v] != d)
        shared[v] = 1;
    }
  return static_cast<Index>(std::count(shared.begin(), shared.end(), 1));
}

CpcaPartitionReport cpca_element_partition(const TetMesh& mesh,
                                           const std::vector<Index>& fixed_vertices,
                                           const CpcaPartitionSettings& settings,
                                           LinearSolver& solver) {
  const Index n = mesh.num_vertices(), elements = mesh.num_elements();
  const int N = settings.domains;
  if (N < 1 || N > elements)
    throw Error(
        fmt::format("cpca partition: cannot split {} elements into {} domains; ask for 1 "
                    "to {}",
                    elements, N, elements));
  CpcaPartitionReport report;
  auto start = Clock::now();

  // 1. A = M + hD + h²K = (1 + hα) M + (hβ + h²) K₀ over the free DOFs. Vertices no element
  // uses have no mass or stiffness: they are held like the fixed ones.
  std::vector<char> held(static_cast<std::size_t>(n), 1);
  for (Index e = 0; e < elements; ++e)
    for (int a = 0; a < 4; ++a) held[static_cast<std::size_t>(mesh.tets(e, a))] = 0;
  for (Index v : fixed_vertices) {
    if (v < 0 || v >= n)
      throw Error(
          fmt::format("cpca partition: fixed vertex {} is not one of the {} vertices", v, n));
    held[static_cast<std::size_t>(v)] = 1;
  }
  std::vector<Index> held_vertices, free_vertices;
  for (Index v = 0; v < n; ++v)
    (held[static_cast<std::size_t>(v)] ? held_vertices : free_vertices).push_back(v);
  if (free_vertices.empty()) throw Error("cpca partition: every vertex is fixed; nothing can move");
  const DofMap dofs = DofMap::for_fixed_vertices(n, held_vertices);
  const double h = settings.dt, alpha = settings.rayleigh_mass, beta = settings.rayleigh_stiffness;
  const ElasticForceModel forces(mesh, MaterialModel::linear);
  const SparseMatrix K = forces.stiffness(Eigen::VectorXd::Zero(3 * n));
  const SparseMatrix M = consistent_mass(mesh);
  const SparseMatrix A = dofs.restrict_matrix((1 + h * alpha) * M + (h * beta + h * h) * K);
  report.seconds_assembly = seconds_since(start);

  // 2. Node clusters and G S = A⁻¹ S, column by column.
  start = Clock::now();
  const int c = settings.node_clusters > 0
                    ? settings.node_clusters
                    : static_cast<int>(std::min<std::size_t>(
                          free_vertices.size(), static_cast<std::size_t>(std::max(48, 6 * N))));
  const std::vector<int> node_cluster = cluster_mesh_nodes(mesh, c, free_vertices);
  report.node_clusters = count_node_clusters(node_cluster);
  const int columns = 3 * report.node_clusters;
  solver.analyze(A, MatrixProperties{});
  solver.factorize(A);
  Eigen::MatrixXd GS = Eigen::MatrixXd::Zero(3 * n, columns);  // full rows, fixed ones zero
  {
    Progress progress("partition: force-displacement vectors", static_cast<std::size_t>(columns));
    Eigen::VectorXd b(dofs.num_free()), x;
    for (int col = 0; col < columns; ++col) {
      b.setZero();
      const int cluster = col / 3, component = col % 3;
      for (Index v : free_vertices)
        if (node_cluster[static_cast<std::size_t>(v)] == cluster)
          b[dofs.free_index(3 * v + component)] = 1.0;
      solver.solve(b, x);
      GS.col(col) = dofs.expand_vector(x);
      progress.advance();
    }
  }
  report.seconds_solve = seconds_since(start);

  // 3. Each element's rows: the sum of its four vertices' rows.
  start = Clock::now();
  Eigen::MatrixXd X(3 * static_cast<Eigen::Index>(elements), columns);
  std::vector<int> labels(static_cast<std::size_t>(elements), 0);
  for (Index e = 0; e < elements; ++e) {
    auto rows = X.middleRows(3 * static_cast<Eigen::Index>(e), 3);
    rows = GS.middleRows(3 * static_cast<Eigen::Index>(mesh.tets(e, 0)), 3);
    for (int a = 1; a < 4; ++a)
      rows += GS.middleRows(3 * static_cast<Eigen::Index>(mesh.tets(e, a)), 3);
    if (rows.squaredNorm() == 0) {
      labels[static_cast<std::size_t>(e)] = -1;
      ++report.zero_elements;
    }
  }

  // 4. CPCA into N clusters.
  report.components = settings.components;
  const Cpca clusters = cpca(
      X,
      {.clusters = N, .components = settings.components, .group_size = 3, .seed = settings.seed});
  report.clusters = static_cast<int>(clusters.clusters.size());
  report.cpca_iterations = clusters.iterations;
  for (Index e = 0; e < elements; ++e)
    if (labels[static_cast<std::size_t>(e)] == 0)
      labels[static_cast<std::size_t>(e)] = clusters.cluster_of_group[static_cast<std::size_t>(e)];
  report.seconds_cpca = seconds_since(start);

  // 5. Face-connected domains, small fragments merged.
  start = Clock::now();
  report.min_fragment = settings.min_fragment > 0
                            ? settings.min_fragment
                            : std::max<Index>(1, elements / (10 * static_cast<Index>(N)));
  report.partition = split_into_face_connected_domains(mesh, std::move(labels), report.min_fragment,
                                                       &report.pieces, &report.merged);
  report.seconds_split = seconds_since(start);
  return report;
}

}  // namespace substruct
