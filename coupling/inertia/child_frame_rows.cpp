// SPDX-License-Identifier: GPL-3.0-or-later
#include "child_frame_rows.hpp"

#include <algorithm>

#include "substruct/kinematics/interface_frame_columns.hpp"
#include "substruct/kinematics/polar_rotation_rates_batch.hpp"

namespace substruct::inertia {

ChildFrameRows::ChildFrameRows(const std::vector<InterfaceFrameModel>& frames) {
  if (frames.empty()) return;
  auto data = std::make_shared<Data>();
  data->children = static_cast<int>(frames.size());
  data->r = frames.front().r();
  const int r = data->r;
  data->rest.resize(12, data->children);
  data->columns.resize(12, static_cast<Eigen::Index>(data->children) * r);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const InterfaceFrameModel& f = frames[k];
    const auto kk = static_cast<Eigen::Index>(k);
    data->rest.col(kk).head<3>() = f.x_hat;
    data->rest.col(kk).tail<9>() = f.R_hat.reshaped();
    auto block = data->columns.middleCols(kk * r, r);
    block.topRows<3>() = f.a_hat;
    block.bottomRows<9>() = f.A_columns;
  }
  data_ = std::move(data);
}

std::size_t ChildFrameRows::bytes() const {
  if (!data_) return 0;
  return sizeof(Data) +
         sizeof(double) * static_cast<std::size_t>(data_->rest.size() + data_->columns.size());
}

ChildFrameRows ChildFrameRows::turned(const Mat3& T, const Vec3& delta) const {
  ChildFrameRows rows = *this;
  // (T, δ) after (turn_, offset_): x = T (turn_ x′ + offset_) + δ.
  rows.turn_ = T * turn_;
  rows.offset_ = T * offset_ + delta;
  rows.turned_ = true;
  return rows;
}

bool ChildFrameRows::equals(const std::vector<InterfaceFrameModel>& frames) const {
  if (static_cast<int>(frames.size()) != children()) return false;
  if (frames.empty()) return true;
  const int n = r();
  double size = 0, scale = 0;
  for (const InterfaceFrameModel& f : frames) {
    if (f.r() != n) return false;
    size = std::max(size, f.x_hat.cwiseAbs().maxCoeff());
    if (n > 0)
      scale = std::max({scale, f.a_hat.cwiseAbs().maxCoeff(), f.A_columns.cwiseAbs().maxCoeff()});
  }
  const double tolerance = 1e-9;
  for (int k = 0; k < children(); ++k) {
    const InterfaceFrameModel& f = frames[static_cast<std::size_t>(k)];
    const auto rest = data_->rest.col(k);
    const Vec3 x = turn_ * rest.head<3>() + offset_;
    const Mat3 R_hat = turn_ * Eigen::Map<const Mat3>(rest.data() + 3) * turn_.transpose();
    if ((x - f.x_hat).cwiseAbs().maxCoeff() > tolerance * (1 + size) ||
        (R_hat - f.R_hat).cwiseAbs().maxCoeff() > tolerance)
      return false;
    const FrameColumns c = columns(k);
    for (int l = 0; l < n; ++l) {
      const double* col = c.columns + 12 * l;
      const Vec3 a = turn_ * Eigen::Map<const Vec3>(col);
      const Mat3 A = turn_ * Eigen::Map<const Mat3>(col + 3) * turn_.transpose();
      if ((a - f.a_hat.col(l)).cwiseAbs().maxCoeff() > tolerance * scale ||
          (A - f.A(l)).cwiseAbs().maxCoeff() > tolerance * scale)
        return false;
    }
  }
  return true;
}

FrameColumns ChildFrameRows::columns(int k) const {
  FrameColumns c;
  c.r = r();
  c.columns = c.r > 0 ? data_->columns.data() + 12 * static_cast<Eigen::Index>(k) * c.r : nullptr;
  c.turn = turned_ ? &turn_ : nullptr;
  return c;
}

