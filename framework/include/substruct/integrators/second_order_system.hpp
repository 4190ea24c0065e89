// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A full-space second-order system  M ü + D u̇ + f_int(u) = f_ext  with Rayleigh damping
/// D = αM + βK(u) (as in Vega) and fixed DOFs held at u = 0, as the implicit integrators see it.
#include <functional>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

class ElasticForceModel;

/// Evaluates, at displacement u (all n DOFs), any of: the elastic energy E(u), the internal
/// force f_int(u) = ∂E/∂u and the tangent stiffness K(u) = ∂f_int/∂u (null pointers are not
/// requested). K must keep the same sparsity pattern at every call.
using InternalForceFunction = std::function<void(const Eigen::VectorXd& u, double* energy,
                                                 Eigen::VectorXd* force, SparseMatrix* stiffness)>;

struct SecondOrderSystem {
  SparseMatrix mass;  // M, n×n, symmetric, positive definite on the free DOFs
  InternalForceFunction internal_forces;
  double rayleigh_mass = 0;       // α in D = αM + βK(u)
  double rayleigh_stiffness = 0;  // β
  std::vector<Index> fixed_dofs;  // held at u = 0 (any order)
  /// ‖X‖ of the rest positions when f_int is evaluated at positions x = X + u (as the FEM layer
  /// does): x then only resolves u to about ε‖X‖, and Newton stops at corrections below
  /// 1000 ε‖X‖. 0: no such floor.
  double rest_position_norm = 0;

  Index num_dofs() const { return static_cast<Index>(mass.rows()); }
};

/// The internal forces of an elastic model. The model is referenced, not copied: it must outlive
/// every use of the returned function.
InternalForceFunction elastic_internal_forces(const ElasticForceModel& model);

/// The internal forces of a linear system, f_int = K u, E = ½ uᵀ K u (K is copied).
InternalForceFunction linear_internal_forces(SparseMatrix stiffness);

}  // namespace substruct
