// SPDX-License-Identifier: GPL-3.0-or-later
// The kinematic kernels of inertia coupling, per call: polar decomposition of an interface
// covariance (once per interface per step; 1,400 per step on large trees), its rotation rates
// (Eq. 7–9), the interface-frame model (Eq. 1, 2, 6) and the reduced system forces (Eq. 13–14).
#include <random>

#include <benchmark/benchmark.h>
#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "substruct/fem/mass.hpp"
#include "substruct/kinematics/interface_frame.hpp"
#include "substruct/kinematics/polar_decomposition.hpp"
#include "substruct/kinematics/polar_decomposition_derivative.hpp"
#include "substruct/kinematics/system_forces.hpp"
#include "substruct/mesh/box_mesh.hpp"

namespace {

using namespace substruct;

Mat3 random_matrix(std::mt19937& rng) {
  std::normal_distribution<double> n;
  Mat3 A;
  for (int i = 0; i < 9; ++i) A(i) = n(rng);
  return A;
}

Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

// 64 covariances cycled through, so that no result is reused: rotations times I + δ (a few
// percent of strain, as for interfaces that deform mostly rigidly), or general matrices.
std::vector<Mat3> covariances(double strain, bool general) {
  std::mt19937 rng(7);
  std::vector<Mat3> A(64);
  for (auto& a : A) {
    a = general ? random_matrix(rng)
                : random_rotation(rng) * (Mat3::Identity() + strain * random_matrix(rng));
    if (a.determinant() < 0) a.col(0) = -a.col(0);
  }
  return A;
}

void BM_PolarDecomposition(benchmark::State& state, double strain, bool general) {
  const std::vector<Mat3> A = covariances(strain, general);
  std::size_t i = 0;
  for (auto _ : state) {
    PolarDecomposition p = polar_decomposition(A[i++ & 63]);
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK_CAPTURE(BM_PolarDecomposition, near_rotation_1pct, 0.01, false);
BENCHMARK_CAPTURE(BM_PolarDecomposition, near_rotation_10pct, 0.1, false);
BENCHMARK_CAPTURE(BM_PolarDecomposition, general, 0.0, true);

void BM_PolarDecompositionSVD(benchmark::State& state) {  // the fallback, det A < 0
  std::vector<Mat3> A = covariances(0.01, false);
  for (auto& a : A) a.col(1) = -a.col(1);
  std::size_t i = 0;
  for (auto _ : state) {
    PolarDecomposition p = polar_decomposition(A[i++ & 63]);
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(BM_PolarDecompositionSVD);

void BM_PolarRotationRates(benchmark::State& state) {
  const std::vector<Mat3> A = covariances(0.01, false);
  std::mt19937 rng(8);
  std::vector<PolarDecomposition> polar;
  std::vector<Mat3> A_dot, A_ddot;
  for (const Mat3& a : A) {
    polar.push_back(polar_decomposition(a));
    A_dot.push_back(random_matrix(rng));
    A_ddot.push_back(random_matrix(rng));
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & 63;
    PolarRotationRates rates = polar_rotation_rates(polar[k], A_dot[k], A_ddot[k]);
    benchmark::DoNotOptimize(rates);
  }
}
BENCHMARK(BM_PolarRotationRates);

// x = x̂ + â q, A = R̂ + Σ A^ℓ q_ℓ, Ȧ = Σ A^ℓ q̇_ℓ, Ä = Σ A^ℓ q̈_ℓ for a parent with r modes.
void BM_InterfaceFrameModel(benchmark::State& state) {
  const int r = static_cast<int>(state.range(0));
  std::mt19937 rng(9);
  const int m = 12;
  Points X(m, 3);
  for (int k = 0; k < m; ++k) X.row(k) = random_matrix(rng).col(0).transpose();
  Eigen::MatrixXd U(3 * m, r);
  for (auto& x : U.reshaped()) x = 0.01 * random_matrix(rng)(0);
  const InterfaceFrameModel model = fit_interface_frame(X, U, Eigen::VectorXd::Ones(m));
  const Eigen::VectorXd q = Eigen::VectorXd::Random(r), qdot = Eigen::VectorXd::Random(r),
                        qddot = Eigen::VectorXd::Random(r);
  for (auto _ : state) {
    Vec3 x = model.centroid(q);
    Mat3 A = model.covariance(q), A_dot = model.covariance_rate(qdot),
         A_ddot = model.covariance_rate(qddot);
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(A);
    benchmark::DoNotOptimize(A_dot);
    benchmark::DoNotOptimize(A_ddot);
  }
}
BENCHMARK(BM_InterfaceFrameModel)->Arg(8)->Arg(20);

// f_sys for a domain of r modes (a 6×3×3-cell box, 64 vertices; the cost does not depend on it).
void BM_SystemForces(benchmark::State& state) {
  const int r = static_cast<int>(state.range(0));
  const TetMesh mesh = make_box_mesh(Vec3::Zero(), Vec3(0.6, 0.3, 0.3), 6, 3, 3);
  const SparseMatrix M = consistent_mass(mesh);
  std::mt19937 rng(10);
  std::normal_distribution<double> n;
  Eigen::MatrixXd U(M.rows(), r);
  for (auto& x : U.reshaped()) x = n(rng);
  const Eigen::LLT<Eigen::MatrixXd> llt(U.transpose() * M * U);
  U = llt.matrixL().solve(U.transpose()).transpose().eval();
  const SystemForceIntegrals integrals(mesh.vertices, M, U);
  FrameMotion frame;
  frame.v = Vec3(0.1, 0.2, 0.3);
  frame.omega = Vec3(1, -2, 0.5);
  frame.a = Vec3(0, -9.81, 1);
  frame.alpha = Vec3(3, 1, -2);
  const Eigen::VectorXd q = Eigen::VectorXd::Random(r), qdot = Eigen::VectorXd::Random(r);
  Eigen::VectorXd f(r);
  for (auto _ : state) {
    integrals.evaluate(frame, q, qdot, f);
    benchmark::DoNotOptimize(f.data());
  }
}
BENCHMARK(BM_SystemForces)->Arg(8)->Arg(10)->Arg(20)->Arg(30)->Arg(40);

}  // namespace

BENCHMARK_MAIN();
