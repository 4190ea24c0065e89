// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Random reduced layouts (geometry/reduced_geometry.hpp) for checking geometry solvers against
// each other and timing them: a chain of domains, each sharing `shared` vertices with the next
// (C0 averaging), with rigid (r = 0), warped (random Ψ) and instanced domains (the turned and
// moved copy of an earlier domain) mixed in, and `uncovered` vertices no domain lists, spread
// among the others.
#include <algorithm>
#include <random>
#include <vector>

#include <Eigen/Geometry>

#include "substruct/geometry/reduced_geometry.hpp"

namespace substruct::testing {

struct RandomLayoutOptions {
  int domains = 8;
  int vertices_per_domain = 20;
  int shared = 4;  // with the next domain in the chain
  int r = 5;
  double rigid_fraction = 0.2;
  double warped_fraction = 0.5;
  double instance_fraction = 0.25;
  int uncovered = 3;
  double psi_scale = 0.5;  // Ψ entries in ±psi_scale: rotation angles up to about psi_scale √r
};

inline Mat3 random_rotation(std::mt19937& random) {
  std::uniform_real_distribution<double> u(-1, 1);
  return Eigen::AngleAxisd(u(random) * 3, Vec3(u(random), u(random), u(random)).normalized())
      .toRotationMatrix();
}

inline ReducedGeometry random_reduced_geometry(const RandomLayoutOptions& o, std::mt19937& random) {
  std::uniform_real_distribution<double> u(-1, 1), unit(0, 1);
  const int n = o.vertices_per_domain, step = n - o.shared;
  const int covered = step * (o.domains - 1) + n;
  const int total = covered + o.uncovered;
  // The chain's i-th vertex is the i-th id that is not uncovered.
  std::vector<Index> ids(static_cast<std::size_t>(total));
  for (int i = 0; i < total; ++i) ids[static_cast<std::size_t>(i)] = i;
  std::shuffle(ids.begin(), ids.end(), random);
  std::vector<Index> chain(ids.begin(), ids.begin() + covered);
  std::sort(chain.begin(), chain.end());
  ReducedGeometry g;
  g.rest_positions = Points::NullaryExpr(total, 3, [&] { return u(random); });
  std::vector<int> representatives;
  for (int d = 0; d < o.domains; ++d) {
    DomainLayout dom;
    dom.global_vertex.assign(chain.begin() + d * step, chain.begin() + d * step + n);
    if (!representatives.empty() && unit(random) < o.instance_fraction) {
      dom.instance_of =
          representatives[static_cast<std::size_t>(random()) % representatives.size()];
      dom.rotation = random_rotation(random);
      dom.offset = Vec3(u(random), u(random), u(random));
    } else {
      const int r = unit(random) < o.rigid_fraction ? 0 : o.r;
      dom.rest = Points::NullaryExpr(n, 3, [&] { return u(random); });
      dom.U = RowMajorMatrix::NullaryExpr(3 * n, r, [&] { return 0.2 * u(random); });
      if (r > 0 && unit(random) < o.warped_fraction)
        dom.Psi = RowMajorMatrix::NullaryExpr(3 * n, r, [&] { return o.psi_scale * u(random); });
      representatives.push_back(d);
    }
    g.domains.push_back(std::move(dom));
  }
  g.finalize();
  return g;
}

/// Random frames (any rotation), frame velocities, and q, q̇ in ±q_scale.
inline std::vector<DomainPose> random_poses(const ReducedGeometry& g, std::mt19937& random,
                                            double q_scale = 1) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<DomainPose> out;
  for (std::size_t d = 0; d < g.domains.size(); ++d) {
    DomainPose pose;
    pose.R = random_rotation(random);
    pose.p = Vec3(u(random), u(random), u(random));
    pose.nu = Vec3(u(random), u(random), u(random));
    pose.omega = Vec3(u(random), u(random), u(random));
    pose.q = Eigen::VectorXd::NullaryExpr(g.r(d), [&] { return q_scale * u(random); });
    pose.qdot = Eigen::VectorXd::NullaryExpr(g.r(d), [&] { return q_scale * u(random); });
    out.push_back(pose);
  }
  return out;
}

}  // namespace substruct::testing
