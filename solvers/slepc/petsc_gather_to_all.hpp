// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A distributed PETSc vector copied whole onto every rank (an eigenvector, a solution).
#include <petscvec.h>
#include <Eigen/Core>

#include "petsc_owned.hpp"

namespace substruct::slepc_plugin {

class GatherToAll {
 public:
  /// For vectors distributed as `like` (collective).
  explicit GatherToAll(Vec like);
  /// Every entry of x into `out` (x's global size) on every rank (collective).
  void operator()(Vec x, Eigen::Ref<Eigen::VectorXd> out);

 private:
  OwnedScatter scatter_;
  OwnedVec all_;
};

}  // namespace substruct::slepc_plugin
