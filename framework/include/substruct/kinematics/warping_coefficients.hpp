// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The scalar coefficients of modal warping (kinematics/modal_warping.hpp) as functions of
/// t = θ² = |w|², for any floating type and on a CUDA device too (core/host_device.hpp):
///   α = sin θ/θ,  β = (1 − cos θ)/θ²,  γ = (θ − sin θ)/θ³,
///   β′/θ = (α − 2β)/θ²,  γ′/θ = (β − 3γ)/θ²  (the rates used by DR̃, Eq. 7's derivative).
/// Below θ² = 1 each is its alternating Taylor series in t (terms decrease fast: the 10th is
/// < 1/21! of the first); above, the closed form, whose cancellation costs at most a few ulps
/// (θ − sin θ ≥ 0.158 θ at θ = 1). No division by a vanishing angle.
#include <cmath>

#include "substruct/core/host_device.hpp"

namespace substruct {

template <class T>
struct WarpingCoefficients {
  T t, alpha, beta, gamma;
};

namespace detail {

// Σ_{k≥0} (−1)^k (k+1)^p t^k / (2k+m)!, p = 0 or 1 (the coefficients and their derivatives).
template <class T>
SUBSTRUCT_HD inline T warping_series(T t, int m, bool weighted) {
  constexpr int kTerms = 10;
  T factorial = 1;  // m!
  for (int i = 2; i <= m; ++i) factorial *= T(i);
  T term = T(1) / factorial, sum = 0;
  for (int k = 0; k < kTerms; ++k) {
    sum += weighted ? T(k + 1) * term : term;
    // (1 / d: a constant once the loop is unrolled for a given m, so no division per term)
    term *= -t * (T(1) / T((2 * k + m + 1) * (2 * k + m + 2)));
  }
  return sum;
}

}  // namespace detail

/// α, β, γ of t = θ².
template <class T>
SUBSTRUCT_HD inline WarpingCoefficients<T> warping_coefficients(T t) {
  using std::sin;
  using std::sqrt;
  if (t < T(1))
    return {t, detail::warping_series(t, 1, false), detail::warping_series(t, 2, false),
            detail::warping_series(t, 3, false)};
  const T theta = sqrt(t), s = sin(theta), h = sin(T(0.5) * theta);
  // 1 − cos θ = 2 sin²(θ/2), without cancellation.
  return {t, s / theta, 2 * h * h / t, (theta - s) / (t * theta)};
}

/// β′/θ and γ′/θ (into dbeta, dgamma) from the coefficients c.
template <class T>
SUBSTRUCT_HD inline void warping_coefficient_rates(const WarpingCoefficients<T>& c, T& dbeta,
                                                   T& dgamma) {
  if (c.t < T(1)) {
    dbeta = -2 * detail::warping_series(c.t, 4, true);
    dgamma = -2 * detail::warping_series(c.t, 5, true);
  } else {
    dbeta = (c.alpha - 2 * c.beta) / c.t;
    dgamma = (c.beta - 3 * c.gamma) / c.t;
  }
}

}  // namespace substruct
