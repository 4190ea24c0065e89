// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/multidomain/floating_domain.hpp"
#include "substruct/core/stopwatch.hpp"

#include <algorithm>
#include <array>
#include <chrono>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/domains/element_partition.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/kinematics/skew.hpp"
#include "substruct/reduction/full_space_force_model.hpp"
#include "substruct/reduction/reduced_model.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct {

namespace {

// Each vertex goes to the domain owning most of the elements around it (ties: the lowest id):
// at a branch's base the trunk keeps the vertices, so the trunk's own elements stay in one piece.
std::vector<int> majority_owners(const TetMesh& mesh, const ElementPartition& partition) {
  const int nd = partition.num_domains;
  std::vector<std::vector<std::pair<int, int>>> count(
      static_cast<std::size_t>(mesh.num_vertices()));
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    const int d = partition.domain_of_element[static_cast<std::size_t>(e)];
    for (int a = 0; a < 4; ++a) {
      auto& c = count[static_cast<std::size_t>(mesh.tets(e, a))];
      auto it = std::find_if(c.begin(), c.end(), [d](const auto& p) { return p.first == d; });
      if (it == c.end())
        c.emplace_back(d, 1);
      else
        ++it->second;
    }
  }
  std::vector<int> owner(count.size(), -1);
  std::vector<int> kept(static_cast<std::size_t>(nd), 0);
  for (std::size_t v = 0; v < count.size(); ++v) {
    for (const auto& [d, n] : count[v]) {
      if (owner[v] < 0) {
        owner[v] = d;
        continue;
      }
      const int best = std::find_if(count[v].begin(), count[v].end(), [&](const auto& p) {
                         return p.first == owner[v];
                       })->second;
      if (n > best || (n == best && d < owner[v])) owner[v] = d;
    }
    if (owner[v] >= 0) ++kept[static_cast<std::size_t>(owner[v])];
  }
  for (int d = 0; d < nd; ++d)
    if (kept[static_cast<std::size_t>(d)] == 0)
      throw Error(fmt::format(
          "floating domains: domain {} keeps no vertex (every one of its vertices is shared with "
          "a domain that has more elements there); use fewer, larger domains",
          d));
  return owner;
}

// The number of pieces `elements` form when only shared faces connect them.
int face_connected_pieces(const TetMesh& mesh, const std::vector<Index>& elements) {
  std::vector<int> parent(elements.size());
  for (std::size_t k = 0; k < parent.size(); ++k) parent[k] = static_cast<int>(k);
  const auto find = [&](int k) {
    while (parent[static_cast<std::size_t>(k)] != k)
      k = parent[static_cast<std::size_t>(k)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(k)])];
    return k;
  };
  std::vector<std::pair<std::array<Index, 3>, int>> faces;
  for (std::size_t k = 0; k < elements.size(); ++k)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f{};
      int n = 0;
      for (int a = 0; a < 4; ++a)
        if (a != skip) f[static_cast<std::size_t>(n++)] = mesh.tets(elements[k], a);
      std::sort(f.begin(), f.end());
      faces.emplace_back(f, static_cast<int>(k));
    }
  std::sort(faces.begin(), faces.end());
  for (std::size_t k = 1; k < faces.size(); ++k)
    if (faces[k].first == faces[k - 1].first)
      parent[static_cast<std::size_t>(find(faces[k].second))] = find(faces[k - 1].second);
  int pieces = 0;
  for (std::size_t k = 0; k < parent.size(); ++k)
    pieces += find(static_cast<int>(k)) == static_cast<int>(k) ? 1 : 0;
  return pieces;
}

// A domain simulated in full space: its "basis" selects the free DOFs of its own elements.
DomainModel full_space_model(const FloatingDomain& d, const Scene& scene,
                             const DomainBoundary& boundary) {
  const auto start = Clock::now();
  auto model = std::make_shared<ReducedModel>();
  auto forces = std::make_shared<FullSpaceForceModel>(d.sub.mesh, scene.material_model,
                                                      boundary.fixed_vertices);
  model->basis.U = forces->selection();
  model->forces = forces;
  model->vertices = d.sub.mesh.num_vertices();
  model->elements = d.sub.mesh.num_elements();
  DomainModel m;
  m.domain = m.representative = d.id;
  m.model = model;
  m.origin = ModelOrigin::computed;
  m.seconds = seconds_since(start);
  log::info("domain {}: full space, {} DOFs", d.id, forces->r());
  return m;
}

}  // namespace

Index FloatingDomain::local(Index g) const {
  const auto it = std::lower_bound(global_vertex.begin(), global_vertex.end(), g);
  return it != global_vertex.end() && *it == g ? static_cast<Index>(it - global_vertex.begin())
                                               : -1;
}

