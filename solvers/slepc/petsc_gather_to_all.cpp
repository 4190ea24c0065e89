// SPDX-License-Identifier: GPL-3.0-or-later
#include "petsc_gather_to_all.hpp"

#include "slepc_session.hpp"

namespace substruct::slepc_plugin {

GatherToAll::GatherToAll(Vec like) {
  check(VecScatterCreateToAll(like, scatter_.out(), all_.out()), "VecScatterCreateToAll");
}

void GatherToAll::operator()(Vec x, Eigen::Ref<Eigen::VectorXd> out) {
  check(VecScatterBegin(scatter_.get(), x, all_.get(), INSERT_VALUES, SCATTER_FORWARD),
        "VecScatterBegin");
  check(VecScatterEnd(scatter_.get(), x, all_.get(), INSERT_VALUES, SCATTER_FORWARD),
        "VecScatterEnd");
  const PetscScalar* entries = nullptr;
  check(VecGetArrayRead(all_.get(), &entries), "VecGetArrayRead");
  out = Eigen::Map<const Eigen::VectorXd>(entries, out.size());
  check(VecRestoreArrayRead(all_.get(), &entries), "VecRestoreArrayRead");
}

}  // namespace substruct::slepc_plugin
