// SPDX-License-Identifier: GPL-3.0-or-later
#include "domain_tree.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "domain_energy.hpp"
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

// The offset δ when an instance can use its representative's integrals: same basis size, rest
// shape and basis the rotated copies (X̄ = R X̄_rep + δ, U = (I ⊗ R) U_rep) to round-off, and the
// same vertex masses; nothing otherwise. (Scaled instances have their own: their integrals scale
// too.)
std::optional<Vec3> shared_integrals_offset(const InertiaDomain& dom, const InertiaDomain& rep,
                                            const SimilarityTransform& transform) {
  if (transform.scale != 1 || rep.r() != dom.r() || rep.X.rows() != dom.X.rows() || !rep.integrals)
    return std::nullopt;
  const Mat3& R = transform.rotation;
  const Points moved = rep.X * R.transpose();
  const Vec3 offset = (dom.X - moved).colwise().mean();
  const double size = (dom.X.colwise().maxCoeff() - dom.X.colwise().minCoeff()).norm();
  if (((dom.X - moved).rowwise() - offset.transpose()).cwiseAbs().maxCoeff() > 1e-9 * size)
    return std::nullopt;
  double basis = 0, scale = 0;
  Eigen::MatrixXd turned;
  for (Index l = 0; l < dom.X.rows(); ++l) {
    const Eigen::Ref<const Eigen::MatrixXd> rows = dom.basis_rows(l, turned);
    basis = std::max(basis, (rows - R * rep.U().middleRows<3>(3 * l)).cwiseAbs().maxCoeff());
    scale = std::max(scale, rows.cwiseAbs().maxCoeff());
  }
  if (basis > 1e-9 * scale ||
      (dom.vertex_mass - rep.vertex_mass).cwiseAbs().maxCoeff() > 1e-12 * dom.vertex_mass.sum())
    return std::nullopt;
  return offset;
}

}  // namespace

DomainTree build_domain_tree(const Scene& scene, const std::vector<DomainModel>& models,
                             const std::vector<bool>& rigid, bool free_flying,
                             double planar_epsilon, bool keep_mass) {
  DomainTree t;
  t.tree = scene.graph.rooted_at(scene.root);
  const int d = scene.num_domains();
  t.domains.resize(static_cast<std::size_t>(d));

  // Mass and rest first moment per domain (world coordinates), the whole object's centre.
  for (int i = 0; i < d; ++i) {
    InertiaDomain& dom = t.domains[static_cast<std::size_t>(i)];
    const SubMesh& sub = scene.decomposition.domains[static_cast<std::size_t>(i)];
    dom.id = i;
    dom.global_vertex = sub.global_vertex;
    dom.vertex_mass = lumped_vertex_mass(sub.mesh);
    dom.first_moment_world = sub.mesh.vertices.transpose() * dom.vertex_mass;  // row sums of M
    t.mass += dom.vertex_mass.sum();
    t.center += dom.first_moment_world;
  }
  t.center /= t.mass;

  // The children's frame models, until the instances among the domains are known.
  std::vector<std::vector<InterfaceFrameModel>> child_frames(static_cast<std::size_t>(d));
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
      dom.turned_model = dm.turned_representative;
      if (dom.turned_model) dom.model_turn = dm.transform.rotation;
    } else {
      dom.own_basis.resize(3 * sub.mesh.num_vertices(), 0);
    }

    std::vector<InterfaceFrameModel>& frames = child_frames[static_cast<std::size_t>(i)];
    for (int j : dom.children) {
      t.domains[static_cast<std::size_t>(j)].child_index = static_cast<int>(frames.size());
      const int itf_index = t.tree.parent_interface[static_cast<std::size_t>(j)];
      const Interface& itf = scene.decomposition.interfaces.at(static_cast<std::size_t>(itf_index));
      const auto m = static_cast<Index>(itf.vertices.size());
      Points X(m, 3);
      Eigen::MatrixXd Uk(3 * m, dom.r());
      Eigen::VectorXd w(m);
      Eigen::MatrixXd turned;
      for (Index k = 0; k < m; ++k) {
        const Index l = sub.local_vertex(itf.vertices[static_cast<std::size_t>(k)]);
        X.row(k) = dom.X.row(l);
        Uk.middleRows(3 * k, 3) = dom.basis_rows(l, turned);
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
      dom.planar_interfaces += frame.planar ? 1 : 0;
      frames.push_back(std::move(frame));
    }
  }
  // The rest second moments, system-force integrals and the children's frame models, in domain
  // order: a representative (the lowest id of its class) comes before its instances. An instance
  // whose children hang as the representative's do shares their frame models too. One domain's
  // mass matrix at a time (kept with keep_mass). A rigid domain's integrals are its mass and
  // moments alone, integrated over its tets without a mass matrix (unless it is kept).
  Mat3 second = Mat3::Zero();
  for (int i = 0; i < d; ++i) {
    InertiaDomain& dom = t.domains[static_cast<std::size_t>(i)];
    const SubMesh& sub = scene.decomposition.domains[static_cast<std::size_t>(i)];
    if (dom.r() == 0 && !keep_mass) {
      second += mass_moments(sub.mesh).second;
      const MassMoments own = mass_moments(sub.mesh, dom.origin);  // about the frame's origin
      dom.integrals = std::make_shared<const SystemForceIntegrals>(own.mass, own.first, own.second);
      dom.child_rows = ChildFrameRows(child_frames[static_cast<std::size_t>(i)]);
      std::vector<InterfaceFrameModel>().swap(child_frames[static_cast<std::size_t>(i)]);
      continue;
    }
    SparseMatrix M = consistent_mass(sub.mesh);
    second += second_moment(M, sub.mesh.vertices);
    std::vector<InterfaceFrameModel>& frames = child_frames[static_cast<std::size_t>(i)];
    const DomainModel& dm = models.at(static_cast<std::size_t>(i));
    if (dm.origin == ModelOrigin::instance && dm.representative < i && dom.r() > 0) {
      const InertiaDomain& rep = t.domains[static_cast<std::size_t>(dm.representative)];
      if (const auto offset = shared_integrals_offset(dom, rep, dm.transform)) {
        dom.integrals = rep.integrals;
        dom.integrals_of = dm.representative;
        dom.integral_rotation = dm.transform.rotation;
        dom.integral_offset = *offset;
        ++t.shared_integrals;
        ChildFrameRows rows = rep.child_rows.turned(dom.integral_rotation, dom.integral_offset);
        if (!frames.empty() && rows.equals(frames)) {
          dom.child_rows = std::move(rows);
          ++t.shared_child_frames;
        }
      }
    }
    if (!dom.integrals) {
      if (dom.turned_model) {  // a turned copy with integrals of its own stores its basis
        dom.own_basis = dom.basis();
        dom.turned_model = false;
      }
      dom.integrals = std::make_shared<const SystemForceIntegrals>(dom.X, M, dom.U());
    }
    if (!dom.child_rows.shares_columns()) dom.child_rows = ChildFrameRows(frames);
    std::vector<InterfaceFrameModel>().swap(frames);
    if (keep_mass) dom.M = std::move(M);
  }
  // I = tr(J) I − J with J = ∫ρ (X − c)(X − c)ᵀ = ∫ρ X Xᵀ − m c cᵀ.
  const Mat3 J = second - t.mass * t.center * t.center.transpose();
  t.inertia = J.trace() * Mat3::Identity() - J;
  return t;
}

