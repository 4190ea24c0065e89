// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/reduced_stvk.hpp"
#include "substruct/core/stopwatch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include "../core/detail/dense_columns_product.hpp"
#include "../fem/detail/material_checks.hpp"
#include "detail/packed_triangle.hpp"
#include "detail/polynomial_kernels.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/tet_geometry.hpp"

namespace substruct {

namespace {

using detail::row_offset;
using detail::triangle_size;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The numbers of cubic and quartic coefficients, r(r+1)(r+2)/6 and r(r+1)(r+2)(r+3)/24.
std::size_t cubic_count(int r) {
  const auto n = static_cast<std::size_t>(r);
  return n * (n + 1) * (n + 2) / 6;
}
std::size_t quartic_count(int r) {
  const auto n = static_cast<std::size_t>(r);
  return n * (n + 1) * (n + 2) * (n + 3) / 24;
}

// The number of orderings of a sorted index tuple that are the same tuple: the product of the
// factorials of the lengths of its runs of equal indices.
double repeats(int i, int j, int k) {
  if (i == k) return 6;
  return (i == j || j == k) ? 2 : 1;
}
double repeats(int i, int j, int k, int l) {
  const int t[4] = {i, j, k, l};
  double product = 1;
  int run = 1;
  for (int a = 1; a < 4; ++a) {
    run = t[a] == t[a - 1] ? run + 1 : 1;
    product *= run;
  }
  return product;
}

// The Voigt vector v(A) of a symmetric 3×3 matrix, with v(A)·v(B) = A : B:
//   v = (A₀₀, A₁₁, A₂₂, √2 A₀₁, √2 A₀₂, √2 A₁₂);  e = (1,1,1,0,0,0) gives e·v(A) = tr A.
// For StVK, Ψ = μ E:E + λ/2 tr(E)² = v(E)ᵀ (μ I + λ/2 e eᵀ) v(E).
Mat6 voigt_form(double a, double b) {  // a I + b e eᵀ
  Mat6 C = a * Mat6::Identity();
  C.topLeftCorner<3, 3>().array() += b;
  return C;
}

// Lower Cholesky factor of an SPD 6×6 form (a > 0 and a + 3b > 0 for every valid material).
Mat6 cholesky(const Mat6& C) {
  return Eigen::LLT<Mat6>(C).matrixL();
}

}  // namespace

std::size_t ReducedStVKPolynomial::coefficient_count(int r) {
  return triangle_size(r) + cubic_count(r) + quartic_count(r);
}

namespace {

/// The first row of B (and Xt) of `rank` when the lower triangle of s rows is shared out by area:
/// rows [first_shared_row(p), first_shared_row(p + 1)) hold about s²/(2 ranks) entries each.
Eigen::Index first_shared_row(Eigen::Index s, int rank, int ranks) {
  return static_cast<Eigen::Index>(std::lround(double(s) * std::sqrt(double(rank) / ranks)));
}

/// Rows [lo, hi) of the lower triangle of B and of Xt, as bytes (to another rank), and back.
std::string pack_rows(const Eigen::MatrixXd& B, const Eigen::MatrixXd& Xt, Eigen::Index lo,
                      Eigen::Index hi) {
  std::string bytes;
  for (Eigen::Index i = lo; i < hi; ++i) {
    const Eigen::VectorXd row = B.row(i).head(i + 1).transpose();
    const Eigen::VectorXd x = Xt.row(i).transpose();
    bytes.append(reinterpret_cast<const char*>(row.data()), row.size() * sizeof(double));
    bytes.append(reinterpret_cast<const char*>(x.data()), x.size() * sizeof(double));
  }
  return bytes;
}
void unpack_rows(const std::string& bytes, Eigen::Index lo, Eigen::Index hi, Eigen::MatrixXd& B,
                 Eigen::MatrixXd& Xt) {
  const auto r = Xt.cols();
  if (bytes.size() !=
      sizeof(double) * static_cast<std::size_t>((hi - lo) * (hi + lo + 1) / 2 + (hi - lo) * r))
    throw Error("reduced StVK polynomials: a rank sent a share of the wrong size");
  const auto* v = reinterpret_cast<const double*>(bytes.data());
  for (Eigen::Index i = lo; i < hi; ++i) {
    for (Eigen::Index j = 0; j <= i; ++j) B(i, j) = *v++;
    for (Eigen::Index j = 0; j < r; ++j) Xt(i, j) = *v++;
  }
}

}  // namespace

// With E₁ = sym(G) = Σ q_i H_i and E₂ = ½GᵀG = ½ Σ_ij q_i q_j S_ij, S_ij = sym(G_iᵀG_j), the
// element energy V Ψ(E₁ + E₂) splits by degree:
//   quadratic  V[μ E₁:E₁ + λ/2 tr(E₁)²]                 = Σ_ij   q_i q_j       A2_ij
//   cubic      V[2μ E₁:E₂ + λ tr(E₁) tr(E₂)]            = Σ_ijk  q_i q_j q_k   A3_i,jk
//   quartic    V[μ E₂:E₂ + λ/2 tr(E₂)²]                 = Σ_ijkl q_i q_j q_k q_l A4_ij,kl
// (sums over ordered indices) with, in Voigt form (h_i = v(H_i), s_p = v(S_p), p an index pair),
//   A2_ij = V h_iᵀ C₂ h_j,  C₂ = μ I + λ/2 eeᵀ  (so K₀ = 2 Σ_e A2),
//   A3_i,p = V h_iᵀ C₃ s_p,  C₃ = μ I + λ/2 eeᵀ,
//   A4_p,p' = V s_pᵀ C₄ s_p',  C₄ = μ/4 I + λ/8 eeᵀ.
// Summed over the elements these are dense products of stacked per-element factors: with
// C₄ = L₄L₄ᵀ, B = Σ_e A4 = Y Yᵀ for the blocks Y_e = √V S_e L₄ (S_e: one row s_pᵀ per pair), and
// X = Σ_e A3 = Z Yᵀ for Z_e = √V H_e C₃ L₄⁻ᵀ (H_e: one row h_iᵀ per mode), and
// K₀ = Σ_e Hk_e Hk_eᵀ for Hk_e = √V H_e L₂, L₂L₂ᵀ = 2C₂. The coefficient of a monomial is the sum
// of the ordered coefficients over the distinct orderings of its indices:
//   c_ijk  = 2 (X_i,jk + X_j,ik + X_k,ij) / (repeats),
//   d_ijkl = 8 (B_ij,kl + B_ik,jl + B_il,jk) / (repeats).
ReducedStVKPolynomial::ReducedStVKPolynomial(const TetMesh& mesh, const Eigen::MatrixXd& U,
                                             Progress* progress, ProcessGroup* share)
    : ReducedForceModel(static_cast<int>(U.cols())) {
  const auto start = std::chrono::steady_clock::now();
  const Index num_vertices = mesh.num_vertices();
  if (U.rows() != 3 * Eigen::Index{num_vertices})
    throw Error(fmt::format(
        "reduced StVK polynomials: the basis U has {} rows, expected 3N = {} for a mesh of {} "
        "vertices",
        U.rows(), 3 * Eigen::Index{num_vertices}, num_vertices));
  detail::check_materials(mesh, /*density=*/false, /*elasticity=*/true);
  const TetGeometry geometry = TetGeometry::build(mesh);

  const int r = this->r();
  const auto s = static_cast<Eigen::Index>(triangle_size(r));  // index pairs i ≤ j
  coefficients_.assign(coefficient_count(r), 0.0);
  if (r == 0) {
    unpack();
    if (progress) progress->advance(static_cast<std::size_t>(mesh.num_elements()));
    precompute_seconds_ = seconds_since(start);
    return;
  }

  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(s, s);   // Σ_e A4, lower triangle
  Eigen::MatrixXd Xt = Eigen::MatrixXd::Zero(s, r);  // (Σ_e A3)ᵀ
  Eigen::MatrixXd K0 = Eigen::MatrixXd::Zero(r, r);  // lower triangle

  // This rank's rows of B and Xt: all of them in one process.
  const int ranks = share != nullptr ? share->size() : 1;
  const int rank = share != nullptr ? share->rank() : 0;
  const Eigen::Index lo = first_shared_row(s, rank, ranks),
                     hi = first_shared_row(s, rank + 1, ranks);

  constexpr Index kChunk = 48;  // elements per dense update
  Eigen::MatrixXd Y(s, 6 * kChunk), Z(r, 6 * kChunk), Hk(r, 6 * kChunk);
  Eigen::Matrix<double, 12, Eigen::Dynamic> Ue(12, r);
  RowMat G(9, r);  // G(3m + n, i) = (G_i)_mn = Σ_a U_e(3a+m, i) ∂N_a/∂X_n
  Eigen::Matrix<double, 6, Eigen::Dynamic> Hv(6, r);  // h_i
  Eigen::Matrix<double, Eigen::Dynamic, 6> Sv(s, 6);  // s_pᵀ, p = (i, j), i ≤ j
  const double root_half = std::sqrt(0.5);

  const Index num_elements = mesh.num_elements();
  for (Index first = 0; first < num_elements; first += kChunk) {
    const Index count = std::min(kChunk, num_elements - first);
    for (Index c = 0; c < count; ++c) {
      const Index e = first + c;
      const auto se = static_cast<std::size_t>(e);
      for (int a = 0; a < 4; ++a) Ue.middleRows<3>(3 * a) = U.middleRows<3>(3 * mesh.tets(e, a));
      const Eigen::Matrix<double, 4, 3> grad = shape_gradients(geometry.Dm_inv[se]);
      for (int m = 0; m < 3; ++m)
        for (int n = 0; n < 3; ++n)
          G.row(3 * m + n) = grad(0, n) * Ue.row(m) + grad(1, n) * Ue.row(3 + m) +
                             grad(2, n) * Ue.row(6 + m) + grad(3, n) * Ue.row(9 + m);
      // h_i = v(sym G_i)
      Hv.row(0) = G.row(0);
      Hv.row(1) = G.row(4);
      Hv.row(2) = G.row(8);
      Hv.row(3) = root_half * (G.row(1) + G.row(3));
      Hv.row(4) = root_half * (G.row(2) + G.row(6));
      Hv.row(5) = root_half * (G.row(5) + G.row(7));
      // s_(i,j) = v(sym(G_iᵀG_j)) for j ≥ i: (G_iᵀG_j)_mn = Σ_c (G_i)_cm (G_j)_cn, one column of
      // Sv per Voigt component, filled for all j ≥ i at once.
      for (int i = 0; i < r; ++i) {
        const Eigen::Index p = static_cast<Eigen::Index>(row_offset(r, 0, i)), len = r - i;
        auto Gi = [&](int row, int m) { return G(3 * row + m, i); };
        auto Gj = [&](int row, int n) { return G.row(3 * row + n).segment(i, len); };
        for (int m = 0; m < 3; ++m)  // diagonal components
          Sv.col(m).segment(p, len) =
              Gi(0, m) * Gj(0, m) + Gi(1, m) * Gj(1, m) + Gi(2, m) * Gj(2, m);
        const int off_m[3] = {0, 0, 1}, off_n[3] = {1, 2, 2};
        for (int o = 0; o < 3; ++o) {  // √2 · ½ ((G_iᵀG_j)_mn + (G_iᵀG_j)_nm)
          const int m = off_m[o], n = off_n[o];
          Sv.col(3 + o).segment(p, len) =
              root_half * (Gi(0, m) * Gj(0, n) + Gi(1, m) * Gj(1, n) + Gi(2, m) * Gj(2, n) +
                           Gi(0, n) * Gj(0, m) + Gi(1, n) * Gj(1, m) + Gi(2, n) * Gj(2, m));
        }
      }
      const Material& material = mesh.material_of(e);
      const double lambda = material.lambda(), mu = material.mu();
      const double V = geometry.volume[se], root_V = std::sqrt(V);
      const Mat6 L4 = cholesky(voigt_form(mu / 4, lambda / 8));
      const Mat6 C3 = voigt_form(mu, lambda / 2);
      const Mat6 M3 = L4.triangularView<Eigen::Lower>().solve(C3).transpose();  // C₃ L₄⁻ᵀ
      const Mat6 L2 = cholesky(2 * voigt_form(mu, lambda / 2));  // L₂L₂ᵀ = 2C₂ = 2μI + λeeᵀ
      Y.middleCols<6>(6 * c).noalias() = root_V * (Sv * L4);
      Z.middleCols<6>(6 * c).noalias() = root_V * (Hv.transpose() * M3);
      Hk.middleCols<6>(6 * c).noalias() = root_V * (Hv.transpose() * L2);
    }
    const Eigen::Index cols = 6 * count;
    if (ranks == 1) {
      B.selfadjointView<Eigen::Lower>().rankUpdate(Y.leftCols(cols));
      Xt.noalias() += Y.leftCols(cols) * Z.leftCols(cols).transpose();
    } else if (hi > lo) {  // rows [lo, hi) only: the diagonal block and the rectangle left of it
      const auto mine = Y.leftCols(cols).middleRows(lo, hi - lo);
      B.block(lo, lo, hi - lo, hi - lo).selfadjointView<Eigen::Lower>().rankUpdate(mine);
      if (lo > 0)
        B.block(lo, 0, hi - lo, lo).noalias() += mine * Y.leftCols(cols).topRows(lo).transpose();
      Xt.middleRows(lo, hi - lo).noalias() += mine * Z.leftCols(cols).transpose();
    }
    K0.selfadjointView<Eigen::Lower>().rankUpdate(Hk.leftCols(cols));
    if (progress) progress->advance(static_cast<std::size_t>(count));
  }

  if (ranks > 1) {  // every rank's rows to every rank
    const std::vector<std::string> all = share->all_gather(pack_rows(B, Xt, lo, hi));
    for (int p = 0; p < ranks; ++p)
      if (p != rank)
        unpack_rows(all[static_cast<std::size_t>(p)], first_shared_row(s, p, ranks),
                    first_shared_row(s, p + 1, ranks), B, Xt);
  }

  // The coefficients, in the documented order.
  auto pair = [r](int a, int b) {  // index pair (min, max) → row of Y
    if (a > b) std::swap(a, b);
    return static_cast<Eigen::Index>(row_offset(r, 0, a) + static_cast<std::size_t>(b - a));
  };
  auto Bs = [&B](Eigen::Index p, Eigen::Index q) { return p >= q ? B(p, q) : B(q, p); };
  double* out = coefficients_.data();
  for (int a = 0; a < r; ++a)
    for (int b = a; b < r; ++b) *out++ = K0(b, a);
  for (int i = 0; i < r; ++i)
    for (int j = i; j < r; ++j)
      for (int k = j; k < r; ++k)
        *out++ = 2 * (Xt(pair(j, k), i) + Xt(pair(i, k), j) + Xt(pair(i, j), k)) / repeats(i, j, k);
  for (int j = 0; j < r; ++j)
    for (int i = 0; i <= j; ++i) {
      const Eigen::Index ij = pair(i, j);
      for (int k = j; k < r; ++k) {
        const Eigen::Index ik = pair(i, k), jk = pair(j, k);
        for (int l = k; l < r; ++l)
          *out++ = 8 * (Bs(ij, pair(k, l)) + Bs(ik, pair(j, l)) + Bs(pair(i, l), jk)) /
                   repeats(i, j, k, l);
      }
    }
  unpack();
  precompute_seconds_ = seconds_since(start);
}

ReducedStVKPolynomial::ReducedStVKPolynomial(int r, std::vector<double> coefficients)
    : ReducedForceModel(r), coefficients_(std::move(coefficients)) {
  if (coefficients_.size() != coefficient_count(r))
    throw Error(fmt::format(
        "reduced StVK polynomials: {} stored coefficients, expected {} for r = {} modes",
        coefficients_.size(), coefficient_count(r), r));
  for (std::size_t t = 0; t < coefficients_.size(); ++t)
    if (!std::isfinite(coefficients_[t]))
      throw Error(fmt::format("reduced StVK polynomials: stored coefficient {} is {}", t,
                              coefficients_[t]));
  unpack();
}

namespace detail {

// The coefficients as the evaluation reads them, in aligned storage: K₀ dense; the cubic part as
// the matrix H of its Hessian, K₂(q) = P₃ + P₃ᵀ with P₃ = Σ_m q_m H_m (column H_m a padded
// triangle over [0, r)², one every `column` entries); the quartic triangles with padded rows.
struct PaddedPolynomial {
  explicit PaddedPolynomial(int r) : layout(r) {}
  PaddedTriangles layout;
  Eigen::MatrixXd K0;
  std::size_t column = 0;
  AlignedVector hessian, quartic;
  // The expanded Hessian of a small model (r ≤ kExpandedMaxR; rows = 0 otherwise), over the
  // lower triangle of K packed column by column (entry (a, b), a ≥ b) and padded to `rows`:
  // column m < r of `expanded` is K₂(e_m), column r + t is the part G_mn of K₃ for the t-th pair
  // m ≤ n (in the same order), so K₂(q) = Σ_m q_m K₂(e_m) and K₃(q) = Σ_{m≤n} q_m q_n G_mn.
  std::size_t rows = 0;
  AlignedVector expanded, K0_packed;
};

}  // namespace detail

namespace {

// Up to this r, evaluations multiply the expanded Hessian (r(r+1)/2 × (r + r(r+1)/2) values,
// 13 KB at r = 8, 165 KB at r = 16) by the r + r(r+1)/2 monomials q_m, q_m q_n: up to 1.5× the
// multiply-adds of the one-pass kernel over the unique coefficients, on one long regular product
// instead of r(r+1)/2 short runs, which is what decides the time at small r (beam3, one core:
// force + stiffness 0.55–0.85 µs against 2.55 µs at r = 10; a tie at r = 20, the one-pass kernel
// 1.7× faster at r = 30).
constexpr int kExpandedMaxR = 16;

// The one-pass kernel at q, in this thread's workspace (each array 32-byte aligned, its size
// rounded up to a multiple of 4): P₃ and P₄ (padded triangles over [0, r)²), with q padded with
// zeros (qp) and the scratch zz and y that stvk_assemble goes on with.
struct OnePass {
  double *qp, *zz, *P3, *P4, *y;
};
OnePass one_pass(const detail::PaddedPolynomial& poly, const double* q) {
  const detail::PaddedTriangles& L = poly.layout;
  auto round4 = [](std::size_t n) { return (n + 3) & ~std::size_t{3}; };
  const auto rp = static_cast<std::size_t>(L.padded_r()), T0 = round4(L.size(0));
  const std::size_t nq = round4(rp), nU = round4(L.nested(L.r()));
  thread_local detail::AlignedVector work;
  work.resize(2 * nq + 3 * T0 + nU);
  OnePass w;
  w.qp = work.data();
  w.zz = w.qp + nq;
  w.P3 = w.zz + T0;
  w.P4 = w.P3 + T0;
  double* U = w.P4 + T0;
  w.y = U + nU;
  std::copy(q, q + L.r(), w.qp);
  std::fill(w.qp + L.r(), w.qp + nq, 0.0);
  detail::stvk_hessian_parts(L, poly.hessian.data(), poly.column, poly.quartic.data(), w.qp, w.zz,
                             U, w.y, w.P3, w.P4);
  return w;
}

// The expanded Hessian of `poly` (see PaddedPolynomial), from the one-pass kernel at unit
// vectors: K₂(e_m) = P₃ + P₃ᵀ at e_m; G_mm = K₃(e_m), G_mn = K₃(e_m + e_n) − G_mm − G_nn.
void expand(detail::PaddedPolynomial& poly) {
  const detail::PaddedTriangles& L = poly.layout;
  const int r = L.r();
  const std::size_t pairs = triangle_size(r);
  poly.rows = (pairs + 3) & ~std::size_t{3};
  poly.expanded.assign(poly.rows * (static_cast<std::size_t>(r) + pairs), 0.0);
  poly.K0_packed.assign(poly.rows, 0.0);
  std::vector<double> q(static_cast<std::size_t>(r), 0.0);
  // Writes the packed lower triangle of P + Pᵀ to out (P an upper padded triangle).
  auto pack = [&](const double* P, double* out) {
    std::size_t p = 0;
    for (int b = 0; b < r; ++b)
      for (int a = b; a < r; ++a) out[p++] = (a == b ? 2 : 1) * P[L.at(0, b, a)];
  };
  std::vector<std::vector<double>> diagonal(static_cast<std::size_t>(r));  // G_mm
  for (int m = 0; m < r; ++m) {
    q[m] = 1;
    const OnePass at = one_pass(poly, q.data());
    q[m] = 0;
    pack(at.P3, poly.expanded.data() + poly.rows * m);
    diagonal[m].resize(pairs);
    pack(at.P4, diagonal[m].data());
  }
  std::vector<double> sum(pairs);
  std::size_t t = 0;
  for (int m = 0; m < r; ++m)
    for (int n = m; n < r; ++n, ++t) {
      double* G = poly.expanded.data() + poly.rows * (static_cast<std::size_t>(r) + t);
      if (n == m) {
        std::copy(diagonal[m].begin(), diagonal[m].end(), G);
        continue;
      }
      q[m] = q[n] = 1;
      const OnePass at = one_pass(poly, q.data());
      q[m] = q[n] = 0;
      pack(at.P4, sum.data());
      for (std::size_t p = 0; p < pairs; ++p) G[p] = sum[p] - diagonal[m][p] - diagonal[n][p];
    }
  std::size_t p = 0;
  for (int b = 0; b < r; ++b)
    for (int a = b; a < r; ++a) poly.K0_packed[p++] = poly.K0(a, b);
}

}  // namespace

void ReducedStVKPolynomial::unpack() {
  const int r = this->r();
  auto padded = std::make_shared<detail::PaddedPolynomial>(r);
  const detail::PaddedTriangles& L = padded->layout;
  padded->K0.resize(r, r);
  const double* k = coefficients_.data();
  for (int a = 0; a < r; ++a)
    for (int b = a; b < r; ++b) padded->K0(a, b) = padded->K0(b, a) = *k++;
  // The cubic energy's third derivatives: ∂³W/∂q_a∂q_b∂q_m = c_ijk × repeats(i, j, k) for
  // (i, j, k) the sorted (a, b, m). H_m(a, b) is that for a < b and half of it for a = b.
  const double* c = k;
  std::vector<std::size_t> cubic_start(static_cast<std::size_t>(r) + 1, 0);  // of c_i··
  for (int i = 0; i < r; ++i) cubic_start[i + 1] = cubic_start[i] + triangle_size(r - i);
  auto third = [&](int a, int b, int m) {
    int t[3] = {a, b, m};
    std::sort(t, t + 3);
    return c[cubic_start[t[0]] + row_offset(r, t[0], t[1]) +
             static_cast<std::size_t>(t[2] - t[1])] *
           repeats(t[0], t[1], t[2]);
  };
  padded->column = (L.size(0) + 3) & ~std::size_t{3};
  padded->hessian.assign(padded->column * static_cast<std::size_t>(r), 0.0);
  for (int m = 0; m < r; ++m) {
    double* H = padded->hessian.data() + padded->column * static_cast<std::size_t>(m);
    for (int a = 0; a < r; ++a)
      for (int b = a; b < r; ++b) H[L.at(0, a, b)] = (a == b ? 0.5 : 1.0) * third(a, b, m);
  }
  k += cubic_count(r);
  // Copies the unpadded triangle over [m, r)² at k to the padded one at out.
  auto copy_triangle = [&](int m, double* out) {
    for (int row = m; row < r; ++row) {
      std::copy(k, k + (r - row), out + L.at(m, row, row));
      k += r - row;
    }
  };
  std::size_t quartic_size = 0;
  for (int j = 0; j < r; ++j) quartic_size += static_cast<std::size_t>(j + 1) * L.size(j);
  padded->quartic.assign(quartic_size, 0.0);
  double* out = padded->quartic.data();
  for (int j = 0; j < r; ++j)
    for (int i = 0; i <= j; ++i, out += L.size(j)) copy_triangle(j, out);
  if (r <= kExpandedMaxR) expand(*padded);
  padded_ = std::move(padded);
}

// The Hessian of a monomial sum, accumulated from the unique coefficients: for each sorted index
// tuple with coefficient w, every pair of positions (p, p') adds w × (the product of the q's at
// the other positions) to the entry (t_p, t_p'), kept as a packed upper triangle P. Entries off
// the diagonal are then exact and diagonal ones half of it, so K = P + Pᵀ. K₂ = P₃ + P₃ᵀ (cubic
// energy) and K₃ = P₄ + P₄ᵀ (quartic energy) give, by Euler's theorem,
//   f = K₀q + ½K₂q + ⅓K₃q,   W = ½qᵀK₀q + ⅙qᵀK₂q + ¹⁄₁₂qᵀK₃q.
// Cubic, for each i (triangle C over (j, k), i ≤ j ≤ k): the pairs (j,k) give P[j:,j:] += q_i C,
// the pairs (i,j), (i,k) give row i += (C + Cᵀ) q.
// Quartic, for each i ≤ j (triangle W over (k, l), j ≤ k ≤ l): the pair (i,j) gives
// P_ij += Σ w_kl q_k q_l; the pairs (i,k), (i,l) give row i += q_j (W + Wᵀ) q, the pairs (j,k),
// (j,l) row j += q_i (W + Wᵀ) q, and (k,l) gives P[k,l] += q_i q_j W. Collected per row m in
// the triangle U_m = Σ_{j≥m} q_j W^{mj} + Σ_{i≤m} q_i W^{im} (over [m, r)²), these are
// row m += (U_m + U_mᵀ) q and P += ½ Σ_m q_m U_m: one pass over the coefficients with three
// multiply-adds each, on long contiguous runs (detail::stvk_hessian_parts).
void ReducedStVKPolynomial::evaluate(const Eigen::VectorXd& q, double* energy,
                                     Eigen::VectorXd* force, Eigen::MatrixXd* stiffness) const {
  check_coordinates(q, "reduced StVK polynomial");
  const int r = this->r();
  if (force && force->size() != r) force->resize(r);
  if (stiffness && (stiffness->rows() != r || stiffness->cols() != r)) stiffness->resize(r, r);
  if (energy) *energy = 0;
  if (r == 0 || (!energy && !force && !stiffness)) return;

  const detail::PaddedPolynomial& poly = *padded_;
  if (poly.rows > 0) {
    evaluate_expanded(q, energy, force, stiffness);
    return;
  }
  const OnePass w = one_pass(poly, q.data());

  // K = K₀ + P + Pᵀ (P = P₃ + P₄), f = K₀q + (P_f + P_fᵀ)q (P_f = ½P₃ + ⅓P₄),
  // W = ½qᵀK₀q + qᵀ(P₃/3 + P₄/6)q.
  const Eigen::MatrixXd& K0 = poly.K0;
  double* K = stiffness ? stiffness->data() : nullptr;
  const double W = detail::stvk_assemble(poly.layout, w.P3, w.P4, w.qp, K0.data(), K, w.y);
  if (force) *force = Eigen::Map<const Eigen::VectorXd>(w.y, r);
  if (energy) *energy = W;
}

namespace {

// K₂(q) and K₃(q) of the expanded evaluation (packed lower triangles, poly.rows entries each)
// and the monomials z, in this thread's workspace, with `extra` more entries after them.
struct ExpandedParts {
  double *z, *k2, *k3, *extra;
};
ExpandedParts expanded_parts(const detail::PaddedPolynomial& poly, const double* x,
                             std::size_t extra) {
  const int r = poly.layout.r();
  const std::size_t rows = poly.rows, pairs = triangle_size(r);
  thread_local detail::AlignedVector work;
  work.resize(3 * rows + extra);
  ExpandedParts w;
  w.z = work.data();  // pairs ≤ rows entries
  w.k2 = w.z + rows;
  w.k3 = w.k2 + rows;
  w.extra = w.k3 + rows;
  detail::expanded_monomials(r, x, w.z);
  detail::dense_columns_product(rows, static_cast<std::size_t>(r), poly.expanded.data(), rows, x,
                                w.k2);
  detail::dense_columns_product(
      rows, pairs, poly.expanded.data() + rows * static_cast<std::size_t>(r), rows, w.z, w.k3);
  return w;
}

}  // namespace

void ReducedStVKPolynomial::implicit_step_terms(const Eigen::VectorXd& q, const Eigen::VectorXd& x,
                                                double s, Eigen::VectorXd& force,
                                                Eigen::VectorXd& Kx, Eigen::MatrixXd& sK) const {
  check_coordinates(q, "reduced StVK polynomial");
  check_coordinates(x, "reduced StVK polynomial (implicit step terms, x)");
  const int r = this->r();
  if (force.size() != r) force.resize(r);
  if (Kx.size() != r) Kx.resize(r);
  if (sK.rows() != r || sK.cols() != r) sK.resize(r, r);
  if (r == 0) return;
  const detail::PaddedPolynomial& poly = *padded_;
  if (poly.rows > 0) {
    const ExpandedParts w = expanded_parts(poly, q.data(), 0);
    detail::expanded_step_terms(r, poly.K0_packed.data(), w.k2, w.k3, q.data(), x.data(), s,
                                sK.data(), force.data(), Kx.data());
    return;
  }
  const OnePass w = one_pass(poly, q.data());
  // x padded as q, f and Kx padded, and the kernel's scratch.
  const auto rp = static_cast<std::size_t>(poly.layout.padded_r());
  const std::size_t n = (rp + 3) & ~std::size_t{3};
  thread_local detail::AlignedVector work;
  work.resize(6 * n);
  double* xp = work.data();
  double* f = xp + n;
  double* k = f + n;
  std::copy(x.data(), x.data() + r, xp);
  std::fill(xp + r, xp + n, 0.0);
  detail::stvk_step_terms(poly.layout, w.P3, w.P4, w.qp, xp, poly.K0.data(), s, f, k, sK.data(),
                          k + n);
  std::copy(f, f + r, force.data());
  std::copy(k, k + r, Kx.data());
}

// Small r: with the monomials z = (q_m q_n)_{m≤n}, K₂(q) = E_lin q and K₃(q) = E_quad z are two
// dense products; then per packed entry (a, b) of the lower triangle
//   K = K₀ + K₂ + K₃,   f = (K₀ + ½K₂ + ⅓K₃) q,   W = qᵀ(½K₀ + ⅙K₂ + ¹⁄₁₂K₃)q  (Euler).
void ReducedStVKPolynomial::evaluate_expanded(const Eigen::VectorXd& q, double* energy,
                                              Eigen::VectorXd* force,
                                              Eigen::MatrixXd* stiffness) const {
  const detail::PaddedPolynomial& poly = *padded_;
  const int r = this->r();
  const std::size_t pairs = triangle_size(r);
  const std::size_t square = static_cast<std::size_t>(r) * static_cast<std::size_t>(r);
  const double* x = q.data();
  const ExpandedParts parts = expanded_parts(poly, x, square + static_cast<std::size_t>(r));
  double* z = parts.z;
  const double* k2 = parts.k2;
  const double* k3 = parts.k3;
  // K = K₀ + K₂ + K₃ and f = (K₀ + ½K₂ + ⅓K₃) q; W = qᵀ(½K₀ + ⅙K₂ + ¹⁄₁₂K₃)q below.
  const double* __restrict k0 = poly.K0_packed.data();
  if (force || stiffness) {
    double* unused = parts.extra;  // r² + r entries for the output not asked for
    detail::expanded_assemble(r, k0, k2, k3, x, stiffness ? stiffness->data() : unused,
                              force ? force->data() : unused + square);
  }
  if (!energy) return;
  // W = qᵀ S q with S = ½K₀ + ⅙K₂ + ¹⁄₁₂K₃ (packed in z, free again), column by column.
  double* __restrict S = z;
  for (std::size_t p = 0; p < pairs; ++p)
    S[p] = 0.5 * k0[p] + (1.0 / 6) * k2[p] + (1.0 / 12) * k3[p];
  double W = 0;
  std::size_t p = 0;
  for (int b = 0; b < r; ++b) {
    const double* __restrict column = S + p - b;  // indexed by row
    double dot = 0;
    for (int a = b + 1; a < r; ++a) dot += column[a] * x[a];
    W += x[b] * (column[b] * x[b] + 2 * dot);
    p += static_cast<std::size_t>(r - b);
  }
  *energy = W;
}

}  // namespace substruct
