// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/kinematics/system_forces.hpp"

#include <algorithm>
#include <new>
#include <vector>

#include <fmt/format.h>

#include "../core/detail/aligned_vector.hpp"
#include "../core/detail/dense_columns_product.hpp"
#include "../core/detail/kernel_dispatch.hpp"
#include "../core/detail/simd.hpp"

#include "substruct/core/error.hpp"

namespace substruct {

// The integrals of App. B as exact products with the consistent mass M = ∫ρ NᵀN (every integrand
// is the product of two fields interpolated linearly on each tetrahedron). For a, b ∈ {x, y, z}
// let E_ab be the 3×3 unit matrix (E_ab v = v_b e_a) and, with (·)_a the N rows of component a,
//   P_ab = Uᵀ M (I ⊗ E_ab) X = (MᵀU)_aᵀ X_b   ∈ ℝʳ    (∫ρ U_a X_b dV)
//   Q_ab = Uᵀ M (I ⊗ E_ab) U = (MᵀU)_aᵀ U_b   ∈ ℝʳˣʳ  (∫ρ U_a U_bᵀ dV).
// For any 3×3 L applied at every point, −∫ρ Uᵀ L (X + U q) dV = −Σ_ab L_ab (P_ab + Q_ab q). With
// L = α̃ + ω̃² and the Coriolis term 2 ω̃ U q̇, Eq. 13 becomes
//   f_sys = −(Uᵀ M E) a − Σ_ab L_ab P_ab − Σ_ab Q_ab (L_ab q + 2 ω̃_ab q̇).
// In the paper's notation: Uᵀ M E = −W¹ (rows); P collects W², W³, W⁵ (α̃: W², ‖ω‖²: W³,
// ω ωᵀ: W⁵); Q collects W⁴ (ΣQ_aa), W⁶ (the antisymmetric parts, for α and 2 q̇ᵀ…ω) and W⁷
// ((W⁷ℓp)_ab = Q_ab(ℓ, p)). Evaluation is one r × (12 + 9r) matrix-vector product.
SystemForceIntegrals::SystemForceIntegrals(const Points& X, const SparseMatrix& M,
                                           const Eigen::MatrixXd& U) {
  const Eigen::Index N = X.rows();
  if (M.rows() != 3 * N || M.cols() != 3 * N)
    throw Error(
        fmt::format("system force integrals: the mass matrix is {}×{} for {} vertices "
                    "(expected {}×{})",
                    M.rows(), M.cols(), N, 3 * N, 3 * N));
  if (U.rows() != 3 * N)
    throw Error(
        fmt::format("system force integrals: the basis has {} rows for {} vertices "
                    "(expected {})",
                    U.rows(), N, 3 * N));
  if (!X.allFinite() || !U.allFinite())
    throw Error("system force integrals: the rest positions or the basis are not finite");
  r_ = static_cast<int>(U.cols());
  const Eigen::Index r = r_;

  // Scalar fields as 3N vectors in the x slots: Y_b = X_b e_x, one = 1 e_x.
  Eigen::MatrixXd Y = Eigen::MatrixXd::Zero(3 * N, 4);
  for (Eigen::Index k = 0; k < N; ++k) {
    for (int b = 0; b < 3; ++b) Y(3 * k, b) = X(k, b);
    Y(3 * k, 3) = 1;
  }
  const Eigen::MatrixXd MY = M * Y;
  const Eigen::Matrix4d moments = Y.transpose() * MY;  // ∫ρ [X 1][X 1]ᵀ dV
  mass_ = moments(3, 3);
  first_moment_ = moments.block<3, 1>(0, 3);
  const Mat3 XX = moments.block<3, 3>(0, 0);  // ∫ρ X Xᵀ dV
  inertia_ = XX.trace() * Mat3::Identity() - XX;

  // (MᵀU)_a and U_b: N×r, rows of one component (strided views of the 3N×r matrices).
  const Eigen::MatrixXd MtU = M.transpose() * U;
  using Rows = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, 3>>;
  const auto component = [N, r](const Eigen::MatrixXd& A, int a) {
    return Rows(A.data() + a, N, r, Eigen::Stride<Eigen::Dynamic, 3>(A.outerStride(), 3));
  };

  rows_ = (static_cast<std::size_t>(r) + 3) & ~std::size_t{3};
  const std::size_t size = rows_ * static_cast<std::size_t>(12 + 9 * r);
  double* storage =
      static_cast<double*>(::operator new (size * sizeof(double), std::align_val_t{64}));
  W_ = std::shared_ptr<const double[]>(storage, [](const double* p) {
    ::operator delete (const_cast<double*>(p), std::align_val_t{64});
  });
  std::fill(storage, storage + size, 0.0);
  Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>> W(storage, r, 12 + 9 * r,
                                                         Eigen::OuterStride<>(rows_));
  for (int a = 0; a < 3; ++a) {
    const Rows MtU_a = component(MtU, a);
    W.col(a) = MtU_a.transpose() * Eigen::VectorXd::Ones(N);  // (Uᵀ M E)_{:,a}
    for (int b = 0; b < 3; ++b) {
      W.col(3 + 3 * a + b) = MtU_a.transpose() * X.col(b);                          // P_ab
      W.middleCols(12 + r * (3 * a + b), r) = MtU_a.transpose() * component(U, b);  // Q_ab
    }
  }
  uniform_force_ = W.leftCols<3>();
}

SystemForceIntegrals::SystemForceIntegrals(double mass, const Vec3& first_moment,
                                           const Mat3& second_moment)
    : mass_(mass),
      first_moment_(first_moment),
      inertia_(second_moment.trace() * Mat3::Identity() - second_moment),
      uniform_force_(0, 3) {
  if (!(mass > 0) || !first_moment.allFinite() || !second_moment.allFinite())
    throw Error(
        fmt::format("system force integrals: a rigid domain's mass {} or moments are "
                    "not finite and positive",
                    mass));
}

namespace {

using detail::at4;
using detail::v4d;

// x = [a; vec(L); (L_ab q + 2 ω̃_ab q̇)_{ab}] (12 + 9r entries) with L = α̃ + ω̃² = α̃ + ω ωᵀ − |ω|² I,
// from scalars, four entries of q at a time (with Eigen's 3×3 products, written to the stack one
// value at a time, and a loop of two entries, a leaf's call at r = 8 took 106 ns, now 70).
SUBSTRUCT_KERNEL
void system_force_monomials(std::size_t r, const double* a, const double* omega,
                            const double* alpha, const double* q, const double* qdot, double* x) {
  const double wx = omega[0], wy = omega[1], wz = omega[2];
  const double w2 = wx * wx + wy * wy + wz * wz;
  // ω̃ and α̃ (hat), row-major: (a, b) at 3a + b.
  const double W[9] = {0, -wz, wy, wz, 0, -wx, -wy, wx, 0};
  const double A[9] = {0, -alpha[2], alpha[1], alpha[2], 0, -alpha[0], -alpha[1], alpha[0], 0};
  for (int i = 0; i < 3; ++i) x[i] = a[i];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const int ab = 3 * i + j;
      const double l = A[ab] + omega[i] * omega[j] - (i == j ? w2 : 0.0), w = 2 * W[ab];
      x[3 + ab] = l;
      double* z = x + 12 + r * static_cast<std::size_t>(ab);
      const v4d l4 = SPLAT4(l), w4 = SPLAT4(w);
      std::size_t k = 0;
      for (; k + 4 <= r; k += 4) at4(z + k) = l4 * at4(q + k) + w4 * at4(qdot + k);
      for (; k < r; ++k) z[k] = l * q[k] + w * qdot[k];
    }
}

}  // namespace

