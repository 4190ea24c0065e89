// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Random matrices for the tests, from seeded generators (deterministic).
#include <cstdint>
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

/// A rows × cols matrix of entries uniform in [−1, 1), from a std::mt19937 seeded with `seed`,
/// filled column by column.
inline Eigen::MatrixXd uniform_matrix(Eigen::Index rows, Eigen::Index cols, std::uint32_t seed) {
  std::mt19937 generator(seed);
  Eigen::MatrixXd A(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) A(i, j) = double(generator()) / 2147483648.0 - 1.0;
  return A;
}

}  // namespace substruct::testing
