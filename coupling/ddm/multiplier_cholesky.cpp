// SPDX-License-Identifier: GPL-3.0-or-later
#include "multiplier_cholesky.hpp"

#include <Eigen/Cholesky>

#ifdef SUBSTRUCT_DDM_LAPACK
extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda,
             double* b, const int* ldb, int* info);
}
#endif

namespace substruct::ddm {

bool MultiplierCholesky::factor(Eigen::MatrixXd& W) {
  if (W.rows() == 0) return true;
#ifdef SUBSTRUCT_DDM_LAPACK
  const int n = static_cast<int>(W.rows());
  int info = 0;
  dpotrf_("L", &n, W.data(), &n, &info);
  return info == 0;
#else
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd> > llt(W);  // in place, lower triangle
  return llt.info() == Eigen::Success;
#endif
}

void MultiplierCholesky::solve(const Eigen::MatrixXd& factored, const Eigen::VectorXd& b,
                               Eigen::VectorXd& x) const {
  x = b;
  if (b.size() == 0) return;
#ifdef SUBSTRUCT_DDM_LAPACK
  const int n = static_cast<int>(factored.rows()), one = 1;
  int info = 0;
  dpotrs_("L", &n, &one, factored.data(), &n, x.data(), &n, &info);
#else
  const auto L = factored.triangularView<Eigen::Lower>();
  L.solveInPlace(x);
  L.transpose().solveInPlace(x);
#endif
}

}  // namespace substruct::ddm
