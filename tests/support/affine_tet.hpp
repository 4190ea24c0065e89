// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Deformed states of one tet for the element-kernel tests: rotations and affine maps of its rest
// vertices.
#include <Eigen/Geometry>

#include <cmath>
#include <string>

#include <Eigen/LU>

#include "substruct/fem/element_kernels.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct::testing {

/// A named deformed state of the tet (its 4 vertices stacked).
struct Deformation {
  std::string name;
  Vec12 x;
};

inline Mat3 rotation(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

/// x_a = A X_a + t for the 4 vertices stacked in X.
inline Vec12 affine_map(const Vec12& X, const Mat3& A, const Vec3& t = Vec3::Zero()) {
  Vec12 x;
  for (int a = 0; a < 4; ++a) x.segment<3>(3 * a) = A * X.segment<3>(3 * a) + t;
  return x;
}

/// A rest tet (vertices X) of the default material (E = 1e6 Pa, ν = 0.45: λ ≈ 3.1e6, μ ≈ 3.4e5).
struct RestTet {
  Vec12 X;
  Mat3 Dm_inv;
  double V;
  double lambda = Material{}.lambda();
  double mu = Material{}.mu();

  explicit RestTet(const Vec12& rest) : X(rest) {
    Mat3 Dm;
    for (int c = 0; c < 3; ++c) Dm.col(c) = X.segment<3>(3 * (c + 1)) - X.segment<3>(0);
    Dm_inv = Dm.inverse();
    V = std::abs(Dm.determinant()) / 6;
  }
  ElementInput input(const Vec12& x) const { return {&x, &Dm_inv, V, lambda, mu}; }
  Vec12 affine(const Mat3& A, const Vec3& t = Vec3::Zero()) const { return affine_map(X, A, t); }
};

}  // namespace substruct::testing
