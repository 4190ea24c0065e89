// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Instancing (Zhao 2014, §4.1 step 2 and §4.2; Barbič–Zhao 2011, §5): domains whose sub-meshes
/// are copies of one another, translated, rotated and uniformly scaled, share one reduced model.
/// Only the first domain of each class (its representative) is reduced; the others transform its
/// model (instance_model()).
#include <cstdint>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/domains/decomposition.hpp"
#include "substruct/reduction/reduced_model.hpp"

namespace substruct {

/// x' = s R x + t: uniform scale s > 0, proper rotation R, translation t.
struct SimilarityTransform {
  double scale = 1;
  Mat3 rotation = Mat3::Identity();
  Vec3 translation = Vec3::Zero();

  Vec3 apply(const Vec3& x) const { return scale * (rotation * x) + translation; }
  bool is_identity() const;
};

/// The least-squares similarity taking `from` onto `to` (row i onto row i): Umeyama 1991,
/// Σ_xy = 1/n Σ (y_i − ȳ)(x_i − x̄)ᵀ = U D Vᵀ, R = U S Vᵀ with S = diag(1, 1, ±1) making
/// det R = +1, s = tr(D S) / σ_x², t = ȳ − s R x̄; and the largest residual ‖s R x_i + t − y_i‖.
/// Mirror images are never fitted (their residual stays large). Throws Error unless both have
/// the same number (≥ 1) of rows and `from` has distinct points.
struct SimilarityFit {
  SimilarityTransform transform;
  double max_residual = 0;
};
SimilarityFit fit_similarity(const Points& from, const Points& to);

/// One domain of a class and the transform from its representative's rest shape to its own.
struct Instance {
  int domain = 0;
  SimilarityTransform transform;
};

/// Domains sharing one model. members[0] is the representative (the lowest domain id, identity
/// transform); the others follow in ascending domain order.
struct InstanceClass {
  int representative() const { return members.front().domain; }
  std::vector<Instance> members;
};

/// Groups the domains into instance classes, every domain in exactly one class (a domain without
/// copies is a class of its own); classes are ordered by representative. Domains a and b are
/// instances when their sub-meshes have the same number of vertices, the same tetrahedra in
/// local numbering, the same material (density, E, ν) element by element and the same `keys`
/// entry (e.g. a hash of the boundary condition; `keys` empty: all equal), and their rest
/// positions satisfy x_b = s R x_a + t for every local vertex up to `tolerance` times b's
/// bounding-box diagonal. Cost: one O(n) fit per candidate pair with equal connectivity.
/// Throws Error when `keys` is neither empty nor one entry per domain.
std::vector<InstanceClass> find_instances(const Decomposition& decomposition,
                                          const std::vector<std::uint64_t>& keys = {},
                                          double tolerance = 1e-9);
/// The same over any list of meshes (domain ids = positions in the list).
std::vector<InstanceClass> find_instances(const std::vector<const TetMesh*>& meshes,
                                          const std::vector<std::uint64_t>& keys = {},
                                          double tolerance = 1e-9);

/// The model of a copy of `model`'s domain placed by x' = s R x + t (Zhao 2014, §4.2), derived
/// without any solve. With the mass M' = s³ M (volume ∝ s³), the stiffness K' = s K (∇ ∝ 1/s,
/// volume ∝ s³), an isotropic material and the copy's vertices numbered as the original's:
/// - basis: U' = s^(−3/2) (I ⊗ R) U — each vertex's 3-vector rotated, U'ᵀ M' U' = I;
/// - linear eigenvalues λ' = λ / s² (frequencies scale by 1/s);
/// - reduced forces: the copy's elastic energy of a nodal displacement w is E'(w) = s³ E(w/s)
///   (displacement gradients ∝ 1/s, volumes ∝ s³; rotations leave an isotropic material's energy
///   unchanged), so W'(q) = s³ W(s^(−5/2) q), f'(q) = s^(1/2) f(s^(−5/2) q) and
///   K'(q) = s⁻² K(s^(−5/2) q). Reduced StVK polynomials get new coefficients: the energy's terms
///   of degree k in q scale by s^(3 − 5k/2), K₀ by s⁻², the cubic terms (P²) by s^(−9/2), the
///   quartic terms (P³) by s⁻⁷; other force models (cubature: same elements and weights) are
///   wrapped to evaluate the formulas above. For s = 1 the force model is shared as it is.
/// - size ×s; vertices, elements, materials, boundary and timings are kept.
ReducedModel instance_model(const ReducedModel& model, const SimilarityTransform& transform);

/// (I ⊗ R) U: each vertex's three rows of the basis U (3n×r) turned by R, as instance_model()
/// turns them (R = s^(−3/2) times the rotation), the same numbers bit for bit.
Eigen::MatrixXd turned_basis(const Eigen::MatrixXd& U, const Mat3& R);

}  // namespace substruct
