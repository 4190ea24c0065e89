// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/bench/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <Eigen/Eigenvalues>

#include "substruct/core/error.hpp"

namespace substruct {

TrajectoryError trajectory_error(const Eigen::MatrixXd& test, const Eigen::MatrixXd& reference,
                                 double size) {
  if (test.cols() != reference.cols() || test.cols() % 3 != 0)
    throw Error(fmt::format("trajectory error: {} and {} columns (3 per tracked vertex expected)",
                            test.cols(), reference.cols()));
  if (!(size > 0)) throw Error(fmt::format("trajectory error: size must be > 0, found {}", size));
  const Index frames = std::min(test.rows(), reference.rows());
  const Index vertices = test.cols() / 3;
  TrajectoryError e;
  if (frames == 0 || vertices == 0) return e;
  double sum = 0;
  for (Index k = 0; k < frames; ++k)
    for (Index v = 0; v < vertices; ++v) {
      const double d2 =
          (test.block<1, 3>(k, 3 * v) - reference.block<1, 3>(k, 3 * v)).squaredNorm();
      sum += d2;
      e.max = std::max(e.max, std::sqrt(d2));
    }
  e.rms = std::sqrt(sum / double(frames * vertices)) / size;
  e.max /= size;
  return e;
}

MotionError motion_error(const Eigen::MatrixXd& test, const Eigen::MatrixXd& reference) {
  if (test.cols() != reference.cols() || test.cols() % 3 != 0)
    throw Error(fmt::format("motion error: {} and {} columns (3 per tracked vertex expected)",
                            test.cols(), reference.cols()));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Index frames = std::min(test.rows(), reference.rows());
  MotionError e{nan, nan};
  if (frames == 0 || test.cols() == 0) return e;
  const auto t = test.topRows(frames), r = reference.topRows(frames);
  const Eigen::MatrixXd motion = r.rowwise() - r.row(0);
  const double error2 = (t - r).squaredNorm(), motion2 = motion.squaredNorm();
  if (motion2 > 0) e.relative_rms = std::sqrt(error2 / motion2);
  const Eigen::RowVectorXd d = (t.rowwise() - t.row(0)).colwise().mean();
  const Eigen::RowVectorXd d_ref = motion.colwise().mean();
  if (d_ref.squaredNorm() > 0) e.offset_ratio = d.dot(d_ref) / d_ref.squaredNorm();
  return e;
}

void RunningMotionError::add(const Eigen::RowVectorXd& test, const Eigen::RowVectorXd& reference) {
  if (test.size() != reference.size() || test.size() % 3 != 0 ||
      (frames_ > 0 && test.size() != test0_.size()))
    throw Error(fmt::format("motion error: {} and {} columns (3 per tracked vertex, {} before)",
                            test.size(), reference.size(), frames_ > 0 ? test0_.size() : 0));
  if (frames_ == 0) {
    test0_ = test;
    reference0_ = reference;
    test_sum_ = Eigen::RowVectorXd::Zero(test.size());
    motion_sum_ = Eigen::RowVectorXd::Zero(test.size());
  }
  error2_ += (test - reference).squaredNorm();
  const Eigen::RowVectorXd motion = reference - reference0_;
  motion2_ += motion.squaredNorm();
  test_sum_ += test - test0_;
  motion_sum_ += motion;
  ++frames_;
}

void RunningMotionError::clear() {
  *this = RunningMotionError();
}

MotionError RunningMotionError::value() const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  MotionError e{nan, nan};
  if (frames_ == 0 || test0_.size() == 0) return e;
  if (motion2_ > 0) e.relative_rms = std::sqrt(error2_ / motion2_);
  // The means' 1/frames cancels in d · d_ref / |d_ref|².
  if (motion_sum_.squaredNorm() > 0)
    e.offset_ratio = test_sum_.dot(motion_sum_) / motion_sum_.squaredNorm();
  return e;
}

double vibration_frequency(const Eigen::MatrixXd& positions, double dt) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (positions.cols() != 3 || positions.rows() < 3 || !(dt > 0)) return nan;
  const Eigen::RowVector3d mean = positions.colwise().mean();
  const Eigen::MatrixXd centred = positions.rowwise() - mean;
  // The principal direction: the eigenvector of the largest eigenvalue of the 3×3 covariance.
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(centred.transpose() * centred);
  if (!(eig.eigenvalues()[2] > 0)) return nan;
  const Eigen::VectorXd s = centred * eig.eigenvectors().col(2);
  std::vector<double> crossings;
  for (Index k = 0; k + 1 < s.size(); ++k) {
    if ((s[k] < 0) == (s[k + 1] < 0)) continue;
    crossings.push_back(dt * (double(k) + s[k] / (s[k] - s[k + 1])));
  }
  if (crossings.size() < 3) return nan;
  return double(crossings.size() - 1) / (2 * (crossings.back() - crossings.front()));
}

double energy_drift(const std::vector<double>& total, double scale) {
  if (total.size() < 2 || !(scale > 0)) return 0;
  return (total.back() - total.front()) / scale;
}

double energy_scale(const std::vector<double>& kinetic_elastic,
                    const std::vector<double>& reference_kinetic_elastic) {
  const auto largest = [](const std::vector<double>& e) {
    double m = 0;
    for (double x : e) m = std::max(m, std::abs(x));
    return m;
  };
  if (const double r = largest(reference_kinetic_elastic); r > 0) return r;
  if (!kinetic_elastic.empty() && std::abs(kinetic_elastic.front()) > 0)
    return std::abs(kinetic_elastic.front());
  return largest(kinetic_elastic);
}

}  // namespace substruct
