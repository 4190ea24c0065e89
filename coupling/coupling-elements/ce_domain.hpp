#pragma once
// A domain of the coupling-elements method (Wu, Mukherjee, Wang 2015, §4.1): the vertices X_i of
// a vertex partition, the elements E_i whose vertices all lie in X_i, a reduced basis of E_i's
// sub-mesh, and a rigid frame at the rest centre of mass — or, when the domain holds fixed
// vertices of the scene, the world frame (an anchored domain: no rigid degrees of freedom, the
// basis fixed at those vertices).
#include <memory>
#include <vector>

#include "substruct/domains/sub_mesh.hpp"
#include "substruct/kinematics/system_forces.hpp"
#include "substruct/reduction/domain_models.hpp"

namespace substruct::coupling_elements {

struct CeDomain {
  int id = 0;
  bool anchored = false;             // holds fixed vertices: frame = world, no v, ω unknowns
  std::vector<Index> global_vertex;  // X_i, sorted
  Points rest;                       // X̄ (frame coordinates) of each vertex of X_i
  Eigen::MatrixXd U;                 // 3|X_i|×r; zero rows for vertices no element of E_i uses
  std::vector<Index> sub_vertex;     // vertex of X_i → its index in `sub` (−1: no element)
  SubMesh sub;                       // E_i and the vertices they use
  std::shared_ptr<const ReducedModel> model;
  SparseMatrix mass;                // consistent mass of `sub` (its local numbering)
  SystemForceIntegrals integrals;   // of `sub` in the frame: mass, inertia, UᵀME, W¹…W⁷
  Vec3 rest_centre = Vec3::Zero();  // world rest position of the frame's origin

  int r() const { return static_cast<int>(U.cols()); }
  /// Unknowns of the step: q̇ (r), and v, ω (3 + 3) unless anchored.
  int unknowns() const { return r() + (anchored ? 0 : 6); }
  /// The local index of global vertex g in X_i (binary search); −1 when it is not there.
  Index local(Index g) const;
};

/// Builds every domain from the scene's element partition turned into a vertex partition (each
/// vertex to the domain owning most of the elements around it, ties to the lowest id), computes
/// or loads each basis
/// (free-flying with the rigid modes removed, or fixed at the scene's fixed vertices) and fills
/// `models` (one DomainModel per domain, for the precompute statistics). Throws Error naming the
/// domain when it keeps no vertex or no element of its own, or its own elements fall apart into
/// pieces joined by no face.
std::vector<CeDomain> build_domains(const Scene& scene, const ReductionSettings& settings,
                                    const SolverProvider& solvers, ModelCache& cache,
                                    std::vector<DomainModel>& models);

}  // namespace substruct::coupling_elements
