// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/multidomain/floating_motion.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

// The entries of a global 3N vector at the domain's vertices (zero when it is empty).
Eigen::VectorXd gather(const FloatingDomain& d, const Eigen::VectorXd& global) {
  const auto n = static_cast<Index>(d.global_vertex.size());
  Eigen::VectorXd local = Eigen::VectorXd::Zero(3 * n);
  if (global.size() == 0) return local;
  for (Index l = 0; l < n; ++l)
    local.segment<3>(3 * l) = global.segment<3>(3 * d.global_vertex[static_cast<std::size_t>(l)]);
  return local;
}

// M 1: the lumped mass of each DOF of the domain.
Eigen::VectorXd lumped(const FloatingDomain& d) {
  return d.mass * Eigen::VectorXd::Ones(d.mass.cols());
}

}  // namespace

std::vector<DomainMotion> floating_motion_from(const std::vector<FloatingDomain>& domains,
                                               Index num_vertices, const Eigen::VectorXd& u0,
                                               const Eigen::VectorXd& v0) {
  const Index n3 = 3 * num_vertices;
  if ((u0.size() != 0 && u0.size() != n3) || (v0.size() != 0 && v0.size() != n3))
    throw Error(fmt::format("the initial state needs {} entries (3 per vertex), found {} and {}",
                            n3, u0.size(), v0.size()));
  std::vector<DomainMotion> motion(domains.size());
  for (const FloatingDomain& d : domains) {
    DomainMotion& m = motion[static_cast<std::size_t>(d.id)];
    m.c = d.rest_centre;
    const Eigen::VectorXd u = gather(d, u0), v = gather(d, v0), M1 = lumped(d);
    Eigen::VectorXd u_def = u, v_def = v;
    if (!d.anchored) {
      const double mass = d.integrals.mass();
      Vec3 t = Vec3::Zero(), vc = Vec3::Zero(), L = Vec3::Zero();
      for (Index l = 0; l < u.size() / 3; ++l) {
        t += M1.segment<3>(3 * l).cwiseProduct(u.segment<3>(3 * l));
        vc += M1.segment<3>(3 * l).cwiseProduct(v.segment<3>(3 * l));
      }
      t /= mass;
      vc /= mass;
      for (Index l = 0; l < u.size() / 3; ++l)
        L += M1[3 * l] * d.rest.row(l).transpose().cross(v.segment<3>(3 * l) - vc);
      m.c += t;
      m.v = vc;
      m.omega = d.integrals.inertia().ldlt().solve(L);
      for (Index l = 0; l < u.size() / 3; ++l) {
        const Vec3 arm = d.rest.row(l).transpose();
        u_def.segment<3>(3 * l) -= t;
        v_def.segment<3>(3 * l) -= vc + m.omega.cross(arm);
      }
    }
    // The M-orthogonal projection on the basis: q = M_r⁻¹ UᵀM u.
    const Eigen::LDLT<Eigen::MatrixXd> Mr(d.reduced_mass);
    m.q = Mr.solve(d.U.transpose() * (d.mass * u_def));
    m.qdot = Mr.solve(d.U.transpose() * (d.mass * v_def));
  }
  return motion;
}

void advance_floating_domains(const std::vector<FloatingDomain>& domains, const BlockSystem& system,
                              const Eigen::VectorXd& y, double dt, bool rigid, bool deformation,
                              long step, std::vector<DomainMotion>& motion,
                              std::vector<std::pair<Vec3, Vec3>>& frame_acceleration,
                              double theta) {
  if (!(theta >= 0.5 && theta <= 1))
    throw Error(fmt::format("the step's θ must lie in [0.5, 1], found {}", theta));
  // The velocity at the end of the step from y (at θ of it) and the one at its start.
  const auto end_velocity = [theta](const auto& y_part, const auto& start) {
    return theta == 1 ? y_part.eval() : (start + (y_part - start) / theta).eval();
  };
  frame_acceleration.resize(domains.size(), {Vec3::Zero(), Vec3::Zero()});
  for (const FloatingDomain& d : domains) {
    const auto i = static_cast<std::size_t>(d.id);
    DomainMotion& m = motion[i];
    const int r = d.r();
    const Index o = system.offset(d.id);
    if (deformation && r > 0) {
      m.q += dt * y.segment(o, r);
      m.qdot = end_velocity(y.segment(o, r), m.qdot);
    }
    if (rigid && !d.anchored) {
      const Vec3 v_step = y.segment<3>(o + r), w_step = y.segment<3>(o + r + 3);
      const double angle = dt * w_step.norm();
      if (angle > 0) m.R = Eigen::AngleAxisd(angle, w_step.normalized()).toRotationMatrix() * m.R;
      m.c += dt * v_step;
      const Vec3 v = end_velocity(v_step, m.v), w = end_velocity(w_step, m.omega);
      frame_acceleration[i] = {m.R.transpose() * (v - m.v) / dt,
                               m.R.transpose() * (w - m.omega) / dt};
      m.v = v;
      m.omega = w;
    }
    const bool finite = m.q.allFinite() && m.qdot.allFinite() && m.c.allFinite() &&
                        m.v.allFinite() && m.omega.allFinite() && m.R.allFinite();
    if (!finite)
      throw DivergenceError(d.id, step,
                            "its state is not finite (try a smaller [run] dt or damping)");
  }
}

Energies floating_energies(const std::vector<FloatingDomain>& domains,
                           const std::vector<DomainMotion>& motion, const Vec3& gravity) {
  Energies e;
  for (const FloatingDomain& d : domains) {
    const DomainMotion& m = motion[static_cast<std::size_t>(d.id)];
    const Eigen::VectorXd M1 = lumped(d);
    const auto n = static_cast<Index>(d.global_vertex.size());
    Eigen::VectorXd v(3 * n);
    for (Index l = 0; l < n; ++l) {
      Vec3 x = d.rest.row(l).transpose();
      Vec3 xd = Vec3::Zero();
      if (d.r() > 0) {
        x.noalias() += d.U.middleRows<3>(3 * l) * m.q;
        xd.noalias() = d.U.middleRows<3>(3 * l) * m.qdot;
      }
      v.segment<3>(3 * l) = m.v + m.omega.cross(m.R * x) + m.R * xd;
      e.gravity -= M1[3 * l] * gravity.dot(m.c + m.R * x);
    }
    e.kinetic += 0.5 * v.dot(d.mass * v);
    if (d.r() > 0) {
      double W = 0;
      d.model->forces->evaluate(m.q, &W, nullptr, nullptr);
      e.elastic += W;
    }
  }
  return e;
}

ReducedGeometry floating_layout(const Points& rest_positions,
                                const std::vector<FloatingDomain>& domains) {
  ReducedGeometry layout;
  layout.rest_positions = rest_positions;
  for (const FloatingDomain& d : domains)
    layout.domains.push_back(DomainLayout{d.global_vertex, d.rest, d.U});
  layout.finalize();
  return layout;
}

void floating_poses(const std::vector<DomainMotion>& motion, std::vector<DomainPose>& poses) {
  poses.resize(motion.size());
  for (std::size_t i = 0; i < motion.size(); ++i) {
    const DomainMotion& m = motion[i];
    poses[i] = DomainPose{m.R, m.c, m.R.transpose() * m.v, m.R.transpose() * m.omega, m.q, m.qdot};
  }
}

}  // namespace substruct
