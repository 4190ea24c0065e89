#include "substruct/kinematics/modal_warping.hpp"

#include "substruct/kinematics/skew.hpp"
#include "substruct/kinematics/warping_coefficients.hpp"

namespace substruct {

Mat3 rotation_from_vector(const Vec3& w) {
  const auto c = warping_coefficients(w.squaredNorm());
  const Mat3 W = hat(w);
  return Mat3::Identity() + c.alpha * W + c.beta * (W * W);
}

Mat3 integrated_rotation(const Vec3& w) {
  const auto c = warping_coefficients(w.squaredNorm());
  const Mat3 W = hat(w);
  return Mat3::Identity() + c.beta * W + c.gamma * (W * W);
}

Mat3 integrated_rotation_derivative(const Vec3& w, const Vec3& wdot) {
  const auto c = warping_coefficients(w.squaredNorm());
  // β′/θ = Σ (−1)^{k+1} (2k+2) t^k/(2k+4)!,  γ′/θ = Σ (−1)^{k+1} (2k+2) t^k/(2k+5)!.
  double dbeta, dgamma;
  warping_coefficient_rates(c, dbeta, dgamma);
  const Mat3 W = hat(w), D = hat(wdot);
  return c.beta * D + c.gamma * (D * W + W * D) + w.dot(wdot) * (dbeta * W + dgamma * (W * W));
}

}  // namespace substruct
