// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The dominant vibration of a sampled signal, damped or not, by the matrix pencil method (Hua &
/// Sarkar 1990): the signal is fitted as a sum of damped complex exponentials
///   s(t_k) ≈ Σ_i a_i z_i^k,  z_i = exp((−σ_i + 2πi f_i) dt),
/// their poles z_i read off a Hankel matrix of the samples (an SVD keeps the significant
/// components, so a constant offset, a slow drift and noise do not pose as the vibration), and
/// the components are ranked by their energy over the run (Σ_k |a_i z_i^k|²). The dominant one is
/// reported when it is a vibration: it oscillates, completes at least two cycles in the run and
/// loses less than a factor e of its amplitude per period. An overdamped return, a creep, a
/// transient or a run too short gives no vibration rather than a number. Unlike counting zero
/// crossings, it gives the frequency of a vibration that dies out within the run, and how fast.
#include "substruct/core/types.hpp"

namespace substruct {

struct DampedVibration {
  double frequency_hz = 0;  // f of the dominant oscillating component
  double decay_rate = 0;    // σ [1/s]: its amplitude goes as e^{−σ t} (negative: it grows)
  double amplitude = 0;     // |a| at t = 0
};

/// Of the samples `s` taken every `dt` seconds. Returns nothing (frequency NaN) when fewer than 8
/// samples, a non-positive dt, or when the most energetic motion (an offset or a slow drift
/// aside) is not a vibration as above: it does not move, moves without vibrating, vibrates fewer
/// than two cycles in the run, or is damped by more than e per period.
DampedVibration dominant_vibration(const Eigen::VectorXd& s, double dt);

/// The same for one vertex's positions (frames × 3): its motion projected on the principal
/// direction of the motion.
DampedVibration dominant_vibration_of_positions(const Eigen::MatrixXd& positions, double dt);

}  // namespace substruct
