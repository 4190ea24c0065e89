// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Elastic energy, internal force and tangent stiffness of a whole tet mesh.
#include <memory>

#include "substruct/core/types.hpp"
#include "substruct/fem/material_model.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Conventions (as in Vega): u is the 3N displacement from the rest shape, x = X + u.
/// E(u) is the elastic energy, f_int(u) = ∂E/∂u the internal force (so M ü + f_int(u) = f_ext),
/// K(u) = ∂f_int/∂u the symmetric tangent stiffness.
///
/// The sparsity pattern of K is built once in the constructor; each evaluation refills the
/// values in place (no allocation), so repeated assembly is fast on large meshes.
///
/// Each element uses the Lamé parameters of its own material (mesh.material_of(e)). Element
/// contributions are summed in element order on the calling thread, so results are
/// bit-identical from call to call; concurrent evaluate() calls with distinct outputs are safe.
/// The linear model assembles K₀ once and evaluates f = K₀u, E = ½uᵀK₀u.
class ElasticForceModel {
 public:
  /// Copies what it needs from `mesh`. Throws Error for a degenerate element, a vertex index out
  /// of range, or a material with E ≤ 0 or ν outside (−1, ½).
  ElasticForceModel(const TetMesh& mesh, MaterialModel model);
  ~ElasticForceModel();
  ElasticForceModel(ElasticForceModel&&) noexcept;
  ElasticForceModel& operator=(ElasticForceModel&&) noexcept;

  MaterialModel model() const;
  Index num_dofs() const;
  Index num_elements() const;
  /// Rest-shape data of every element (Dm⁻¹, V).
  const TetGeometry& geometry() const;

  /// Any output pointer may be null. `stiffness` receives the 3N×3N matrix with the model's
  /// fixed pattern (the first call allocates it, later calls only rewrite its values). The
  /// pattern is the 3×3-block vertex-adjacency pattern shared with consistent_mass().
  /// Throws Error when u does not have num_dofs() entries.
  void evaluate(const Eigen::VectorXd& u, double* energy, Eigen::VectorXd* internal_force,
                SparseMatrix* stiffness) const;

  double energy(const Eigen::VectorXd& u) const;
  Eigen::VectorXd internal_force(const Eigen::VectorXd& u) const;
  SparseMatrix stiffness(const Eigen::VectorXd& u) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace substruct