void SystemForceIntegrals::evaluate(const FrameMotion& frame, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& qdot, Eigen::VectorXd& f) const {
  if (q.size() != r_ || qdot.size() != r_)
    throw Error(fmt::format("system forces: q has {} and q̇ {} entries for a basis of {} modes",
                            q.size(), qdot.size(), r_));
  // a(X) = a + L x + 2 ω̃ ẋ with L = α̃ + ω̃² (α × x + ω × (ω × x)), Eq. 12
  // x = [a; vec(L); (L_ab q + 2 ω̃_ab q̇)_{ab}] (12 + 9r), y = W x (rows_), both aligned.
  f.resize(r_);
  if (r_ == 0) return;  // a rigid domain's: no modes to force
  const auto r = static_cast<std::size_t>(r_);
  const std::size_t cols = 12 + 9 * r;
  thread_local detail::AlignedVector work;              // no allocation after the
  work.resize(((cols + 3) & ~std::size_t{3}) + rows_);  // first call on a thread
  double* x = work.data();
  double* y = x + ((cols + 3) & ~std::size_t{3});
  system_force_monomials(r, frame.a.data(), frame.omega.data(), frame.alpha.data(), q.data(),
                         qdot.data(), x);
  // Eq. 13–14: f_sys = −(Uᵀ M E) a − Σ L_ab P_ab − Σ Q_ab (L_ab q + 2 ω̃_ab q̇)
  detail::dense_columns_product(rows_, cols, W_.get(), rows_, x, y);
  for (int k = 0; k < r_; ++k) f[k] = -y[k];
}

}  // namespace substruct
