// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Optimized cubature (An, Kim, James 2008): the reduced internal forces of any material model as
/// a non-negative weighted sum over a few elements, f(q) ≈ Σ_e w_e U_eᵀ f_e(X_e + U_e q).
#include <cstdint>
#include <vector>

#include "substruct/core/progress.hpp"
#include "substruct/fem/element_kernels.hpp"
#include "substruct/fem/material_model.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/reduction/reduced_force_model.hpp"

namespace substruct {

struct CubatureSettings {
  int max_elements = 200;    // at most this many weighted elements
  int training_poses = 100;  // reduced coordinates q the weights are fitted on
  double tolerance = 0.01;   // stop once the relative training error is at most this
  std::uint64_t seed = 1;    // of the random training poses
  MaterialModel material = MaterialModel::stvk;
  /// The training poses' largest vertex displacement |Uq|_v is log-uniform between these
  /// fractions of the mesh's bounding-box diagonal.
  double min_amplitude = 1e-3;
  double max_amplitude = 0.2;
};

/// For the selected elements E (with the rows U_e of U at their 4 vertices and weights w_e ≥ 0):
///   W(q) ≈ Σ_E w_e Ψ_e V_e,   f(q) ≈ Σ_E w_e U_eᵀ f_e(X_e + U_e q),   K(q) ≈ Σ_E w_e U_eᵀ K_e U_e
/// with the element kernels of fem/element_kernels.hpp, O(|E| r²) per evaluation. K is the exact
/// derivative of f, and symmetric.
class CubatureForceModel : public ReducedForceModel {
 public:
  /// From stored elements and weights (serialisation): copies what it needs of the mesh and U.
  /// Throws Error when U does not have 3N rows, the lists differ in length, an element is out of
  /// range or repeated, a weight is negative or not finite, or for a degenerate element or an
  /// invalid material.
  CubatureForceModel(const TetMesh& mesh, const Eigen::MatrixXd& U, std::vector<Index> elements,
                     std::vector<double> weights, MaterialModel material = MaterialModel::stvk);

  /// Training (An et al. 2008, §4): sample_poses() gives the training poses q_t; the targets are
  /// the exact reduced forces f(q_t) = Σ_e g_e(q_t), g_e = U_eᵀ f_e; each pose's rows are scaled
  /// by 1/‖f(q_t)‖ so every pose counts alike. Greedy selection: repeatedly add the element whose
  /// column [g_e(q_1); …] is most correlated with the residual (largest normalised dot product)
  /// and refit all weights by non-negative least squares (Lawson–Hanson, warm-started), until the
  /// relative residual √(mean_t ‖f̃_t − f_t‖² / ‖f_t‖²) is at most settings.tolerance, or
  /// settings.max_elements were tried, or no element correlates positively. Elements whose weight
  /// ends at zero are dropped. Deterministic for a given seed. The training set takes
  /// 8·training_poses·r·num_elements bytes. `progress`, when given, advances by one per training
  /// pose and one per selection step (create it with total training_poses + max_elements).
  /// Throws Error for settings out of range (max_elements < 1, training_poses < 1,
  /// tolerance < 0, 0 < min_amplitude ≤ max_amplitude violated) or as the constructor.
  static CubatureForceModel train(const TetMesh& mesh, const Eigen::MatrixXd& U,
                                  const CubatureSettings& settings, Progress* progress = nullptr);

  /// `count` random poses, as train() samples them from `seed`: alternately the reduced static
  /// response q = K₀⁻¹ Uᵀ F to a random nodal force F (F_i ~ N(0,1), K₀ = Uᵀ K(0) U of the rest
  /// stiffness) and a random q with q_i ~ N(0,1)/√K₀_ii (equal expected linear energy per mode),
  /// each scaled to a largest vertex displacement log-uniform in [min, max]·(bounding-box
  /// diagonal) of the settings. A different seed gives an independent (held-out) set.
  static std::vector<Eigen::VectorXd> sample_poses(const TetMesh& mesh, const Eigen::MatrixXd& U,
                                                   int count, std::uint64_t seed,
                                                   const CubatureSettings& settings);

  const std::vector<Index>& elements() const { return elements_; }
  const std::vector<double>& weights() const { return weights_; }
  MaterialModel material() const { return material_; }
  /// The relative training error of train() (NaN for a model made from stored weights).
  double training_error() const { return training_error_; }
  /// Wall time of train() [s] (0 for a model made from stored weights).
  double training_seconds() const { return training_seconds_; }

  /// √(mean_t ‖f̃(q_t) − f(q_t)‖² / ‖f(q_t)‖²) over `poses` against the exact reduced forces
  /// Uᵀ f_int(U q_t) of ElasticForceModel(mesh, material()); mesh and U must be those the model
  /// was made from. Poses with f(q_t) = 0 are skipped (0 when none is left).
  double relative_error(const TetMesh& mesh, const Eigen::MatrixXd& U,
                        const std::vector<Eigen::VectorXd>& poses) const;

  void evaluate(const Eigen::VectorXd& q, double* energy, Eigen::VectorXd* force,
                Eigen::MatrixXd* stiffness) const override;

 private:
  std::vector<Index> elements_;
  std::vector<double> weights_;
  MaterialModel material_;
  // Per selected element e (in order): U_e in rows 12e…12e+11, X_e, Dm⁻¹, V, λ, μ.
  Eigen::MatrixXd U_rows_;
  std::vector<Vec12> rest_;
  std::vector<Mat3> Dm_inv_;
  std::vector<double> volume_, lambda_, mu_;
  double training_error_;
  double training_seconds_ = 0;
};

}  // namespace substruct
