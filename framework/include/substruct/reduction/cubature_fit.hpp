// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The greedy cubature fit of An et al. 2008 (§4): choose a few candidates (elements) and
/// non-negative weights so that their weighted contributions reproduce the sum of all of them
/// over a set of training data. Used for the domains' internal forces (CubatureForceModel) and
/// for the coupling forces at interfaces.
#include <vector>

#include "substruct/core/progress.hpp"
#include "substruct/core/types.hpp"

namespace substruct {

struct CubatureFit {
  std::vector<Index> samples;   // the chosen candidates (columns of A), weight > 0
  std::vector<double> weights;  // one per sample
  double relative_error = 0;    // ‖A w − b‖ / ‖b‖ on the training data
};

/// Columns of A (rows: training data, e.g. force components over the training poses, each pose
/// normalised) are the candidates' contributions, b their target (usually A 1). Repeatedly adds
/// the candidate whose column is most correlated with the residual (largest normalised dot
/// product) and refits all weights by non-negative least squares (Lawson–Hanson, warm-started),
/// until the relative residual is at most `tolerance`, `max_samples` were tried, or no candidate
/// correlates positively. Deterministic. `progress`, when given, advances once per selection.
CubatureFit greedy_cubature_fit(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, int max_samples,
                                double tolerance, Progress* progress = nullptr);

}  // namespace substruct
