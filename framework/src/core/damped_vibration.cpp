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
  DampedVibration best = none();
  double best_amplitude = 0;
  for (Index i = 0; i < M; ++i) {
    const double f = std::arg(z[i]) / (2 * std::numbers::pi * dt);
    // One of each conjugate pair (f > 0); a component slower than one cycle over the run is an
    // offset or a drift, not a vibration.
    if (!(f * dt * double(n - 1) > 1.0) || !std::isfinite(std::abs(a[i]))) continue;
    const double amplitude = 2 * std::abs(a[i]);  // the pair together
    if (amplitude > best_amplitude) {
      best_amplitude = amplitude;
      best.frequency_hz = f;
      best.decay_rate = -std::log(std::abs(z[i])) / dt;
      best.amplitude = amplitude;
    }
  }
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
