#pragma once
// Random 3×3 matrices for the kinematics tests, from a seeded generator (deterministic).
#include <random>

#include <Eigen/Geometry>

#include "substruct/core/types.hpp"

namespace substruct::testing {

/// A rotation uniformly distributed over SO(3) (a normalised Gaussian quaternion).
inline Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  Eigen::Quaterniond quaternion(n(rng), n(rng), n(rng), n(rng));
  return quaternion.normalized().toRotationMatrix();
}

/// A matrix of independent standard normal entries.
inline Mat3 random_matrix(std::mt19937& rng) {
  std::normal_distribution<double> n;
  Mat3 A;
  for (int i = 0; i < 9; ++i) A(i) = n(rng);
  return A;
}

}  // namespace substruct::testing
