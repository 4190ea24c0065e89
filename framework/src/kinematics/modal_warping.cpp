// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/modal_warping.hpp"

#include <Eigen/Geometry>

#include "substruct/kinematics/skew.hpp"
#include "substruct/kinematics/warping_coefficients.hpp"

namespace substruct {

Mat3 rotation_from_vector(const Vec3& w) {
  const auto c = warping_coefficients(w.squaredNorm());
  const Mat3 W = hat(w);
  return Mat3::Identity() + c.alpha * W + c.beta * (W * W);
}

namespace {

// R̃ = I + β Ŵ + γ Ŵ² from w's coefficients, Ŵ and Ŵ² (one expression for both entry points,
// so that positions computed with and without velocities agree bit for bit).
Mat3 integrated(const WarpingCoefficients<double>& c, const Mat3& W, const Mat3& W2) {
  return Mat3::Identity() + c.beta * W + c.gamma * W2;
}

}  // namespace

Mat3 integrated_rotation(const Vec3& w) {
  const Mat3 W = hat(w);
  const Mat3 W2 = W * W;
  return integrated(warping_coefficients(w.squaredNorm()), W, W2);
}

namespace {

// DR̃(w)[ẇ] from w's coefficients c, Ŵ = hat(w) and Ŵ².
Mat3 rate(const WarpingCoefficients<double>& c, const Vec3& w, const Vec3& wdot, const Mat3& W,
          const Mat3& W2) {
  // β′/θ = Σ (−1)^{k+1} (2k+2) t^k/(2k+4)!,  γ′/θ = Σ (−1)^{k+1} (2k+2) t^k/(2k+5)!.
  double dbeta, dgamma;
  warping_coefficient_rates(c, dbeta, dgamma);
  const Mat3 D = hat(wdot);
  return c.beta * D + c.gamma * (D * W + W * D) + w.dot(wdot) * (dbeta * W + dgamma * W2);
}

}  // namespace

Mat3 integrated_rotation_derivative(const Vec3& w, const Vec3& wdot) {
  const Mat3 W = hat(w);
  return rate(warping_coefficients(w.squaredNorm()), w, wdot, W, W * W);
}

void integrated_rotation_and_rate(const Vec3& w, const Vec3& wdot, Mat3& R, Mat3& dR) {
  const auto c = warping_coefficients(w.squaredNorm());
  const Mat3 W = hat(w);
  const Mat3 W2 = W * W;
  R = integrated(c, W, W2);
  dR = rate(c, w, wdot, W, W2);
}

namespace {

// R̃(w) y from w's coefficients and w × y.
Vec3 warped(const WarpingCoefficients<double>& c, const Vec3& w, const Vec3& y, const Vec3& wy) {
  return y + c.beta * wy + c.gamma * w.cross(wy);
}

}  // namespace

Vec3 rotate_back(const Vec3& w, const Vec3& f) {
  const auto c = warping_coefficients(w.squaredNorm());
  const Vec3 wf = w.cross(f);
  return f - c.alpha * wf + c.beta * w.cross(wf);
}

Vec3 warp(const Vec3& w, const Vec3& y) {
  return warped(warping_coefficients(w.squaredNorm()), w, y, w.cross(y));
}

void warp_with_rate(const Vec3& w, const Vec3& wdot, const Vec3& y, const Vec3& ydot, Vec3& u,
                    Vec3& udot) {
  const auto c = warping_coefficients(w.squaredNorm());
  double dbeta, dgamma;
  warping_coefficient_rates(c, dbeta, dgamma);
  const Vec3 wy = w.cross(y), wwy = w.cross(wy);
  u = warped(c, w, y, wy);
  const Vec3 dy = wdot.cross(y);
  udot = warped(c, w, ydot, w.cross(ydot)) + c.beta * dy +
         c.gamma * (wdot.cross(wy) + w.cross(dy)) + w.dot(wdot) * (dbeta * wy + dgamma * wwy);
}

}  // namespace substruct
