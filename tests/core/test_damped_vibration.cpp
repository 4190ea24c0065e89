// SPDX-License-Identifier: GPL-3.0-or-later
// The dominant damped vibration (matrix pencil) on synthetic signals: frequency and decay of a
// damped cosine riding on an offset and a drift, of one that dies out within the run (where
// counting zero crossings fails), the larger of two, none for a motion without vibration; and
// the motion-relative errors.
#include "substruct/core/damped_vibration.hpp"

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "substruct/bench/accuracy.hpp"
#include "substruct/core/error.hpp"

namespace substruct {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

// s(t) = a e^{−σt} cos(2π f t + 0.4) + offset + drift·t, every dt for `frames`.
Eigen::VectorXd damped(double f, double sigma, double dt, int frames, double a = 0.05,
                       double offset = 0, double drift = 0) {
  Eigen::VectorXd s(frames);
  for (int k = 0; k < frames; ++k) {
    const double t = k * dt;
    s[k] = a * std::exp(-sigma * t) * std::cos(kTwoPi * f * t + 0.4) + offset + drift * t;
  }
  return s;
}

TEST(DampedVibration, FrequencyAndDecayOfADampedCosineOnAnOffsetAndADrift) {
  const DampedVibration v =
      dominant_vibration(damped(3.07, 0.9, 0.01, 300, 0.05, -0.2, 0.03), 0.01);
  EXPECT_NEAR(v.frequency_hz, 3.07, 3.07 * 1e-6);
  EXPECT_NEAR(v.decay_rate, 0.9, 1e-5);
  EXPECT_NEAR(v.amplitude, 0.05, 1e-6);
  const DampedVibration steady = dominant_vibration(damped(1.6, 0.0, 0.023, 200), 0.023);
  EXPECT_NEAR(steady.frequency_hz, 1.6, 1.6 * 1e-6);
  EXPECT_NEAR(steady.decay_rate, 0.0, 1e-6);
}

TEST(DampedVibration, AVibrationThatDiesOutWithinTheRunStillHasItsFrequency) {
  // e^{−2·6} ≈ 6e-6 of the amplitude is left at the end: the second half of the signal is flat,
  // and zero crossings give no frequency.
  const Eigen::VectorXd s = damped(2.2, 2.0, 0.01, 600, 0.05, 0.1);
  const DampedVibration v = dominant_vibration(s, 0.01);
  EXPECT_NEAR(v.frequency_hz, 2.2, 2.2 * 1e-4);
  EXPECT_NEAR(v.decay_rate, 2.0, 2.0 * 1e-3);
}

TEST(DampedVibration, AShortLivedTransientDoesNotPoseAsTheVibration) {
  // An overdamped return to rest (the motion's energy) with a fast ringing that has a larger
  // amplitude at t = 0 and dies within a few steps: ranking by initial amplitude reported the
  // ringing's 40 Hz; by energy the dominant motion is the return, which does not vibrate.
  Eigen::VectorXd s(300);
  for (int k = 0; k < 300; ++k) {
    const double t = 0.01 * k;
    s[k] = 0.05 * std::exp(-1.5 * t) + 0.2 * std::exp(-60 * t) * std::cos(kTwoPi * 40 * t);
  }
  EXPECT_TRUE(std::isnan(dominant_vibration(s, 0.01).frequency_hz));
  // The same ringing on a slowly decaying vibration: the vibration is reported.
  s += damped(1.7, 0.3, 0.01, 300, 0.05);
  EXPECT_NEAR(dominant_vibration(s, 0.01).frequency_hz, 1.7, 1.7 * 1e-3);
}

TEST(DampedVibration, NoneForAVibrationDampedByMoreThanEPerPeriod) {
  // σ = 6 /s at 2.2 Hz: e^{−6/2.2} ≈ 0.07 of the amplitude is left after one period.
  EXPECT_TRUE(std::isnan(dominant_vibration(damped(2.2, 6.0, 0.01, 300, 0.05), 0.01).frequency_hz));
  EXPECT_FALSE(
      std::isnan(dominant_vibration(damped(2.2, 1.8, 0.01, 300, 0.05), 0.01).frequency_hz));
}

TEST(DampedVibration, TheLargerOfTwoVibrationsIsReported) {
  const Eigen::VectorXd s = damped(1.3, 0.2, 0.01, 400, 0.08) + damped(7.9, 0.5, 0.01, 400, 0.02);
  EXPECT_NEAR(dominant_vibration(s, 0.01).frequency_hz, 1.3, 1.3 * 1e-5);
  const Eigen::VectorXd t = damped(1.3, 0.2, 0.01, 400, 0.01) + damped(7.9, 0.5, 0.01, 400, 0.05);
  EXPECT_NEAR(dominant_vibration(t, 0.01).frequency_hz, 7.9, 7.9 * 1e-5);
}

TEST(DampedVibration, NoneWithoutAVibration) {
  Eigen::VectorXd creep(200);  // approaches a sag without overshoot
  for (int k = 0; k < 200; ++k) creep[k] = -0.1 * (1 - std::exp(-0.05 * k));
  EXPECT_TRUE(std::isnan(dominant_vibration(creep, 0.01).frequency_hz));
  EXPECT_TRUE(
      std::isnan(dominant_vibration(Eigen::VectorXd::Constant(100, 2.0), 0.01).frequency_hz));
  EXPECT_TRUE(std::isnan(dominant_vibration(Eigen::VectorXd::Zero(5), 0.01).frequency_hz));
  EXPECT_TRUE(std::isnan(dominant_vibration(damped(0.2, 0, 0.01, 300), 0.01).frequency_hz))
      << "0.6 of a cycle is not a vibration";
  EXPECT_TRUE(std::isnan(dominant_vibration(damped(0.5, 0, 0.01, 300), 0.01).frequency_hz))
      << "1.5 cycles are too few to tell a frequency";
  EXPECT_FALSE(std::isnan(dominant_vibration(damped(0.8, 0, 0.01, 300), 0.01).frequency_hz))
      << "2.4 cycles are enough";
}

TEST(DampedVibration, OfPositionsAlongTheirPrincipalDirection) {
  const Vec3 direction = Vec3(1, 2, 2) / 3;
  const Eigen::VectorXd s = damped(4.1, 1.5, 0.005, 400, 0.02, 0.3);
  Eigen::MatrixXd x(400, 3);
  for (int k = 0; k < 400; ++k) x.row(k) = (Vec3(0.3, -1.2, 2.0) + s[k] * direction).transpose();
  const DampedVibration v = dominant_vibration_of_positions(x, 0.005);
  EXPECT_NEAR(v.frequency_hz, 4.1, 4.1 * 1e-6);
  EXPECT_NEAR(v.decay_rate, 1.5, 1e-4);
}

TEST(MotionError, IsRelativeToTheReferencesOwnMotion) {
  // Two tracked vertices sagging and vibrating from a start; the test moves (1 + ε) as far.
  const int frames = 120;
  Eigen::MatrixXd reference(frames, 6), test(frames, 6), still(frames, 6);
  const Eigen::RowVectorXd start = (Eigen::RowVectorXd(6) << 1, 0, 0, 2, 0.5, 0).finished();
  const double epsilon = 0.3;
  for (int k = 0; k < frames; ++k) {
    const Eigen::VectorXd s = damped(2.0, 0.5, 0.01, frames, 0.02, -0.05);
    Eigen::RowVectorXd motion = Eigen::RowVectorXd::Zero(6);
    motion[1] = s[k] - s[0];
    motion[4] = 0.5 * (s[k] - s[0]);
    reference.row(k) = start + motion;
    test.row(k) = start + (1 + epsilon) * motion;
    still.row(k) = start;
  }
  const MotionError e = motion_error(test, reference);
  EXPECT_NEAR(e.relative_rms, epsilon, 1e-12);
  EXPECT_NEAR(e.offset_ratio, 1 + epsilon, 1e-12);
  const MotionError s = motion_error(still, reference);
  EXPECT_NEAR(s.relative_rms, 1.0, 1e-12);
  EXPECT_NEAR(s.offset_ratio, 0.0, 1e-12);
  EXPECT_TRUE(std::isnan(motion_error(still, still).relative_rms));
  EXPECT_THROW(motion_error(test, still.leftCols(3)), Error);
}

}  // namespace
}  // namespace substruct
