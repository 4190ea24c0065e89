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
                   {"cg", SolverKind::cg}},
                  "how A_i⁻¹ is applied: hybrid (§5.2: sparse factorization of A_i plus the "
                  "stored boundary block of G_i = A_i⁻¹), clustering (§5.1: G_i compressed by "
                  "clustered PCA, products with the compressed matrix only) or cg (the paper's "
                  "baseline: every A_i⁻¹ product by Jacobi-preconditioned conjugate gradients, "
                  "the boundary columns recomputed every step)")
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
                   "clustering: CPCA clusters of each domain's force–displacement rows (k in "
                   "Eq. 7)",
                   at_least(1))
          .number("floats_per_node", &S::floats_per_node, "",
                  "clustering: stored floats per node of each compressed G_i (Table 1's budget; "
                  "m = ⌊budget / (3 (1 + k))⌋ components per cluster, at least 1)",
                  positive)
          .integer("components", &S::components, "",
                   "clustering: principal components per cluster; 0 takes them from "
                   "floats_per_node",
                   non_negative)
          .integer("node_clusters", &S::node_clusters, "",
                   "clustering: reduce the rows' dimension before CPCA by summing the columns "
                   "of this many node clusters (§5.1, for large domains); 0 clusters the full "
                   "rows",
                   non_negative)
          .integer("cpca_iterations", &S::cpca_iterations, "",
                   "clustering: CPCA assignment/PCA iterations at most", at_least(1))
          .flag("float32", &S::float32,
                "clustering: store the compressed matrices in single precision (half the "
                "memory; the products are in double, with W built from the stored values)")
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
                   {"qr", MultiplierSolve::qr}},
                  "how W λ = Σ B_i J_i f_i − c (Eq. 6) is solved: cholesky (W is SPD for the "
                  "exact solvers), qr (rank-revealing column-pivoted QR: the compressed G̃_i "
                  "make W unsymmetric and, at the paper's budgets, singular — its rank is at "
                  "most the clusters' components — so the paper solves it by SVD), lu (partial "
                  "pivoting, 3× cheaper than QR, falling back to QR at a step where its "
                  "condition estimate is below 1e-12: for budgets high enough that W is "
                  "regular) or auto (qr for clustering, cholesky otherwise)")
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
