// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/full_space_force_model.hpp"

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"

namespace substruct {

namespace {

int free_count(Index vertices, const std::vector<Index>& fixed) {
  std::vector<char> is_fixed(static_cast<std::size_t>(vertices), 0);
  for (Index v : fixed) {
    if (v < 0 || v >= vertices)
      throw Error(
          fmt::format("full-space forces: fixed vertex {} of a mesh of {} vertices", v, vertices));
    is_fixed[static_cast<std::size_t>(v)] = 1;
  }
  int n = 0;
  for (char f : is_fixed) n += f ? 0 : 3;
  return n;
}

}  // namespace

FullSpaceForceModel::FullSpaceForceModel(const TetMesh& mesh, MaterialModel model,
                                         const std::vector<Index>& fixed_vertices)
    : ReducedForceModel(free_count(mesh.num_vertices(), fixed_vertices)),
      model_(std::make_unique<ElasticForceModel>(mesh, model)),
      num_dofs_(3 * mesh.num_vertices()) {
  std::vector<char> is_fixed(static_cast<std::size_t>(mesh.num_vertices()), 0);
  for (Index v : fixed_vertices) is_fixed[static_cast<std::size_t>(v)] = 1;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    if (!is_fixed[static_cast<std::size_t>(v)])
      for (int k = 0; k < 3; ++k) free_.push_back(3 * v + k);
}

FullSpaceForceModel::~FullSpaceForceModel() = default;

Eigen::MatrixXd FullSpaceForceModel::selection() const {
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(num_dofs_, r());
  for (std::size_t k = 0; k < free_.size(); ++k) S(free_[k], static_cast<Index>(k)) = 1;
  return S;
}

void FullSpaceForceModel::evaluate(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                                   Eigen::MatrixXd* stiffness) const {
  check_coordinates(q, "full-space forces");
  u_ = Eigen::VectorXd::Zero(num_dofs_);
  for (std::size_t k = 0; k < free_.size(); ++k) u_[free_[k]] = q[static_cast<Index>(k)];
  model_->evaluate(u_, energy, force ? &f_ : nullptr, stiffness ? &K_ : nullptr);
  const Index r = this->r();
  if (force) {
    force->resize(r);
    for (Index k = 0; k < r; ++k) (*force)[k] = f_[free_[static_cast<std::size_t>(k)]];
  }
  if (stiffness) {
    // Sᵀ K S: the free rows and columns of K, dense.
    std::vector<Index> position(static_cast<std::size_t>(num_dofs_), -1);
    for (std::size_t k = 0; k < free_.size(); ++k)
      position[static_cast<std::size_t>(free_[k])] = static_cast<Index>(k);
    stiffness->setZero(r, r);
    for (Index c = 0; c < K_.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(K_, c); it; ++it) {
        const Index i = position[static_cast<std::size_t>(it.row())];
        const Index j = position[static_cast<std::size_t>(it.col())];
        if (i >= 0 && j >= 0) (*stiffness)(i, j) = it.value();
      }
  }
}

}  // namespace substruct
