// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The polar decompositions A = R S and the rotation rates of Eq. 7 and 9 (Barbič–Zhao 2011, §3)
/// of up to four interfaces at once, one in each lane of the AVX2 registers: a branch's leaves
/// each need them every step, and one interface at a time they are chains of dependent 3×3
/// operations. Compiled for AVX2/FMA and the baseline, the processor choosing at load time.
#include "substruct/core/types.hpp"

namespace substruct {

/// The results for lanes 0 … n − 1. ok[k] is false where lane k needs the one-interface
/// functions: its A is not clearly a proper near-rotation for Newton's iteration (det A not
/// clearly positive, or no convergence: polar_decomposition then takes the SVD), or its G is
/// singular to working precision (polar_rotation_rates then explains why); its other outputs
/// are then unspecified.
struct PolarRatesBatch {
  Mat3 R[4], S[4];
  Vec3 omega[4], omega_dot[4];               // ω (Eq. 7) and ω̇ (Eq. 9)
  Eigen::Matrix<double, 3, 9> omega_map[4];  // Ω (polar_angular_velocity_map), when asked
  bool ok[4] = {};
};

/// polar_decomposition(A[k]) and polar_rotation_rates(…, A_dot[k], A_ddot[k], Ω) for k < n ≤ 4,
/// to rounding (the same iteration, stopped at the same test, lane by lane).
void polar_rotation_rates_batch(int n, const Mat3* A, const Mat3* A_dot, const Mat3* A_ddot,
                                bool with_map, PolarRatesBatch& out);

}  // namespace substruct
