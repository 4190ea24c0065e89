// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/multidomain/domain_step.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>

#include "substruct/core/error.hpp"

namespace substruct {

void assemble_domain_step(const std::vector<FloatingDomain>& domains,
                          const std::vector<int>& domain_of, const DomainStepState& state,
                          const ExternalForces& forces, double dt, BlockSystem& system,
                          const ParallelTasks* tasks) {
  system.clear();
  const auto& motion = *state.motion;
  const auto& acceleration = *state.frame_acceleration;
  const double a = state.rayleigh_mass, b = state.rayleigh_stiffness;
  const auto n = static_cast<Index>(domain_of.size());

  // Point and nodal forces per domain: (local vertex, world force).
  std::vector<std::vector<std::pair<Index, Vec3>>> concentrated(domains.size());
  const auto add_point = [&](Index g, const Vec3& f) {
    if (g < 0 || g >= n)
      throw Error(
          fmt::format("a force acts on vertex {}, which the mesh ({} vertices) does not "
                      "have",
                      g, n));
    if (const int d = domain_of[static_cast<std::size_t>(g)]; d >= 0)
      concentrated[static_cast<std::size_t>(d)].emplace_back(
          domains[static_cast<std::size_t>(d)].local(g), f);
  };
  for (const PointForce& p : forces.point_forces) add_point(p.vertex, p.force);
  if (forces.nodal.size() == 3 * n)
    for (Index g = 0; g < n; ++g)
      if (const Vec3 f = forces.nodal.segment<3>(3 * g); f != Vec3::Zero()) add_point(g, f);

  const ParallelTasks serial;
  (tasks ? *tasks : serial).for_each(domains.size(), [&](std::size_t k) {
    thread_local Eigen::VectorXd f_int, f_sys;
    thread_local Eigen::MatrixXd K;
    const FloatingDomain& d = domains[k];
    const auto i = static_cast<std::size_t>(d.id);
    const DomainMotion& m = motion[i];
    const int r = d.r();
    const Index o = system.offset(d.id);
    Eigen::MatrixXd& A = system.block(d.id, d.id);
    Eigen::VectorXd& rhs = system.b();
    const Mat3 Rt = m.R.transpose();
    if (r > 0) {
      // Eq. 9 (App. A): (M_r + Δt D + Δt² K) q̇' = M_r q̇ + Δt (F_sub − f_int), D = a M_r + b K
      // (M_r = UᵀMU: the identity unless coupling elements add mass).
      d.model->forces->evaluate(m.q, nullptr, &f_int, &K);
      A.topLeftCorner(r, r) = (dt * b + dt * dt) * K + (1 + dt * a) * d.reduced_mass;
      // Eq. 7: F_sub = Uᵀ(Rᵀ f_ext + f_fic), f_fic (Eq. 3) by the precomputed integrals.
      Eigen::VectorXd F = d.gravity_force * (Rt * forces.gravity) - f_int;
      if (!d.anchored) {  // an anchored frame does not move: no fictitious forces
        FrameMotion frame;
        frame.v = Rt * m.v;
        frame.omega = Rt * m.omega;
        frame.a = acceleration[i].first;
        frame.alpha = acceleration[i].second;
        d.integrals.evaluate(frame, m.q, m.qdot, f_sys);
        F += f_sys;
      }
      for (const auto& [l, f] : concentrated[i])
        F.noalias() += d.U.middleRows<3>(3 * l).transpose() * (Rt * f);
      rhs.segment(o, r) = d.reduced_mass * m.qdot + dt * F;
    }
    if (!d.anchored) {
      // Eq. 10 with the external force and torque about the centre of mass; ω × Iω explicit.
      const double mass = d.integrals.mass();
      const Mat3 I = m.R * d.integrals.inertia() * Rt;
      A.block<3, 3>(r, r) = (mass * (1 + dt * a)) * Mat3::Identity();
      A.block<3, 3>(r + 3, r + 3) = (1 + dt * a) * I;
      Vec3 f = mass * forces.gravity, tau = -m.omega.cross(I * m.omega);
      for (const auto& [l, force] : concentrated[i]) {
        f += force;
        tau += (vertex_position(d, m, l) - m.c).cross(force);
      }
      rhs.segment<3>(o + r) = mass * m.v + dt * f;
      rhs.segment<3>(o + r + 3) = I * m.omega + dt * tau;
    }
  });
}

}  // namespace substruct
