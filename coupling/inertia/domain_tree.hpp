// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The static data of every domain of an inertia-coupled scene: its frame's rest origin, local rest
// shape, mass, basis, system-force integrals and the interface frame models of its children
// (Barbič–Zhao 2011, §3–4), and the whole object's rigid-body data for a free-flying root.
#include <memory>
#include <span>
#include <vector>

#include "child_frame_rows.hpp"
#include "substruct/core/types.hpp"
#include "substruct/domains/domain_graph.hpp"
#include "substruct/kinematics/interface_frame.hpp"
#include "substruct/kinematics/system_forces.hpp"
#include "substruct/reduction/domain_models.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct::inertia {

struct InertiaDomain {
  int id = 0;
  int parent = -1;  // −1 for the root
  int depth = 0;
  int child_index = -1;       // this domain's place in its parent's children
  std::vector<int> children;  // ascending ids
  // The children's interface frame models I_ij in this domain's frame (an instance's shared with
  // its representative when they are its turned copies), and how many had the planar fix.
  ChildFrameRows child_rows;
  int planar_interfaces = 0;

  std::span<const Index> global_vertex;  // local → global vertex: the scene's SubMesh map
  Vec3 origin = Vec3::Zero();            // o_i, the frame's rest origin (world)
  // X̄ = X_rest − o_i, the local rest coordinates (rest()): here until a reduced layout takes
  // them (rest_in), then only there, so that a domain's rest shape is held once.
  Points X;
  const Points* rest_in = nullptr;  // the layout's copy once X moved there (then X is empty)
  const Points& rest() const { return rest_in != nullptr ? *rest_in : X; }
  // The consistent mass (3N×3N), kept only when the tree was built with keep_mass (the
  // articulated coupling steps with it); empty otherwise: mass_matrix() assembles it again.
  SparseMatrix M;
  Eigen::VectorXd vertex_mass;  // lumped (row-sum) mass per local vertex
  // Null for a rigid domain; a turned copy's may be its representative's (turned_model).
  std::shared_ptr<const ReducedModel> model;
  // The basis when it is not the model's: 3N×0 for a rigid domain, a turned copy's own.
  Eigen::MatrixXd own_basis;
  // A turned copy that stores no basis: U = (I ⊗ model_turn) U_model (reduction/instancing.hpp's
  // turned_basis), made when needed (it shares its representative's integrals and layout).
  bool turned_model = false;
  Mat3 model_turn = Mat3::Identity();
  Vec3 first_moment_world = Vec3::Zero();  // ∫ρ X_rest dV
  // W¹…W⁷, m, UᵀME. An instance (Zhao 2014, §4.2) shares its representative's, which are written
  // in the representative's frame axes: with this domain's X̄ = R X̄_rep + δ and U = (I ⊗ R) U_rep
  // (R = integral_rotation, δ = integral_offset; R = I, δ = 0 for integrals of its own).
  std::shared_ptr<const SystemForceIntegrals> integrals;
  int integrals_of = -1;  // the representative whose integrals (and rest shape, basis) these are
  Mat3 integral_rotation = Mat3::Identity();
  Vec3 integral_offset = Vec3::Zero();

  /// The stored basis (3N×r): the model's (one copy however many instances share the model) or
  /// own_basis (3N×0 for a rigid domain). Error for a turned_model domain: basis(), basis_rows().
  const Eigen::MatrixXd& U() const;
  /// U, made for a turned_model domain (the numbers instance_model would have stored).
  Eigen::MatrixXd basis() const;
  /// Rows 3l … 3l + 2 of the basis (3×r), without a copy: a view of the stored basis, or, for a
  /// turned_model domain, R U_l of the shared one evaluated into `turned` (resized to 3×r; a
  /// caller that keeps it from call to call allocates once).
  Eigen::Ref<const Eigen::MatrixXd> basis_rows(Index l, Eigen::MatrixXd& turned) const;
  int r() const { return model ? model->r() : 0; }
  /// M when it was kept, else the consistent mass of the domain's sub-mesh in `scene` (the same
  /// numbers: fem/mass.hpp's consistent_mass).
  SparseMatrix mass_matrix(const Scene& scene) const;
  /// The bytes this domain's own data takes (its share of what it shares with other domains
  /// not counted): vectors, matrices and the interface frame columns it does not share.
  std::size_t own_bytes() const;
  double mass() const { return integrals->mass(); }
  /// Whether the integrals are this domain's own (R = I, δ = 0).
  bool own_integrals() const;
  /// The frame's motion (this domain's axes) as the integrals see it, in their axes and origin:
  /// v' = Rᵀ(v + ω × δ), a' = Rᵀ(a + α × δ + ω × (ω × δ)), ω' = Rᵀω, α' = Rᵀα.
  FrameMotion integral_motion(const FrameMotion& frame) const;
  /// ∫ρ x dV of the deformed domain (this domain's axes): R S'(q) + m δ.
  Vec3 first_moment(const Eigen::VectorXd& q) const;
  /// Eq. 13–14, f_sys for the frame's motion (this domain's axes), through the shared integrals
  /// (at integral_motion(frame)).
  void system_force(const FrameMotion& frame, const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                    Eigen::VectorXd& f) const;
};

struct DomainTree {
  TreeView tree;
  std::vector<InertiaDomain> domains;  // by domain id
  double mass = 0;                     // the whole object's
  Vec3 center = Vec3::Zero();          // rest centre of mass (world)
  Mat3 inertia = Mat3::Zero();         // rest inertia tensor about `center` (world axes)
  int shared_integrals = 0;            // instances using their representative's integrals
  int shared_child_frames = 0;         // instances using their representative's child frames
};

/// Builds the tree's data from the scene and its domain models (domains listed in `rigid` get
/// r = 0 whatever their model); each domain's mass matrix M is kept with `keep_mass` only. Frames:
/// o = 0 for a fixed root, the rest centre of mass of the whole object for a free-flying one; a
/// child's origin is the weighted rest centroid of the interface to its parent (weights: the
/// parent's lumped vertex masses). Throws Error naming the two domains when an interface cannot
/// carry a frame (fewer than 3 vertices, or collinear).
DomainTree build_domain_tree(const Scene& scene, const std::vector<DomainModel>& models,
                             const std::vector<bool>& rigid, bool free_flying,
                             double planar_epsilon, bool keep_mass = false);

}  // namespace substruct::inertia
