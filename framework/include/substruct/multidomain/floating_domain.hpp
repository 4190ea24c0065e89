// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A domain that moves as a rigid body plus a reduced deformation in its own frame
/// (Wu, Mukherjee, Wang 2015, §3–4; Kim & James 2011): world position x = c + R (X̄ + U q). Used by
/// the coupling methods that couple such domains by forces: coupling elements (vertex-partitioned
/// domains, §4.1) and springs between the copies of interface vertices (element-partitioned
/// domains). A domain holding fixed vertices of the scene is anchored: its frame is the world's,
/// it has no rigid unknowns and its basis is fixed at those vertices; any other domain is
/// free-flying (basis with the six rigid modes removed, frame at its rest centre of mass).
#include <memory>
#include <vector>

#include "substruct/domains/sub_mesh.hpp"
#include "substruct/kinematics/system_forces.hpp"
#include "substruct/reduction/domain_models.hpp"

namespace substruct {

/// How a scene's element partition becomes domains.
/// vertices: each vertex goes to the domain owning most of the elements around it (ties to the
///   lowest id); a domain keeps the elements whose 4 vertices are all its own (§4.1): the others
///   are the coupling elements, and no vertex is duplicated.
/// elements: each domain keeps all its elements; a vertex on an interface has one copy per domain.
enum class DomainSplit { vertices, elements };

struct FloatingDomain {
  int id = 0;
  /// The frame is the world's and there are no v, ω unknowns: the domain holds fixed vertices,
  /// or it is simulated in full space.
  bool anchored = false;
  bool full_space = false;           // q = its free DOFs, forces of the full FEM model (§7)
  std::vector<Index> global_vertex;  // the domain's vertices, sorted
  Points rest;                       // X̄ (frame coordinates) of each of them
  /// 3n×r: the reduced model's basis at the vertices of `sub`, zero at the others, less its
  /// mass-weighted translation for a free domain (UᵀM1 = 0; the reduced forces are unchanged).
  Eigen::MatrixXd U;
  std::vector<Index> sub_vertex;  // vertex → its index in `sub` (−1: in no element of sub)
  SubMesh sub;                    // the domain's own elements and the vertices they use
  std::shared_ptr<const ReducedModel> model;  // forces f(q), K(q) of `sub`
  /// 3n×3n over the domain's vertices: the consistent mass of its own elements plus, with the
  /// vertex split, the lumped share ρV/4 of the coupling elements at each vertex.
  SparseMatrix mass;
  Eigen::MatrixXd reduced_mass;  // Uᵀ M U (r×r; the identity without coupling mass)
  Eigen::Matrix<double, Eigen::Dynamic, 3> gravity_force;  // UᵀME: f = UᵀME (Rᵀ g)
  SystemForceIntegrals integrals;   // free domains, in the frame: m, I, UᵀME, W¹…W⁷
  Vec3 rest_centre = Vec3::Zero();  // world rest position of the frame's origin

  int r() const { return static_cast<int>(U.cols()); }
  /// Unknowns of a velocity-level step: q̇ (r), and v, ω (3 + 3) unless anchored.
  int unknowns() const { return r() + (anchored ? 0 : 6); }
  /// The local index of global vertex g (binary search); −1 when it is not the domain's.
  Index local(Index g) const;
};

/// A domain's state: frame rotation R, origin c, linear and angular velocity v, ω (all world),
/// reduced coordinates q and velocities q̇.
struct DomainMotion {
  Mat3 R = Mat3::Identity();
  Vec3 c = Vec3::Zero();
  Vec3 v = Vec3::Zero();
  Vec3 omega = Vec3::Zero();
  Eigen::VectorXd q, qdot;
};

/// World position c + R (X̄_l + U_l q) of local vertex l.
Vec3 vertex_position(const FloatingDomain& d, const DomainMotion& m, Index l);

/// ∂ẋ_l/∂(q̇, v, ω), world axes (3 × d.unknowns()): [R U_l, I, −(R x̃_l)~], x̃_l = X̄_l + U_l q
/// (ẋ = R U q̇ + v + ω × R x̃; Wu et al. 2015, App. B).
/// J must be 3 × d.unknowns() (e.g. three rows of a larger matrix); nothing is allocated.
void vertex_jacobian(const FloatingDomain& d, const DomainMotion& m, Index l,
                     Eigen::Ref<Eigen::MatrixXd> J);

/// Builds the domains of the scene's element partition split as `split` asks, computes or loads
/// each basis (settings.modes modes; from `cache` when it holds them) and fills `models` (one per
/// domain, for the precompute statistics). Throws Error naming the domain when it keeps no vertex
/// or no element of its own, when its own elements fall apart into pieces joined by no face, or
/// when a fixed vertex lies only in elements shared with other domains. The domains listed in
/// `full_space` are simulated in full space (FullSpaceForceModel: q = the free DOFs of their own
/// elements, frame = world), e.g. an interface region no small basis captures (Wu et al. 2015, §7).
std::vector<FloatingDomain> build_floating_domains(const Scene& scene, DomainSplit split,
                                                   const ReductionSettings& settings,
                                                   const SolverProvider& solvers, ModelCache& cache,
                                                   std::vector<DomainModel>& models,
                                                   const std::vector<int>& full_space = {});

}  // namespace substruct