std::vector<FloatingDomain> build_floating_domains(const Scene& scene, DomainSplit split,
                                                   const ReductionSettings& settings,
                                                   const SolverProvider& solvers, ModelCache& cache,
                                                   std::vector<DomainModel>& models,
                                                   const std::vector<int>& full_space) {
  const TetMesh& mesh = scene.mesh;
  const int nd = scene.decomposition.partition.num_domains;
  std::vector<FloatingDomain> domains(static_cast<std::size_t>(nd));
  for (int i = 0; i < nd; ++i) domains[static_cast<std::size_t>(i)].id = i;
  std::vector<std::vector<Index>> own(static_cast<std::size_t>(nd));  // each domain's elements
  if (split == DomainSplit::elements) {
    for (const SubMesh& sub : scene.decomposition.domains) {
      domains[static_cast<std::size_t>(sub.domain)].global_vertex = sub.global_vertex;
      own[static_cast<std::size_t>(sub.domain)] = sub.global_element;
    }
  } else {
    const std::vector<int> owner = majority_owners(mesh, scene.decomposition.partition);
    for (Index v = 0; v < mesh.num_vertices(); ++v)
      if (const int d = owner[static_cast<std::size_t>(v)]; d >= 0)
        domains[static_cast<std::size_t>(d)].global_vertex.push_back(v);
    // E_i: the elements whose four vertices all lie in X_i.
    for (Index e = 0; e < mesh.num_elements(); ++e) {
      const int d = owner[static_cast<std::size_t>(mesh.tets(e, 0))];
      bool inside = true;
      for (int a = 1; a < 4; ++a)
        inside = inside && owner[static_cast<std::size_t>(mesh.tets(e, a))] == d;
      if (inside) own[static_cast<std::size_t>(d)].push_back(e);
    }
  }

  // The coupling elements' lumped vertex masses (vertex split only: with the element split every
  // element belongs to a domain).
  Eigen::VectorXd coupling_mass = Eigen::VectorXd::Zero(mesh.num_vertices());
  if (split == DomainSplit::vertices) {
    std::vector<char> owned(static_cast<std::size_t>(mesh.num_elements()), 0);
    for (const auto& elements : own)
      for (Index e : elements) owned[static_cast<std::size_t>(e)] = 1;
    const TetGeometry geometry = TetGeometry::build(mesh);
    for (Index e = 0; e < mesh.num_elements(); ++e) {
      if (owned[static_cast<std::size_t>(e)]) continue;
      const double rho = mesh.materials[static_cast<std::size_t>(
                                            mesh.element_material[static_cast<std::size_t>(e)])]
                             .density;
      for (int a = 0; a < 4; ++a)
        coupling_mass[mesh.tets(e, a)] += rho * geometry.volume[static_cast<std::size_t>(e)] / 4;
    }
  }

  // The domains' own elements and boundary conditions, then every reduced basis through the one
  // model provider (sizes, instancing, cache), then the rest of each domain.
  std::vector<DomainBoundary> boundaries(domains.size());
  for (FloatingDomain& d : domains) {
    const auto& elements = own[static_cast<std::size_t>(d.id)];
    if (elements.empty())
      throw Error(fmt::format(
          "floating domains: domain {} keeps no element of its own (all {} of its vertices lie "
          "in elements shared with other domains); use fewer, larger domains",
          d.id, d.global_vertex.size()));
    if (const int pieces = face_connected_pieces(mesh, elements); pieces > 1)
      throw Error(fmt::format(
          "floating domains: domain {}'s own elements (those not shared with other domains) "
          "fall apart into {} pieces joined by no face, which would move freely; use fewer, "
          "larger domains or a partition with thicker domains",
          d.id, pieces));
    d.sub = extract_sub_mesh(mesh, elements, d.id);
    const Index n = static_cast<Index>(d.global_vertex.size());
    d.sub_vertex.assign(static_cast<std::size_t>(n), -1);
    for (Index l = 0; l < n; ++l)
      d.sub_vertex[static_cast<std::size_t>(l)] =
          d.sub.local_vertex(d.global_vertex[static_cast<std::size_t>(l)]);

    DomainBoundary boundary;
    for (Index f : scene.fixed_vertices)
      if (const Index l = d.sub.local_vertex(f); l >= 0) boundary.fixed_vertices.push_back(l);
    d.full_space = std::find(full_space.begin(), full_space.end(), d.id) != full_space.end();
    d.anchored = !boundary.fixed_vertices.empty() || d.full_space;
    for (Index f : scene.fixed_vertices)
      if (boundary.fixed_vertices.empty() && d.local(f) >= 0)
        throw Error(fmt::format(
            "floating domains: fixed vertex {} of domain {} lies only in elements shared with "
            "other domains; fix vertices inside a domain",
            f, d.id));
    boundary.remove_rigid_modes = !d.anchored;
    boundaries[static_cast<std::size_t>(d.id)] = boundary;
  }
  std::vector<ModelRequest> requests;
  for (const FloatingDomain& d : domains)
    if (!d.full_space)
      requests.push_back({d.id, &d.sub.mesh, boundaries[static_cast<std::size_t>(d.id)]});
  const std::vector<DomainModel> reduced =
      provide_domain_models(requests, scene.material_model, settings, solvers, cache);

  models.clear();
  auto next_reduced = reduced.begin();
  for (FloatingDomain& d : domains) {
    const Index n = static_cast<Index>(d.global_vertex.size());
    const DomainModel m =
        d.full_space ? full_space_model(d, scene, boundaries[static_cast<std::size_t>(d.id)])
                     : *next_reduced++;
    d.model = m.model;
    models.push_back(m);

    // The mass over the domain's vertices: the consistent mass of its own elements plus the
    // lumped share ρV/4 of the coupling elements around it (they are simulated through the
    // domains, so their mass moves with them).
    const SparseMatrix own_mass = consistent_mass(d.sub.mesh);
    std::vector<Index> domain_index(d.sub.global_vertex.size());
    for (std::size_t k = 0; k < domain_index.size(); ++k)
      domain_index[k] = d.local(d.sub.global_vertex[k]);
    std::vector<Eigen::Triplet<double>> entries;
    for (Index c = 0; c < own_mass.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(own_mass, c); it; ++it)
        entries.emplace_back(
            3 * domain_index[static_cast<std::size_t>(it.row() / 3)] + it.row() % 3,
            3 * domain_index[static_cast<std::size_t>(it.col() / 3)] + it.col() % 3, it.value());
    for (Index l = 0; l < n; ++l)
      if (const double share = coupling_mass[d.global_vertex[static_cast<std::size_t>(l)]];
          share > 0)
        for (int k = 0; k < 3; ++k) entries.emplace_back(3 * l + k, 3 * l + k, share);
    d.mass = SparseMatrix(3 * n, 3 * n);
    d.mass.setFromTriplets(entries.begin(), entries.end());

    const Eigen::MatrixXd& Usub = d.model->basis.U;
    Points X(n, 3);
    d.U = Eigen::MatrixXd::Zero(3 * n, Usub.cols());
    int loose = 0;
    for (Index l = 0; l < n; ++l) {
      X.row(l) = mesh.vertices.row(d.global_vertex[static_cast<std::size_t>(l)]);
      if (const Index s = d.sub_vertex[static_cast<std::size_t>(l)]; s >= 0)
        d.U.middleRows<3>(3 * l) = Usub.middleRows<3>(3 * s);
      else
        ++loose;
    }
    // The frame: the world frame when anchored, else at the rest centre of mass.
    if (!d.anchored) {
      const SystemForceIntegrals world(X, d.mass, d.U);
      d.rest_centre = world.first_moment() / world.mass();
      // No translation in the basis under this mass (UᵀM1 = 0): the deformation then carries no
      // momentum. Exact for the reduced forces: a uniform translation changes neither the StVK
      // forces nor, as they sum to zero, their projection.
      if (d.r() > 0) {
        const Eigen::VectorXd M1 = d.mass * Eigen::VectorXd::Ones(3 * n);
        Eigen::MatrixXd T = Eigen::MatrixXd::Zero(3, d.r());  // Σ_l m_l U_l / m
        for (Index l = 0; l < n; ++l) T += M1[3 * l] * d.U.middleRows<3>(3 * l);
        T /= world.mass();
        for (Index l = 0; l < n; ++l) d.U.middleRows<3>(3 * l) -= T;
      }
    }
    d.rest = X.rowwise() - d.rest_centre.transpose();
    // UᵀME: gravity's reduced force. The inertial integrals only for a moving frame.
    Eigen::MatrixXd E = Eigen::MatrixXd::Zero(3 * n, 3);
    for (Index l = 0; l < n; ++l) E.middleRows<3>(3 * l).setIdentity();
    d.gravity_force = d.U.transpose() * (d.mass * E);
    if (!d.anchored) d.integrals = SystemForceIntegrals(d.rest, d.mass, d.U);
    d.reduced_mass = d.U.transpose() * (d.mass * d.U);
    if (loose > 0)
      log::info(
          "floating domains: domain {}: {} of its {} vertices lie only in coupling elements; "
          "they move with its frame",
          d.id, loose, n);
  }
  return domains;
}

Vec3 vertex_position(const FloatingDomain& d, const DomainMotion& m, Index l) {
  Vec3 x = d.rest.row(l).transpose();
  if (d.r() > 0) x.noalias() += d.U.middleRows<3>(3 * l) * m.q;
  return m.c + m.R * x;
}

void vertex_jacobian(const FloatingDomain& d, const DomainMotion& m, Index l,
                     Eigen::Ref<Eigen::MatrixXd> J) {
  const int r = d.r();
  if (J.rows() != 3 || J.cols() != d.unknowns())
    throw Error(fmt::format("vertex Jacobian: {}×{} for domain {} with {} unknowns", J.rows(),
                            J.cols(), d.id, d.unknowns()));
  if (r > 0) J.leftCols(r).noalias() = m.R * d.U.middleRows<3>(3 * l);
  if (!d.anchored) {
    Vec3 x = d.rest.row(l).transpose();
    if (r > 0) x.noalias() += d.U.middleRows<3>(3 * l) * m.q;
    J.middleCols<3>(r) = Mat3::Identity();   // ∂ẋ/∂v
    J.middleCols<3>(r + 3) = -hat(m.R * x);  // ω × (R x̃) = −(R x̃)~ ω
  }
}

}  // namespace substruct
