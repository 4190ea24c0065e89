// SPDX-License-Identifier: GPL-3.0-or-later
#include "ddm_settings.hpp"

namespace substruct::ddm {

const OptionSet<DdmSettings>& ddm_options() {
  using S = DdmSettings;
  static const auto options =
      OptionSet<S>("ddm",
                   "domain decomposition with Lagrange multipliers, one rotation per domain "
                   "(Huang et al. 2006)")
          .choice("solver", &S::solver,
                  {{"hybrid", SolverKind::hybrid},
                   {"clustering", SolverKind::clustering},
                   {"clustering-rows", SolverKind::clustering_rows},
                   {"cg", SolverKind::cg}},
                  "how A_i⁻¹ is applied: hybrid (§5.2: sparse factorization of A_i plus the "
                  "stored boundary block of G_i = A_i⁻¹); clustering (§5.1's CPCA clusters of "
                  "the rows of G_i, each cluster's principal row directions U_j on its interior "
                  "unknowns plus every boundary unknown spanning the velocity increment of a "
                  "Galerkin backward-Euler step, G̃ = Q (QᵀA_iQ)⁻¹ Qᵀ: symmetric positive "
                  "definite, the copies joined exactly, velocity and displacement kept in "
                  "range(G̃) in the current frame; 10,000 steps of the shipped bar and torus "
                  "knot run without late energy growth and settle, but the bar gains energy in "
                  "its first swings as its domains turn; the motion outside the span is lost); "
                  "clustering-rows (§5.1, Eq. 7 as printed: each cluster's rows of G_i "
                  "approximated by U_j S_j V_jᵀ; G̃ is not symmetric and rank-deficient and the "
                  "velocity leaks out of its range as R_i turns: energy grows without bound, "
                  "10⁴ J within 300 steps on the shipped bar; kept to reproduce the paper) or "
                  "cg (the paper's baseline: every "
                  "A_i⁻¹ product by Jacobi-preconditioned conjugate gradients, the boundary "
                  "columns recomputed every step)")
          .choice("rotation", &S::rotation,
                  {{"per-domain", RotationTracking::per_domain}, {"none", RotationTracking::none}},
                  "per-domain: each domain's linear model in the frame of one rotation, the "
                  "mass-weighted best fit of its current to its rest positions (Eq. 4); none: "
                  "plain linear FEM (the exaggeration of Fig. 1b)")
          .choice("mass", &S::mass,
                  {{"lumped", MassMatrix::lumped}, {"consistent", MassMatrix::consistent}},
                  "each domain's mass matrix: lumped (row sums on the diagonal) or consistent; "
                  "with rotation = none the exact solvers reproduce full with the same "
                  "[full] mass")
          .flag("gap_correction", &S::gap_correction,
                "ask the interface rows for copies that coincide at the end of the step "
                "(c = −(x_a − x_b)/h − (v_a − v_b)) instead of equal velocity increments "
                "(c = 0, the paper's B Δq̇ = 0); the two agree when the copies already "
                "coincide, this one also removes any drift an approximate solver left")
          .integer("clusters", &S::clusters, "",
                   "clustering, clustering-rows: CPCA clusters of each domain's "
                   "force–displacement rows (k in Eq. 7)",
                   at_least(1))
          .number("floats_per_node", &S::floats_per_node, "",
                  "clustering, clustering-rows: stored floats per node of each compressed G_i "
                  "besides W's boundary block (Table 1's budget); clustering-rows: "
                  "m = ⌊budget / (3 (1 + k))⌋ components per cluster (the U_j S_j and V_j of "
                  "Eq. 7); clustering: the largest m with n_i m + (k m)² + 2 k m n_b ≤ "
                  "budget · n / 3 (the bases on the n_i interior unknowns and S's blocks "
                  "that involve them, n_b boundary unknowns, n free unknowns); at least 1",
                  positive)
          .integer("components", &S::components, "",
                   "clustering, clustering-rows: principal components per cluster; 0 takes "
                   "them from floats_per_node",
                   non_negative)
          .integer("node_clusters", &S::node_clusters, "",
                   "clustering, clustering-rows: reduce the rows' dimension before CPCA by summing "
                   "the columns "
                   "of this many node clusters (§5.1, for large domains); 0 clusters the full "
                   "rows",
                   non_negative)
          .integer("cpca_iterations", &S::cpca_iterations, "",
                   "clustering, clustering-rows: CPCA assignment/PCA iterations at most",
                   at_least(1))
          .flag("float32", &S::float32,
                "clustering, clustering-rows: store the compressed matrices in single "
                "precision (half the memory; clustering-rows builds W from the stored values "
                "and multiplies in double)")
          .choice("hybrid_correction", &S::hybrid_correction,
                  {{"auto", HybridCorrection::automatic},
                   {"solve", HybridCorrection::solve},
                   {"columns", HybridCorrection::columns}},
                  "hybrid: apply G_i to the multipliers' forces by a second sparse solve, by "
                  "the stored boundary columns of G_i (more memory), or auto (the cheaper by "
                  "the sizes: n_f · 3n_b against 8 × the factor's entries)")
          .number("cg_tolerance", &S::cg_tolerance, "",
                  "cg: relative residual at which each conjugate-gradient solve stops", positive)
          .integer("cg_max_iterations", &S::cg_max_iterations, "",
                   "cg: iterations per solve at most", at_least(1))
          .choice("multiplier_solve", &S::multiplier_solve,
                  {{"auto", MultiplierSolve::automatic},
                   {"cholesky", MultiplierSolve::cholesky},
                   {"lu", MultiplierSolve::lu},
                   {"qr", MultiplierSolve::qr},
                   {"svd", MultiplierSolve::svd}},
                  "how W λ = Σ B_i J_i f_i − c (Eq. 6) is solved: cholesky (W is SPD for the "
                  "exact solvers and clustering), svd (the paper's for clustering-rows, whose "
                  "G̃_i make W unsymmetric and, at the paper's budgets, singular: truncated "
                  "SVD, singular values below 1e-10 σ_max dropped, the minimum-norm "
                  "least-squares λ), qr (rank-revealing column-pivoted QR: a least-squares λ), "
                  "lu (partial pivoting, falling back to QR at a step where its condition "
                  "estimate is below 1e-12: for budgets high enough that W is regular) or auto "
                  "(svd for clustering-rows, cholesky otherwise)")
          .indices("target_vertices", &S::target_vertices,
                   "user constraints (rows appended to B, Eq. 5): these vertices are driven to "
                   "their rest position plus target_offset")
          .vec3("target_offset", &S::target_offset, "m",
                "displacement the target vertices are driven to (world)")
          .number("target_ramp", &S::target_ramp, "s",
                  "the target displacement grows linearly from 0 to target_offset over this "
                  "time (0: at once)",
                  non_negative)
          .flag("cache", &S::cache,
                "store the precomputed force–displacement data beside the scene (content-"
                "hashed, like reduced models) and reuse it when nothing it depends on changed");
  return options;
}

}  // namespace substruct::ddm
