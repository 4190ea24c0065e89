// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The interface frame models of a domain's children (Barbič–Zhao 2011, Eq. 1–3), stored as a step
// reads them: side by side, shared by the instances of the domain (Zhao 2014, §4.2).
#include <memory>
#include <vector>

#include "frame_kinematics.hpp"
#include "substruct/core/types.hpp"
#include "substruct/kinematics/interface_frame.hpp"

namespace substruct::inertia {

/// Child k's frame model as a step reads it: its r columns of 12 contiguous values [â_ℓ; A^ℓ
/// column by column], written in the axes of the domain they were fitted on, and the turn T into
/// this domain's axes: â = T â′, A^ℓ = T A′^ℓ Tᵀ. A view into the ChildFrameRows it came from.
struct FrameColumns {
  const double* columns = nullptr;  // column ℓ at columns + 12 ℓ
  int r = 0;
  const Mat3* turn = nullptr;  // T; null for none
};

/// The frame models of a domain's K children side by side (child k's columns k r … k r + r − 1,
/// column ℓ its â column over A^ℓ column by column: 12 contiguous values), so that Eq. 1, 2 and 6
/// of each child are one pass over 12 r values with the 12×3 sums [â; A] [q q̇ q̈] in registers;
/// a branch may carry hundreds of leaves. An instance of a domain (its rest shape and basis the
/// representative's turned by T and moved by δ) shares the representative's columns: a tree's
/// branches are a few shapes, so the columns its leaves need stay in the cache.
class ChildFrameRows {
 public:
  ChildFrameRows() = default;
  /// The rows of `frames` (all of one r).
  explicit ChildFrameRows(const std::vector<InterfaceFrameModel>& frames);

  /// These rows for a domain whose rest shape and basis are this one's turned by T and moved by δ
  /// (X̄ = T X̄′ + δ, U = (I ⊗ T) U′), sharing the columns: x̂ = T x̂′ + δ, R̂ = T R̂′ Tᵀ,
  /// â = T â′, A^ℓ = T A′^ℓ Tᵀ.
  ChildFrameRows turned(const Mat3& T, const Vec3& delta) const;
  /// Whether these rows are `frames` (same count, each x̂, R̂, â, A^ℓ to a relative 1e-9).
  bool equals(const std::vector<InterfaceFrameModel>& frames) const;

  int children() const { return data_ ? data_->children : 0; }
  int r() const { return data_ ? data_->r : 0; }
  /// Whether the columns are another domain's (turned()).
  bool shares_columns() const { return turned_; }
  /// Child k's columns (r = 0 for a rigid parent).
  FrameColumns columns(int k) const;
  /// The stored columns (shared by the rows turned() from these): their bytes, and what tells
  /// them apart (null for none).
  std::size_t bytes() const;
  const void* storage() const { return data_.get(); }

  /// Every child's kinematics, as interface_kinematics of its frame model at q, q̇, q̈ gives them
  /// (to rounding), into out[k] where attached[k] (out and attached: one entry per child); at
  /// rest for a rigid parent (r = 0). Only the children first … last − 1 when last ≥ 0 (runs of
  /// children may go to different threads; the children of a run are computed four at a time,
  /// so callers keep the same runs on any number of threads).
  void kinematics(const Eigen::VectorXd& q, const Eigen::VectorXd& qdot,
                  const Eigen::VectorXd& qddot, bool free_alpha, const std::vector<char>& attached,
                  std::vector<InterfaceKinematics>& out, int first = 0, int last = -1) const;

 private:
  struct Data {
    int children = 0, r = 0;
    Eigen::Matrix<double, 12, Eigen::Dynamic> rest;     // 12 × K: x̂, then R̂ column by column
    Eigen::Matrix<double, 12, Eigen::Dynamic> columns;  // 12 × K r
  };
  std::shared_ptr<const Data> data_;
  bool turned_ = false;
  Mat3 turn_ = Mat3::Identity();
  Vec3 offset_ = Vec3::Zero();
};

}  // namespace substruct::inertia
