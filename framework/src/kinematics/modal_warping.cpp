#include "substruct/kinematics/modal_warping.hpp"

#include <cmath>

#include "substruct/kinematics/skew.hpp"

namespace substruct {
namespace {

// Below θ² = 1 every coefficient is its alternating Taylor series in t = θ² (terms decrease
// fast: the 10th is < 1/21! of the first); above, the closed form, whose cancellation costs at
// most a few ulps (θ − sin θ ≥ 0.158 θ at θ = 1).
constexpr double kSeriesBelowThetaSquared = 1.0;
constexpr int kSeriesTerms = 10;

// Σ_{k≥0} (−1)^k (k+1)^p t^k / (2k+m)!, p = 0 or 1 (the coefficients and their derivatives).
double series(double t, int m, bool weighted) {
  double factorial = 1;  // m!
  for (int i = 2; i <= m; ++i) factorial *= i;
  double term = 1 / factorial, sum = 0;
  for (int k = 0; k < kSeriesTerms; ++k) {
    sum += weighted ? (k + 1) * term : term;
    term *= -t / ((2 * k + m + 1) * (2 * k + m + 2));
  }
  return sum;
}

// α = sin θ/θ, β = (1 − cos θ)/θ², γ = (θ − sin θ)/θ³ of θ = |w|.
struct Coefficients {
  double t, alpha, beta, gamma;
};

Coefficients coefficients(const Vec3& w) {
  const double t = w.squaredNorm();
  if (t < kSeriesBelowThetaSquared)
    return {t, series(t, 1, false), series(t, 2, false), series(t, 3, false)};
  const double theta = std::sqrt(t), s = std::sin(theta), h = std::sin(0.5 * theta);
  // 1 − cos θ = 2 sin²(θ/2), without cancellation.
  return {t, s / theta, 2 * h * h / t, (theta - s) / (t * theta)};
}

}  // namespace

Mat3 rotation_from_vector(const Vec3& w) {
  const Coefficients c = coefficients(w);
  const Mat3 W = hat(w);
  return Mat3::Identity() + c.alpha * W + c.beta * (W * W);
}

Mat3 integrated_rotation(const Vec3& w) {
  const Coefficients c = coefficients(w);
  const Mat3 W = hat(w);
  return Mat3::Identity() + c.beta * W + c.gamma * (W * W);
}

Mat3 integrated_rotation_derivative(const Vec3& w, const Vec3& wdot) {
  const Coefficients c = coefficients(w);
  // β′/θ = Σ (−1)^{k+1} (2k+2) t^k/(2k+4)!,  γ′/θ = Σ (−1)^{k+1} (2k+2) t^k/(2k+5)!.
  double dbeta, dgamma;
  if (c.t < kSeriesBelowThetaSquared) {
    dbeta = -2 * series(c.t, 4, true);
    dgamma = -2 * series(c.t, 5, true);
  } else {
    dbeta = (c.alpha - 2 * c.beta) / c.t;
    dgamma = (c.beta - 3 * c.gamma) / c.t;
  }
  const Mat3 W = hat(w), D = hat(wdot);
  return c.beta * D + c.gamma * (D * W + W * D) + w.dot(wdot) * (dbeta * W + dgamma * (W * W));
}

}  // namespace substruct
