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

void ChildFrameRows::kinematics(const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                                const Eigen::VectorXd& qddot, bool free_alpha,
                                const std::vector<char>& attached,
                                std::vector<InterfaceKinematics>& out) const {
  const int K = children(), n = r();
  // Eq. 7–9 of four children at once (polar_rotation_rates_batch); a child the batch leaves (a
  // degenerate interface) goes through interface_kinematics, which decides or explains.
  int batch_k[4];
  InterfaceFrameModel::State states[4];
  Mat3 A[4], A_dot[4], A_ddot[4];  // the states' covariances and rates, side by side
  int count = 0;
  const auto flush = [&] {
    PolarRatesBatch b;
    polar_rotation_rates_batch(count, A, A_dot, A_ddot, free_alpha, b);
    for (int m = 0; m < count; ++m) {
      InterfaceKinematics& k = out[static_cast<std::size_t>(batch_k[m])];
      if (b.ok[m])
        interface_kinematics(states[m], PolarDecomposition{b.R[m], b.S[m]}, b.omega[m],
                             b.omega_dot[m], free_alpha ? &b.omega_map[m] : nullptr, k);
      else
        k = interface_kinematics(states[m], free_alpha);
    }
    count = 0;
  };
  for (int k = 0; k < K; ++k) {
    if (!attached[static_cast<std::size_t>(k)]) continue;
    const auto rest = data_->rest.col(k);
    if (n == 0) {  // a rigid parent: the interface stays at rest
      out[static_cast<std::size_t>(k)] =
          rest_interface(turn_ * rest.head<3>() + offset_,
                         turn_ * Eigen::Map<const Mat3>(rest.data() + 3) * turn_.transpose());
      continue;
    }
    // Eq. 1, 2, 6: [â; A] [q q̇ q̈] over child k's r columns of 12 contiguous values.
    double y[36];
    interface_frame_sums(n, columns(k).columns, q.data(), qdot.data(), qddot.data(), y);
    const int m = count++;
    batch_k[m] = k;
    InterfaceFrameModel::State& state = states[m];
    state.x = rest.head<3>() + Eigen::Map<const Vec3>(y);
    state.v = Eigen::Map<const Vec3>(y + 12);
    state.a = Eigen::Map<const Vec3>(y + 24);
    state.A = Eigen::Map<const Mat3>(rest.data() + 3) + Eigen::Map<const Mat3>(y + 3);
    state.A_dot = Eigen::Map<const Mat3>(y + 15);
    state.A_ddot = Eigen::Map<const Mat3>(y + 27);
    if (turned_) {  // into this domain's axes: x = T x′ + δ, A = T A′ Tᵀ
      const Mat3& T = turn_;
      state.x = T * state.x + offset_;
      state.v = T * state.v;
      state.a = T * state.a;
      state.A = T * state.A * T.transpose();
      state.A_dot = T * state.A_dot * T.transpose();
      state.A_ddot = T * state.A_ddot * T.transpose();
    }
    A[m] = state.A;
    A_dot[m] = state.A_dot;
    A_ddot[m] = state.A_ddot;
    if (count == 4) flush();
  }
  if (count > 0) flush();
}

}  // namespace substruct::inertia
