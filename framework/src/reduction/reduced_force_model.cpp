// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/reduced_force_model.hpp"

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

ReducedForceModel::ReducedForceModel(int r) : r_(r) {
  if (r < 0) throw Error(fmt::format("a reduced force model needs r ≥ 0 coordinates, got {}", r));
}

void ReducedForceModel::check_coordinates(const Eigen::VectorXd& q, const char* who) const {
  if (q.size() != r_)
    throw Error(fmt::format("{}: the reduced coordinates q have {} entries, expected r = {}", who,
                            q.size(), r_));
}

void ReducedForceModel::implicit_step_terms(const Eigen::VectorXd& q, const Eigen::VectorXd& x,
                                            double s, Eigen::VectorXd& force, Eigen::VectorXd& Kx,
                                            Eigen::MatrixXd& sK) const {
  if (x.size() != r_)
    throw Error(
        fmt::format("implicit step terms: x has {} entries, expected r = {}", x.size(), r_));
  thread_local Eigen::MatrixXd K;
  evaluate(q, nullptr, &force, &K);
  if (Kx.size() != r_) Kx.resize(r_);
  if (sK.rows() != r_ || sK.cols() != r_) sK.resize(r_, r_);
  Kx.noalias() = K * x;
  sK.triangularView<Eigen::Lower>() = s * K;
}

double ReducedForceModel::energy(const Eigen::VectorXd& q) const {
  double W = 0;
  evaluate(q, &W, nullptr, nullptr);
  return W;
}

Eigen::VectorXd ReducedForceModel::force(const Eigen::VectorXd& q) const {
  Eigen::VectorXd f;
  evaluate(q, nullptr, &f, nullptr);
  return f;
}

Eigen::MatrixXd ReducedForceModel::stiffness(const Eigen::VectorXd& q) const {
  Eigen::MatrixXd K;
  evaluate(q, nullptr, nullptr, &K);
  return K;
}

}  // namespace substruct
