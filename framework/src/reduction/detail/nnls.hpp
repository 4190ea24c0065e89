// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Non-negative least squares, min ‖Ax − b‖ subject to x ≥ 0: the active-set method of Lawson and
// Hanson (Solving Least Squares Problems, 1974, ch. 23), on the normal equations G = AᵀA, h = Aᵀb
// (the "fast NNLS" form of Bro and de Jong, 1997), with a warm start.
#include <Eigen/Core>

namespace substruct::detail {

struct NnlsReport {
  int iterations = 0;      // passive-set changes (outer and inner iterations)
  bool converged = false;  // the KKT conditions hold: w = h − Gx ≤ tolerance where x = 0
};

/// Solves min ½xᵀGx − hᵀx (= ½‖Ax − b‖² + const) over x ≥ 0 for symmetric positive
/// semi-definite G (n×n). On entry x (n entries) is a feasible start (x ≥ 0; empty means zero):
/// its positive entries form the first passive set, so a solution of a neighbouring problem
/// (e.g. with one more column) is a warm start. On exit x is the solution. A column j enters the
/// passive set only while w_j = (h − Gx)_j > tolerance · max_i |h_i|; one whose least-squares
/// weight comes out ≤ 0 as it enters (dependent on the passive columns, up to round-off) is left
/// out. Gives up after max_iterations (default 3n + 10). Throws Error for inconsistent sizes.
NnlsReport nnls_normal(const Eigen::MatrixXd& G, const Eigen::VectorXd& h, Eigen::VectorXd& x,
                       double tolerance = 1e-12, int max_iterations = -1);

/// min ‖Ax − b‖ over x ≥ 0, from zero: nnls_normal(AᵀA, Aᵀb).
Eigen::VectorXd nnls(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                     NnlsReport* report = nullptr);

}  // namespace substruct::detail
