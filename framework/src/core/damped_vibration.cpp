// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/damped_vibration.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

namespace substruct {
namespace {

constexpr int kMaxComponents = 12;
// Singular values below this fraction of the largest are noise (round-off of a smooth signal).
constexpr double kSignificant = 1e-6;

// A vibration needs about two periods in the run to have a frequency.
constexpr double kMinCycles = 2.0;

// log Σ_{k<n} a2 r^{2k}: the energy of a component of squared amplitude a2 and pole modulus r
// over n samples, in logs so that a growing component does not overflow.
double log_energy(double a2, double r, Index n) {
  const double x = 2 * std::log(r), xn = x * double(n);
  if (std::abs(x) < 1e-14) return std::log(a2) + std::log(double(n));
  if (std::abs(xn) < 700) return std::log(a2) + std::log(std::expm1(xn) / std::expm1(x));
  if (x > 0) return std::log(a2) + xn - std::log(std::expm1(x));
  return std::log(a2) - std::log(-std::expm1(x));
}

DampedVibration none() {
  DampedVibration v;
  v.frequency_hz = v.decay_rate = v.amplitude = std::numeric_limits<double>::quiet_NaN();
  return v;
}

}  // namespace

DampedVibration dominant_vibration(const Eigen::VectorXd& s, double dt) {
  const Index n = s.size();
  if (n < 8 || !(dt > 0) || !s.allFinite()) return none();
  // The Hankel matrix Y (n − L) × (L + 1), Y(i, j) = s(i + j), with the pencil parameter
  // L = n/3 (between n/3 and n/2 is least sensitive to noise).
  const Index L = std::max<Index>(2, n / 3), rows = n - L;
  Eigen::MatrixXd Y(rows, L + 1);
  for (Index i = 0; i < rows; ++i) Y.row(i) = s.segment(i, L + 1).transpose();
  const Eigen::BDCSVD<Eigen::MatrixXd> svd(Y, Eigen::ComputeThinV);
  const Eigen::VectorXd& sv = svd.singularValues();
  if (!(sv[0] > 0)) return none();
  Index M = 0;
  while (M < sv.size() && M < kMaxComponents && sv[M] > kSignificant * sv[0]) ++M;
  if (M == 0) return none();
  // Poles: the eigenvalues of V1⁺ V2, V1 (V2) the significant right singular vectors without
  // their last (first) row.
  const Eigen::MatrixXd V = svd.matrixV().leftCols(M);
  const Eigen::MatrixXd V1 = V.topRows(L), V2 = V.bottomRows(L);
  const Eigen::MatrixXd pencil = V1.completeOrthogonalDecomposition().solve(V2);
  const Eigen::EigenSolver<Eigen::MatrixXd> eig(pencil.transpose());
  const Eigen::VectorXcd z = eig.eigenvalues();
  // Amplitudes: least squares on the Vandermonde matrix Z(k, i) = z_i^k.
  Eigen::MatrixXcd Z(n, M);
  for (Index i = 0; i < M; ++i) {
    std::complex<double> p(1, 0);
    for (Index k = 0; k < n; ++k, p *= z[i]) Z(k, i) = p;
  }
  const Eigen::VectorXcd a = Z.colPivHouseholderQr().solve(s.cast<std::complex<double>>());
  // Rank the components by their energy over the run, Σ_k |a_i z_i^k|² (a conjugate pair twice
  // one member's), not by their amplitude at t = 0: a transient that dies within a few steps has
  // a large a_i and next to no energy. An offset or a slow drift (less than one cycle, and
  // changing by less than e over the run) is the baseline the motion rides on and does not
  // compete; any other component does, oscillating or not.
  const double duration = dt * double(n - 1);
  int winner = -1;
  double winner_energy = -std::numeric_limits<double>::infinity();
  for (Index i = 0; i < M; ++i) {
    const double f = std::arg(z[i]) / (2 * std::numbers::pi * dt);
    const double sigma = -std::log(std::abs(z[i])) / dt;
    if (!std::isfinite(std::abs(a[i])) || !std::isfinite(sigma) || f < 0) continue;
    if (f * duration < 1.0 && std::abs(sigma) * duration < 1.0) continue;  // the baseline
    const double energy =
        log_energy(std::norm(a[i]), std::abs(z[i]), n) + (f > 0 ? std::log(2.0) : 0.0);
    if (energy > winner_energy) {
      winner_energy = energy;
      winner = int(i);
    }
  }
  if (winner < 0) return none();
  const double f = std::arg(z[winner]) / (2 * std::numbers::pi * dt);
  const double sigma = -std::log(std::abs(z[winner])) / dt;
  // No vibration: the dominant motion does not oscillate (a real pole: an overdamped return, a
  // creep), completes fewer than two cycles in the run (too short to tell its frequency), or
  // loses more than a factor e of its amplitude per period (σ > f).
  if (!(f * duration >= kMinCycles) || sigma > f) return none();
  DampedVibration best;
  best.frequency_hz = f;
  best.decay_rate = sigma;
  best.amplitude = 2 * std::abs(a[winner]);  // the pair together
  return best;
}

DampedVibration dominant_vibration_of_positions(const Eigen::MatrixXd& positions, double dt) {
  if (positions.cols() != 3 || positions.rows() < 8) return none();
  const Eigen::RowVector3d mean = positions.colwise().mean();
  const Eigen::MatrixXd centred = positions.rowwise() - mean;
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(centred.transpose() * centred);
  if (!(eig.eigenvalues()[2] > 0)) return none();
  return dominant_vibration(centred * eig.eigenvectors().col(2), dt);
}

}  // namespace substruct
