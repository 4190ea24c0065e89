#include "domain_tree.hpp"

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/fem/mass.hpp"

namespace substruct::inertia {
namespace {

// Σ_ab M_ab X_a X_bᵀ over the x–x entries of the consistent mass: ∫ρ X Xᵀ dV (exact for the
// linear interpolation of X on each tetrahedron).
Mat3 second_moment(const SparseMatrix& M, const Points& X) {
  Mat3 S = Mat3::Zero();
  for (int col = 0; col < M.outerSize(); col += 3)
    for (SparseMatrix::InnerIterator it(M, col); it; ++it)
      if (it.row() % 3 == 0) S += it.value() * X.row(it.row() / 3).transpose() * X.row(col / 3);
  return S;
}

}  // namespace

DomainTree build_domain_tree(const Scene& scene, const std::vector<DomainModel>& models,
                             const std::vector<bool>& rigid, bool free_flying,
                             double planar_epsilon) {
  DomainTree t;
  t.tree = scene.graph.rooted_at(scene.root);
  const int d = scene.num_domains();
  t.domains.resize(static_cast<std::size_t>(d));

  // Mass, rest moments per domain (world coordinates), and the whole object's rigid-body data.
  Mat3 second = Mat3::Zero();
  for (int i = 0; i < d; ++i) {
    InertiaDomain& dom = t.domains[static_cast<std::size_t>(i)];
    const SubMesh& sub = scene.decomposition.domains[static_cast<std::size_t>(i)];
    dom.id = i;
    dom.global_vertex = sub.global_vertex;
    dom.M = consistent_mass(sub.mesh);
    dom.vertex_mass = lumped_vertex_mass(sub.mesh);
    dom.first_moment_world = sub.mesh.vertices.transpose() * dom.vertex_mass;  // row sums of M
    t.mass += dom.vertex_mass.sum();
    t.center += dom.first_moment_world;
    second += second_moment(dom.M, sub.mesh.vertices);
  }
  t.center /= t.mass;
  // I = tr(J) I − J with J = ∫ρ (X − c)(X − c)ᵀ = ∫ρ X Xᵀ − m c cᵀ.
  const Mat3 J = second - t.mass * t.center * t.center.transpose();
  t.inertia = J.trace() * Mat3::Identity() - J;

  for (int i : t.tree.bfs_order) {
    InertiaDomain& dom = t.domains[static_cast<std::size_t>(i)];
    const SubMesh& sub = scene.decomposition.domains[static_cast<std::size_t>(i)];
    dom.parent = t.tree.parent[static_cast<std::size_t>(i)];
    dom.depth = t.tree.depth[static_cast<std::size_t>(i)];
    dom.children = t.tree.children[static_cast<std::size_t>(i)];
    if (dom.parent < 0) dom.origin = free_flying ? t.center : Vec3::Zero();
    // (A child's origin was set by its parent below.)
    dom.X = sub.mesh.vertices.rowwise() - dom.origin.transpose();
    const DomainModel& dm = models.at(static_cast<std::size_t>(i));
    if (!rigid[static_cast<std::size_t>(i)] && dm.model && dm.model->r() > 0) {
      dom.model = dm.model;
      dom.U = dm.model->basis.U;
    } else {
      dom.U.resize(3 * sub.mesh.num_vertices(), 0);
    }
    dom.integrals = SystemForceIntegrals(dom.X, dom.M, dom.U);

    for (int j : dom.children) {
      const int itf_index = t.tree.parent_interface[static_cast<std::size_t>(j)];
      const Interface& itf = scene.decomposition.interfaces.at(static_cast<std::size_t>(itf_index));
      const auto m = static_cast<Index>(itf.vertices.size());
      Points X(m, 3);
      Eigen::MatrixXd Uk(3 * m, dom.r());
      Eigen::VectorXd w(m);
      for (Index k = 0; k < m; ++k) {
        const Index l = sub.local_vertex(itf.vertices[static_cast<std::size_t>(k)]);
        X.row(k) = dom.X.row(l);
        Uk.middleRows(3 * k, 3) = dom.U.middleRows(3 * l, 3);
        w[k] = dom.vertex_mass[l];
      }
      InterfaceFrameModel frame;
      try {
        frame = fit_interface_frame(X, Uk, w, Mat3::Identity(), planar_epsilon);
      } catch (const Error& e) {
        throw Error(fmt::format(
            "inertia: the interface between domains {} and {} cannot carry a frame: {} (merge "
            "the two domains or choose another partition)",
            i, j, e.what()));
      }
      t.domains[static_cast<std::size_t>(j)].origin = dom.origin + frame.x_hat;  // o_j = x̂_ij
      dom.child_frames.push_back(std::move(frame));
    }
  }
  return t;
}

}  // namespace substruct::inertia
