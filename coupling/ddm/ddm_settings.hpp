// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The [ddm] section: every choice of the domain decomposition method, declared once.
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/options/options.hpp"

namespace substruct::ddm {

/// How A_i⁻¹ (the force–displacement matrix G_i, §3) is applied.
enum class SolverKind {
  cg,          // the paper's baseline: every product by preconditioned CG (Table 2, first row)
  clustering,  // §5.1's CPCA clusters as the bases of a Galerkin step: G̃ = Q (QᵀAQ)⁻¹ Qᵀ, stable
  clustering_rows,  // §5.1, Eq. 7 as printed: each cluster's rows of G_i by U_j S_j V_jᵀ
  hybrid,           // §5.2: a sparse factorization of A_i plus the stored boundary block of G_i
};

/// Whether each domain is tracked by one rotation (Eq. 4) or simulated as plain linear FEM.
enum class RotationTracking { per_domain, none };

/// How the hybrid solver applies G_i to the multipliers' forces (Eq. 6, second half).
enum class HybridCorrection { automatic, solve, columns };

/// The mass matrix of each domain.
enum class MassMatrix { consistent, lumped };

/// How W λ = r (Eq. 6) is solved.
enum class MultiplierSolve { automatic, cholesky, lu, qr, svd };

struct DdmSettings {
  SolverKind solver = SolverKind::hybrid;
  RotationTracking rotation = RotationTracking::per_domain;
  MassMatrix mass = MassMatrix::lumped;
  bool gap_correction = true;

  // clustering and clustering-rows (§5.1)
  int clusters = 3;
  double floats_per_node = 60;
  int components = 0;     // 0: from floats_per_node (clustering_components())
  int node_clusters = 0;  // 0: no dimension reduction before CPCA
  int cpca_iterations = 30;
  bool float32 = false;

  // hybrid (§5.2)
  HybridCorrection hybrid_correction = HybridCorrection::automatic;

  // cg
  double cg_tolerance = 1e-10;
  int cg_max_iterations = 2000;

  MultiplierSolve multiplier_solve = MultiplierSolve::automatic;

  // user constraints (Eq. 5: rows appended to B)
  std::vector<Index> target_vertices;
  Vec3 target_offset = Vec3::Zero();
  double target_ramp = 0.5;

  bool cache = true;
};

const OptionSet<DdmSettings>& ddm_options();

}  // namespace substruct::ddm