namespace {

// out = T a Tᵀ (3×3, column-major) one value at a time: Eigen's 3×3 products here went through
// temporaries stored one value at a time and read back as pairs, which the processor cannot
// forward from the stores.
inline void turn_matrix(const double* T, const double* a, double* out) {
  double m[9];  // T a
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < 3; ++i)
      m[i + 3 * c] = T[i] * a[3 * c] + T[i + 3] * a[3 * c + 1] + T[i + 6] * a[3 * c + 2];
  for (int c = 0; c < 3; ++c)  // (T a Tᵀ)(i, c) = Σ_b m(i, b) T(c, b)
    for (int i = 0; i < 3; ++i)
      out[i + 3 * c] = m[i] * T[c] + m[i + 3] * T[c + 3] + m[i + 6] * T[c + 6];
}

inline void turn_vector(const double* T, const double* a, double* out) {
  for (int i = 0; i < 3; ++i) out[i] = T[i] * a[0] + T[i + 3] * a[1] + T[i + 6] * a[2];
}

}  // namespace

void ChildFrameRows::kinematics(const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                                const Eigen::VectorXd& qddot, bool free_alpha,
                                const std::vector<char>& attached,
                                std::vector<InterfaceKinematics>& out, int first, int last) const {
  const int K = last < 0 ? children() : last, n = r();
  // Eq. 7–9 of four children at once (polar_rotation_rates_batch); a child the batch leaves (a
  // degenerate interface) goes through interface_kinematics, which decides or explains.
  int batch_k[4];
  InterfaceFrameModel::State states[4];  // x, v, a (and the matrices for a child the batch leaves)
  Mat3 A[4], A_dot[4], A_ddot[4];        // the covariances and their rates, side by side
  int count = 0;
  const auto flush = [&] {
    PolarRatesBatch b;
    polar_rotation_rates_batch(count, A, A_dot, A_ddot, free_alpha, b);
    for (int m = 0; m < count; ++m) {
      InterfaceKinematics& k = out[static_cast<std::size_t>(batch_k[m])];
      InterfaceFrameModel::State& state = states[m];
      state.A_ddot = A_ddot[m];
      if (b.ok[m]) {
        interface_kinematics(state, b.R[m], b.omega[m], b.omega_dot[m],
                             free_alpha ? &b.omega_map[m] : nullptr, k);
      } else {
        state.A = A[m];
        state.A_dot = A_dot[m];
        k = interface_kinematics(state, free_alpha);
      }
    }
    count = 0;
  };
  const double* T = turned_ ? turn_.data() : nullptr;
  for (int k = first; k < K; ++k) {
    if (!attached[static_cast<std::size_t>(k)]) continue;
    const double* rest = data_->rest.col(k).data();
    if (n == 0) {  // a rigid parent: the interface stays at rest
      out[static_cast<std::size_t>(k)] =
          rest_interface(turn_ * Eigen::Map<const Vec3>(rest) + offset_,
                         turn_ * Eigen::Map<const Mat3>(rest + 3) * turn_.transpose());
      continue;
    }
    // Eq. 1, 2, 6: [â; A] [q q̇ q̈] over child k's r columns of 12 contiguous values. The sums are
    // read one value at a time (they were stored four at a time).
    double y[36];
    interface_frame_sums(n, columns(k).columns, q.data(), qdot.data(), qddot.data(), y);
    const int m = count++;
    batch_k[m] = k;
    InterfaceFrameModel::State& state = states[m];
    double x[3], a0[9];  // x̂ + â q, R̂ + Σ A^ℓ q_ℓ
    for (int i = 0; i < 3; ++i) x[i] = rest[i] + y[i];
    for (int i = 0; i < 9; ++i) a0[i] = rest[3 + i] + y[3 + i];
    if (T) {  // into this domain's axes: x = T x′ + δ, A = T A′ Tᵀ
      turn_vector(T, x, state.x.data());
      state.x += offset_;
      turn_vector(T, y + 12, state.v.data());
      turn_vector(T, y + 24, state.a.data());
      turn_matrix(T, a0, A[m].data());
      turn_matrix(T, y + 15, A_dot[m].data());
      turn_matrix(T, y + 27, A_ddot[m].data());
    } else {
      for (int i = 0; i < 3; ++i) {
        state.x[i] = x[i];
        state.v[i] = y[12 + i];
        state.a[i] = y[24 + i];
      }
      for (int i = 0; i < 9; ++i) {
        A[m].data()[i] = a0[i];
        A_dot[m].data()[i] = y[15 + i];
        A_ddot[m].data()[i] = y[27 + i];
      }
    }
    if (count == 4) flush();
  }
  if (count > 0) flush();
}

}  // namespace substruct::inertia
