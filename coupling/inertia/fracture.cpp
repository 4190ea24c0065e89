// SPDX-License-Identifier: GPL-3.0-or-later
#include "fracture.hpp"

#include <algorithm>

#include "rigid_body.hpp"
#include "substruct/core/log.hpp"

namespace substruct::inertia {

double interface_force_norm2(Lumping lumping, const FrameColumns& columns,
                             const InterfaceKinematics& itf, const FrameMotion& parent,
                             const Subtree& subtree, const Eigen::VectorXd& qdot,
                             const Eigen::VectorXd& qddot) {
  // f_itf = −M_ij q̈ + f0_ij at the new state (Eq. 15).
  const auto r = qdot.size();
  Eigen::MatrixXd Mij = Eigen::MatrixXd::Zero(r, r);
  Eigen::VectorXd f0 = Eigen::VectorXd::Zero(r);
  add_interface_force(lumping, columns, itf, parent, subtree, qdot, &Mij, f0);
  return (f0 - Mij * qddot).squaredNorm();
}

void advance_ballistic(DomainState& s, const Vec3& d, double dt, const Vec3& g) {
  if (!s.ballistic_started) {
    // place_frame just put it where the parent's new state holds it: start from there.
    s.d = d;
    s.c = s.p + s.R * s.d;
    s.omega_world = s.R * s.motion.omega;
    s.c_dot = s.R * s.motion.v + s.omega_world.cross(s.R * s.d);
    s.ballistic_started = true;
    return;
  }
  s.c_dot += dt * g;
  s.c += dt * s.c_dot;
  s.R = rotation_exp(dt * s.omega_world) * s.R;
  s.p = s.c - s.R * s.d;
  const Vec3 arm = s.p - s.c;
  const Mat3 Rt = s.R.transpose();
  s.motion = FrameMotion{Rt * (s.c_dot + s.omega_world.cross(arm)), Rt * s.omega_world,
                         Rt * (g + s.omega_world.cross(s.omega_world.cross(arm))), Vec3::Zero()};
}

void Fracture::freeze_outside(const std::vector<char>& inside) {
  for (std::size_t i = 0; i < frozen_.size(); ++i) frozen_[i] = inside[i] == 0 ? 1 : 0;
}

void Fracture::detach(int j, double norm2, const DomainTree& tree,
                      std::vector<DomainState>& states) {
  const auto jj = static_cast<std::size_t>(j);
  attached_[jj] = 0;
  {
    const std::lock_guard lock(mutex_);
    fractures_.emplace_back(j, norm2);
  }
  std::vector<int> stack{j};
  while (!stack.empty()) {
    const int k = stack.back();
    stack.pop_back();
    DomainState& s = states[static_cast<std::size_t>(k)];
    frozen_[static_cast<std::size_t>(k)] = 1;
    s.qdot.setZero();
    s.qddot.setZero();
    for (int c : tree.domains[static_cast<std::size_t>(k)].children) stack.push_back(c);
  }
}

bool Fracture::report(long step, double threshold, const DomainTree& tree,
                      std::vector<DomainState>& states) {
  if (fractures_.empty()) return false;
  std::sort(fractures_.begin(), fractures_.end());
  for (const auto& [j, norm2] : fractures_) {
    const InertiaDomain& dom = tree.domains[static_cast<std::size_t>(j)];
    log::info("inertia: step {}: domain {} breaks off domain {} (‖f_itf‖² = {:.3g} > {:.3g})", step,
              j, dom.parent, norm2, threshold);
    for (int a = dom.parent; a >= 0; a = tree.domains[static_cast<std::size_t>(a)].parent)
      states[static_cast<std::size_t>(a)].mass_changed = true;
  }
  fractures_.clear();
  return true;
}

}  // namespace substruct::inertia
