// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/integrators/second_order_system.hpp"

#include <memory>
#include <utility>

#include "substruct/fem/elastic_force_model.hpp"

namespace substruct {

InternalForceFunction elastic_internal_forces(const ElasticForceModel& model) {
  const ElasticForceModel* m = &model;
  return [m](const Eigen::VectorXd& u, double* energy, Eigen::VectorXd* force,
             SparseMatrix* stiffness) { m->evaluate(u, energy, force, stiffness); };
}

InternalForceFunction linear_internal_forces(SparseMatrix stiffness) {
  auto K = std::make_shared<const SparseMatrix>(std::move(stiffness));
  return
      [K](const Eigen::VectorXd& u, double* energy, Eigen::VectorXd* force, SparseMatrix* tangent) {
        // f_int = K u,  E = ½ uᵀ K u
        if (force != nullptr || energy != nullptr) {
          Eigen::VectorXd Ku = (*K) * u;
          if (energy != nullptr) *energy = 0.5 * u.dot(Ku);
          if (force != nullptr) *force = std::move(Ku);
        }
        if (tangent != nullptr) *tangent = *K;
      };
}

}  // namespace substruct