const Eigen::MatrixXd& InertiaDomain::U() const {
  if (turned_model)
    throw Error(fmt::format("inertia: domain {} stores no basis of its own (a turned copy)", id));
  return model && own_basis.cols() == 0 ? model->basis.U : own_basis;
}

Eigen::MatrixXd InertiaDomain::basis() const {
  return turned_model ? turned_basis(model->basis.U, model_turn) : U();
}

Eigen::Ref<const Eigen::MatrixXd> InertiaDomain::basis_rows(Index l,
                                                            Eigen::MatrixXd& turned) const {
  if (!turned_model) return U().middleRows(3 * l, 3);
  turned.resize(3, model->basis.U.cols());
  turned.middleRows<3>(0) = model_turn * model->basis.U.middleRows<3>(3 * l);  // turned_basis's
  return turned;
}

SparseMatrix InertiaDomain::mass_matrix(const Scene& scene) const {
  if (M.size() > 0) return M;
  return consistent_mass(scene.decomposition.domains.at(static_cast<std::size_t>(id)).mesh);
}

bool InertiaDomain::own_integrals() const {
  return integral_rotation == Mat3::Identity() && integral_offset == Vec3::Zero();
}

FrameMotion InertiaDomain::integral_motion(const FrameMotion& frame) const {
  if (own_integrals()) return frame;
  const Mat3 Rt = integral_rotation.transpose();
  const Vec3& w = frame.omega;
  const Vec3& d = integral_offset;
  FrameMotion turned;
  turned.v = Rt * (frame.v + w.cross(d));
  turned.a = Rt * (frame.a + frame.alpha.cross(d) + w.cross(w.cross(d)));
  turned.omega = Rt * w;
  turned.alpha = Rt * frame.alpha;
  return turned;
}

Vec3 InertiaDomain::first_moment(const Eigen::VectorXd& q) const {
  return integral_rotation * deformed_first_moment(*integrals, q) + mass() * integral_offset;
}

void InertiaDomain::system_force(const FrameMotion& frame, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& qdot, Eigen::VectorXd& f) const {
  if (own_integrals())
    integrals->evaluate(frame, q, qdot, f);
  else
    integrals->evaluate(integral_motion(frame), q, qdot, f);
}

}  // namespace substruct::inertia
