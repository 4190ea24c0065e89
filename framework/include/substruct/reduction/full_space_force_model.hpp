// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The full-space elastic forces of a mesh behind the reduced-model interface: the "basis" S
/// selects the degrees of freedom that are not fixed (u = S q), so f(q) = Sᵀ f_int(S q) and
/// K(q) = Sᵀ K(S q) S (dense). Lets a multi-domain method simulate one domain in full space next
/// to reduced ones (Wu, Mukherjee, Wang 2015, §7: full-space interface domains).
#include <memory>
#include <vector>

#include "substruct/fem/material_model.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/reduction/reduced_force_model.hpp"

namespace substruct {

class ElasticForceModel;

class FullSpaceForceModel final : public ReducedForceModel {
 public:
  /// fixed_vertices: local vertex ids whose DOFs are left out of q. Throws Error as
  /// ElasticForceModel does, or for a fixed vertex out of range.
  FullSpaceForceModel(const TetMesh& mesh, MaterialModel model,
                      const std::vector<Index>& fixed_vertices);
  ~FullSpaceForceModel() override;

  /// S: the 3N × r selection (the identity's columns of the free DOFs).
  Eigen::MatrixXd selection() const;

  /// Not safe for concurrent calls (the sparse stiffness is a reused workspace).
  void evaluate(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                Eigen::MatrixXd* stiffness) const override;

 private:
  std::unique_ptr<ElasticForceModel> model_;
  Index num_dofs_ = 0;
  std::vector<Index> free_;  // q index → DOF
  mutable Eigen::VectorXd u_, f_;
  mutable SparseMatrix K_;
};

}  // namespace substruct
