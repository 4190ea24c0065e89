// SPDX-License-Identifier: GPL-3.0-or-later
// Coupling plugin ddm: the domain decomposition method of Huang, Liu, Bao, Guo, Shum (Computers &
// Graphics 2006). The mesh is cut into sub-domains whose shared vertices are duplicated; each
// domain is a linear FEM model (M, D = αM + βK, K₀ of its own elements) tracked by one rotation R_i
// (Eq. 4), integrated by backward Euler in the velocity increment (Eq. 1–2):
//     A_i Δv_i = f_i,   A_i = M + h D + h² K,   f_i = h (f_ext − D v − K (q + h v)),
// every quantity in the domain's frame. The copies are held together by Lagrange multipliers
// (Eq. 5), eliminated through the Schur complement (Eq. 6):
//     W λ = Σ_i B_i R_i A_i⁻¹ R_iᵀ f_i − c,   Δv_i = R_i A_i⁻¹ R_iᵀ (f_i − B_iᵀ λ),
// with A_i⁻¹ = G_i applied by one of the solvers of force_displacement.hpp. The clustering solver's
// G̃_i spans a subspace: each domain's velocity and displacement are projected onto it in the
// current frame at the start of a step (its rotation refit turns them out of it).
//
// Choices the paper leaves open, made here:
// - Eq. 3–4 are written for Δq; the unknown of Eq. 1 is the velocity increment Δq̇, which is
//   what is rotated and solved for. Since M = Σ m_ab I₃ blocks, R M Rᵀ = M.
// - R_i: the rotation of the mass-weighted best fit of rest to current positions
//   (domain_rotation.hpp), recomputed at the start of every step and held during it.
// - The corotated force: the domain's displacement in its frame, q̂ = Rᵀ x − X̄ (the translation
//   drops out, K₀ annihilates it), gives f = R (f̂_ext − α M v̂ − K₀ (β v̂ + q̂ + h v̂)) h with
//   v̂ = Rᵀ v, f̂_ext = Rᵀ f_ext, so a rigid motion has no elastic force and no elastic energy.
// - Fixed vertices are removed from each A_i (they never move); fixed copies need no rows.
// - M: lumped by default (ddm.mass), which is what makes G = A⁻¹ compressible (ddm_settings.cpp).
// - A vertex's external point force acts on its first copy (the lowest domain), gravity on every
//   domain through its own mass matrix.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

#include "ddm_cache.hpp"
#include "ddm_settings.hpp"
#include "domain_rotation.hpp"
#include "force_displacement.hpp"
#include "interface_constraints.hpp"
#include "linear_domain.hpp"
#include "multiplier_cholesky.hpp"
#include "schur_complement.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/contact/explicit_contact_limit.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::ddm {
namespace {

const OptionTable& options() {
  return ddm_options().table();
}

double seconds_between(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// One sub-domain with its state (world positions and velocities of its own copies).
struct Domain {
  LinearDomain model;
  DomainCoupling coupling;
  std::vector<Index> boundary_unknowns;  // the free unknowns of coupling.vertices, 3 each
  std::unique_ptr<ForceDisplacement> inverse;
  Eigen::VectorXd x, v;  // 3n, world
  Mat3 R = Mat3::Identity();
  // per-step scratch
  Eigen::VectorXd local, rhs, y, z;
  Eigen::MatrixXd J_bb;
};

class DdmCoupling final : public CouplingMethod {
 public:
  explicit DdmCoupling(const Config& config)
      : settings_(ddm_options().read(config)),
        h_(run_options().read(config).dt),
        contact_(contact_options().read(config)) {}

 protected:
  CanRun check_scene(const Scene& scene) const override {
    const std::string why = explicit_contact_refusal(contact_, scene, h_, "ddm");
    return why.empty() ? CanRun::yes() : CanRun::no(why);
  }

  void do_precompute(const PrecomputeContext& context) override {
    const Scene& scene = context.scene;
    scene_ = &scene;
    solvers_ = &context.solvers;
    cache_dir_ = settings_.cache ? context.cache_dir : std::filesystem::path();
    stats_ = context.stats;
    if (stats_) stats_->integrator = "backward Euler (velocity increments, Eq. 1–2)";
    alpha_ = scene.rayleigh_mass;
    beta_ = scene.rayleigh_stiffness;
    auto start = std::chrono::steady_clock::now();
    domains_.clear();
    const auto& sub_meshes = scene.decomposition.domains;
    for (const SubMesh& sub : sub_meshes) {
      Domain d;
      d.model = make_linear_domain(sub, scene.fixed_vertices, settings_.mass == MassMatrix::lumped);
      domains_.push_back(std::move(d));
    }
    rows_ = interface_rows(sub_meshes, scene.fixed_vertices);
    interface_row_count_ = static_cast<Index>(rows_.size());
    const std::vector<ConstraintRow> user = target_rows(
        sub_meshes, scene.fixed_vertices, settings_.target_vertices, scene.mesh.num_vertices());
    rows_.insert(rows_.end(), user.begin(), user.end());
    std::vector<DomainCoupling> couplings = domain_couplings(rows_, scene.num_domains());
    for (std::size_t i = 0; i < domains_.size(); ++i) {
      Domain& d = domains_[i];
      d.coupling = std::move(couplings[i]);
      for (Index local : d.coupling.vertices)
        for (Index c = 0; c < 3; ++c)
          d.boundary_unknowns.push_back(d.model.dofs.free_index(3 * local + c));
    }
    // How many domains use each vertex (positions() averages the copies).
    copies_.assign(static_cast<std::size_t>(scene.mesh.num_vertices()), 0);
    for (const Domain& d : domains_)
      for (Index g : d.model.global_vertex) ++copies_[static_cast<std::size_t>(g)];
    if (stats_) stats_->add("domain matrices and constraints", seconds_since(start));
    build_inverses(h_);
    const MultiplierSolve solve =
        settings_.multiplier_solve != MultiplierSolve::automatic ? settings_.multiplier_solve
        : settings_.solver == SolverKind::clustering_rows        ? MultiplierSolve::svd
                                                                 : MultiplierSolve::cholesky;
    symmetric_w_ = solve == MultiplierSolve::cholesky;
    use_lu_ = solve == MultiplierSolve::lu;
    use_svd_ = solve == MultiplierSolve::svd;
    log::info("ddm: {} domains, {} free unknowns, {} interface rows + {} user rows (W {}×{}); {}",
              domains_.size(), do_dofs(), interface_row_count_,
              rows_.size() - static_cast<std::size_t>(interface_row_count_), 3 * rows_.size(),
              3 * rows_.size(), domains_.empty() ? "" : domains_[0].inverse->description());
    do_reset(Eigen::VectorXd(), Eigen::VectorXd());
  }

  void do_reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) override {
    for (Domain& d : domains_) {
      const Index n = d.model.num_vertices();
      d.x.resize(3 * n);
      d.v = Eigen::VectorXd::Zero(3 * n);
      for (Index a = 0; a < n; ++a) {
        const Index g = d.model.global_vertex[static_cast<std::size_t>(a)];
        d.x.segment<3>(3 * a) = d.model.rest.row(a).transpose();
        if (!d.model.vertex_is_free(a)) continue;  // fixed vertices stay at rest
        if (u0.size() > 0) d.x.segment<3>(3 * a) += u0.segment<3>(3 * g);
        if (v0.size() > 0) d.v.segment<3>(3 * a) = v0.segment<3>(3 * g);
      }
      d.R = rotation_of(d);
    }
    time_ = 0;
    step_ = 0;
  }

  void do_step(double h, const ExternalForces& forces, StepStats& stats) override {
    if (h != h_) {
      log::info("ddm: dt changed from {:g} s to {:g} s; refactoring every A_i", h_, h);
      build_inverses(h);
    }
    ++step_;
    const auto t0 = std::chrono::steady_clock::now();
    const bool concentrated = !forces.point_forces.empty() || forces.nodal.size() > 0;
    if (concentrated) {
      concentrated_.setZero(3 * scene_->mesh.num_vertices());
      forces.add_concentrated_to(concentrated_);
    }
    // 1. Each domain: R_i, its force f_i in its frame, y_i = G_i f_i (Eq. 6, first quantities).
    long iterations = 0;
    for (std::size_t i = 0; i < domains_.size(); ++i) {
      Domain& d = domains_[i];
      d.R = rotation_of(d);
      if (d.inverse->projects()) keep_state_in_range(d);
      domain_force(d, static_cast<int>(i), h, forces.gravity, concentrated);
      d.inverse->begin_step();
      d.inverse->apply(d.rhs, d.y);
      iterations += d.inverse->take_iterations();
    }
    const auto t1 = std::chrono::steady_clock::now();
    // 2. W λ = Σ B_i J_i f_i − c.
    const Index m = static_cast<Index>(rows_.size());
    rhs_.resize(3 * m);
    constraint_targets(h);  // rhs_ = −c
    for (Domain& d : domains_)
      for (const DomainCoupling::Entry& e : d.coupling.entries)
        rhs_.segment<3>(3 * e.row) +=
            e.sign *
            (d.R * d.y.segment<3>(d.boundary_unknowns[static_cast<std::size_t>(3 * e.boundary)]));
    assemble_w();
    const auto t2 = std::chrono::steady_clock::now();
    solve_multipliers();
    const auto t3 = std::chrono::steady_clock::now();
    // 3. Δv_i = R_i G_i (R_iᵀ f_i − R_iᵀ B_iᵀ λ), then v += Δv, x += h v.
    for (std::size_t i = 0; i < domains_.size(); ++i) {
      Domain& d = domains_[i];
      if (!d.coupling.entries.empty()) {
        d.z.setZero(3 * static_cast<Index>(d.coupling.vertices.size()));
        const Mat3 Rt = d.R.transpose();
        for (const DomainCoupling::Entry& e : d.coupling.entries)
          d.z.segment<3>(3 * e.boundary) += e.sign * (Rt * lambda_.segment<3>(3 * e.row));
        d.inverse->subtract_boundary_response(d.z, d.y);
      }
      const Index n = d.model.num_vertices();
      for (Index a = 0; a < n; ++a) {
        const Index f = d.model.dofs.free_index(3 * a);
        if (f < 0) continue;
        d.v.segment<3>(3 * a) += d.R * d.y.segment<3>(f);
        d.x.segment<3>(3 * a) += h * d.v.segment<3>(3 * a);
      }
      if (!d.x.allFinite() || !d.v.allFinite())
        throw DivergenceError(static_cast<int>(i), step_,
                              fmt::format("ddm: domain {} became non-finite at step {} (try a "
                                          "smaller [run] dt or a stiffer material)",
                                          i, step_));
    }
    time_ += h;
    const auto t4 = std::chrono::steady_clock::now();
    stats.add("domains", seconds_between(t0, t1) + seconds_between(t3, t4));
    stats.add("schur complement", seconds_between(t1, t2));
    stats.add("multipliers", seconds_between(t2, t3));
    stats.iterations += static_cast<int>(iterations);
  }

  void do_positions(Points& x) const override { average_copies(x, &Domain::x); }
  void do_velocities(Points& v) const override { average_copies(v, &Domain::v); }

  Energies do_energies(const Vec3& gravity) const override {
    Energies e;
    for (const Domain& d : domains_) {
      e.kinetic += 0.5 * d.v.dot(d.model.M * d.v);
      // ½ q̂ᵀ K q̂ with q̂ = Rᵀ x − X̄ in the domain's frame
      const Eigen::VectorXd q = local_displacement(d, rotation_of(d), d.x);
      e.elastic += 0.5 * q.dot(d.model.K * q);
      e.gravity -= (d.model.gravity_columns * gravity).dot(d.x);
    }
    return e;
  }

  Index do_dofs() const override {
    Index n = 0;
    for (const Domain& d : domains_) n += d.model.num_free();
    return n;
  }

  double do_interface_gap() const override {
    double gap = 0;
    for (const ConstraintRow& row : rows_) {
      if (row.user()) continue;
      const Domain& a = domains_[static_cast<std::size_t>(row.a.domain)];
      const Domain& b = domains_[static_cast<std::size_t>(row.b.domain)];
      gap =
          std::max(gap, (a.x.segment<3>(3 * row.a.local) - b.x.segment<3>(3 * row.b.local)).norm());
    }
    return gap;
  }

 private:
  Mat3 rotation_of(const Domain& d) const {
    if (settings_.rotation == RotationTracking::none) return Mat3::Identity();
    return best_fit_rotation(d.model.rest, d.x, d.model.vertex_mass);
  }

  // Rᵀ x − X̄, per vertex.
  static Eigen::VectorXd local_displacement(const Domain& d, const Mat3& R,
                                            const Eigen::VectorXd& x) {
    const Index n = d.model.num_vertices();
    Eigen::VectorXd q(3 * n);
    const Mat3 Rt = R.transpose();
    for (Index a = 0; a < n; ++a)
      q.segment<3>(3 * a) = Rt * x.segment<3>(3 * a) - d.model.rest.row(a).transpose();
    return q;
  }

  // d.rhs = f_i restricted to the free unknowns, in the domain's frame (Eq. 1):
  //   f̂ = h (R̂ᵀ f_ext − α M v̂ − K₀ (β v̂ + q̂ + h v̂)),  v̂ = R̂ᵀ v,  q̂ = R̂ᵀ x − X̄.
  void domain_force(Domain& d, int index, double h, const Vec3& gravity, bool concentrated) {
    const Index n = d.model.num_vertices();
    const Mat3 Rt = d.R.transpose();
    Eigen::VectorXd& vl = d.local;  // v̂
    vl.resize(3 * n);
    scratch_.resize(3 * n);  // β v̂ + q̂ + h v̂
    for (Index a = 0; a < n; ++a) {
      vl.segment<3>(3 * a) = Rt * d.v.segment<3>(3 * a);
      scratch_.segment<3>(3 * a) = Rt * d.x.segment<3>(3 * a) - d.model.rest.row(a).transpose() +
                                   (beta_ + h) * vl.segment<3>(3 * a);
    }
    force_ = d.model.gravity_columns * (Rt * gravity);  // R̂ᵀ M g = M (1 ⊗ Rᵀ g)
    force_.noalias() -= d.model.K * scratch_;
    if (alpha_ != 0) force_.noalias() -= alpha_ * (d.model.M * vl);
    if (concentrated)
      for (Index a = 0; a < n; ++a) {
        const Index g = d.model.global_vertex[static_cast<std::size_t>(a)];
        if (scene_->vertex_domain[static_cast<std::size_t>(g)] == index)
          force_.segment<3>(3 * a) += Rt * concentrated_.segment<3>(3 * g);
      }
    const Index nf = d.model.num_free();
    d.rhs.resize(nf);
    for (Index k = 0; k < nf; ++k)
      d.rhs[k] = h * force_[d.model.dofs.free_dofs()[static_cast<std::size_t>(k)]];
  }

  // rhs_ = −c: for a copy pair, c = −(x_a − x_b)/h − (v_a − v_b) with gap correction (copies
  // meet at the end of the step), else 0 (B Δv = 0); for a user row, c = (target − x_a)/h − v_a.
  void constraint_targets(double h) {
    const double ramp =
        settings_.target_ramp > 0 ? std::min(1.0, (time_ + h) / settings_.target_ramp) : 1.0;
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      const ConstraintRow& row = rows_[r];
      const Domain& a = domains_[static_cast<std::size_t>(row.a.domain)];
      const Vec3 xa = a.x.segment<3>(3 * row.a.local), va = a.v.segment<3>(3 * row.a.local);
      Vec3 c;
      if (row.user()) {
        const Vec3 target =
            scene_->mesh.vertices.row(row.vertex).transpose() + ramp * settings_.target_offset;
        c = (target - xa) / h - va;
      } else if (settings_.gap_correction) {
        const Domain& b = domains_[static_cast<std::size_t>(row.b.domain)];
        c = -(xa - b.x.segment<3>(3 * row.b.local)) / h - (va - b.v.segment<3>(3 * row.b.local));
      } else {
        c.setZero();
      }
      rhs_.segment<3>(3 * static_cast<Index>(r)) = -c;
    }
  }

  // W = Σ B_i R_i G_bb R_iᵀ B_iᵀ, only its lower triangle when it is factored by Cholesky.
  void assemble_w() {
    const Index m = static_cast<Index>(rows_.size());
    W_.setZero(3 * m, 3 * m);
    for (Domain& d : domains_) {
      if (d.coupling.entries.empty()) continue;
      if (symmetric_w_)
        add_rotated_domain_block_lower(d.coupling, d.inverse->boundary_block(), d.R, W_);
      else if (settings_.rotation == RotationTracking::none)
        add_domain_block(d.coupling, d.inverse->boundary_block(), W_);
      else {
        rotate_boundary_block(d.inverse->boundary_block(), d.R, d.J_bb);
        add_domain_block(d.coupling, d.J_bb, W_);
      }
    }
  }

  void solve_multipliers() {
    if (rows_.empty()) {
      lambda_.resize(0);
      return;
    }
    if (symmetric_w_) {
      if (cholesky_.factor(W_)) {  // in place, from the lower triangle
        cholesky_.solve(W_, rhs_, lambda_);
        return;
      }
      log::warn(
          "ddm: W is not positive definite at step {}; solving it by column-pivoted QR from "
          "now on",
          step_);
      symmetric_w_ = false;
      assemble_w();  // the failed factorization overwrote it
    }
    if (use_svd_) {  // §5.1: truncated SVD, the minimum-norm least-squares λ
      svd_.compute(W_, Eigen::ComputeThinU | Eigen::ComputeThinV);
      svd_.setThreshold(1e-10);
      lambda_ = svd_.solve(rhs_);
      return;
    }
    if (use_lu_) {
      lu_.compute(W_);
      if (lu_.rcond() > 1e-12) {
        lambda_ = lu_.solve(rhs_);
        return;
      }
      log::debug("ddm: W is nearly singular at step {} (LU condition estimate {:.3g}); QR", step_,
                 lu_.rcond());
    }
    qr_.compute(W_);  // rank-revealing: a least-squares λ where W is singular
    lambda_ = qr_.solve(rhs_);
  }

  // The velocity v̂ = Rᵀ v and the displacement q̂ = Rᵀ x − X̄ on the free unknowns, projected
  // onto range(G̃_i) in the current frame; v = R v̂, x = R (X̄ + q̂).
  void keep_state_in_range(Domain& d) {
    const Index n = d.model.num_vertices();
    const Mat3 Rt = d.R.transpose();
    projected_v_.resize(d.model.num_free());
    projected_q_.resize(d.model.num_free());
    for (Index a = 0; a < n; ++a)
      if (const Index f = d.model.dofs.free_index(3 * a); f >= 0) {
        projected_v_.segment<3>(f) = Rt * d.v.segment<3>(3 * a);
        projected_q_.segment<3>(f) = Rt * d.x.segment<3>(3 * a) - d.model.rest.row(a).transpose();
      }
    d.inverse->project(projected_v_);
    d.inverse->project_displacement(projected_q_);
    for (Index a = 0; a < n; ++a)
      if (const Index f = d.model.dofs.free_index(3 * a); f >= 0) {
        d.v.segment<3>(3 * a) = d.R * projected_v_.segment<3>(f);
        d.x.segment<3>(3 * a) =
            d.R * (d.model.rest.row(a).transpose() + projected_q_.segment<3>(f));
      }
  }

  void average_copies(Points& out, Eigen::VectorXd Domain::*field) const {
    out.setZero(scene_->mesh.num_vertices(), 3);
    for (const Domain& d : domains_)
      for (Index a = 0; a < d.model.num_vertices(); ++a)
        out.row(d.model.global_vertex[static_cast<std::size_t>(a)]) +=
            (d.*field).segment<3>(3 * a).transpose();
    for (Index v = 0; v < out.rows(); ++v)
      if (copies_[static_cast<std::size_t>(v)] > 1)
        out.row(v) /= copies_[static_cast<std::size_t>(v)];
      else if (copies_[static_cast<std::size_t>(v)] == 0 && field == &Domain::x)
        out.row(v) = scene_->mesh.vertices.row(v);  // a vertex no element uses stays put
  }

  // Builds every A_i for time step h and the solver's form of G_i.
  void build_inverses(double h) {
    const auto start = std::chrono::steady_clock::now();
    Progress progress(fmt::format("ddm: {} solver", solver_name()), domains_.size());
    int loaded = 0, computed = 0;
    for (Domain& d : domains_) {
      const SparseMatrix A = backward_euler_matrix(d.model, alpha_, beta_, h);
      switch (settings_.solver) {
        case SolverKind::hybrid:
          d.inverse =
              make_hybrid(A, d.boundary_unknowns, solvers_->linear(), settings_.hybrid_correction);
          break;
        case SolverKind::cg:
          d.inverse =
              make_cg(A, d.boundary_unknowns, settings_.cg_tolerance, settings_.cg_max_iterations);
          break;
        case SolverKind::clustering:
        case SolverKind::clustering_rows: {
          // The CPCA of G_i (cached), with the components the solver's budget rule gives.
          DdmSettings cpca = settings_;
          if (settings_.solver == SolverKind::clustering && cpca.components == 0)
            cpca.components = galerkin_components_for_budget(
                settings_.floats_per_node, settings_.clusters, d.model.num_free(),
                static_cast<Index>(d.boundary_unknowns.size()));
          const SubMesh& sub = scene_->decomposition.domains[static_cast<std::size_t>(d.model.id)];
          const std::uint64_t hash =
              compressed_inverse_hash(sub.mesh, d.model, alpha_, beta_, h, cpca);
          std::optional<CompressedInverse> g = load_compressed_inverse(cache_dir_, hash);
          if (g && g->size == d.model.num_free()) {
            ++loaded;
          } else {
            std::unique_ptr<LinearSolver> solver = solvers_->linear();
            solver->analyze(A, MatrixProperties{true, true, {}});
            solver->factorize(A);
            g = compress_inverse(A, *solver, cpca, sub.mesh, free_vertices(d));
            store_compressed_inverse(cache_dir_, hash, *g);
            ++computed;
          }
          if (settings_.solver == SolverKind::clustering)
            d.inverse = make_galerkin_clustering(*g, A, d.model.dofs.restrict_matrix(d.model.M),
                                                 d.boundary_unknowns, settings_.float32);
          else
            d.inverse = make_row_clustering(*g, d.boundary_unknowns, settings_.float32);
          break;
        }
      }
      progress.advance();
    }
    progress.finish();
    h_ = h;
    std::size_t bytes = 0;
    for (const Domain& d : domains_) bytes += d.inverse->stored_bytes();
    if (stats_) {
      stats_->add(fmt::format("{} solver", solver_name()), seconds_since(start));
      stats_->models_computed += computed;
      stats_->models_loaded += loaded;
    }
    log::info("ddm: {} solver ready in {:.3f} s, {:.2f} MB stored{}", solver_name(),
              seconds_since(start), static_cast<double>(bytes) / 1e6,
              loaded > 0 ? fmt::format(" ({} domains from the cache)", loaded) : "");
  }

  const char* solver_name() const {
    switch (settings_.solver) {
      case SolverKind::hybrid:
        return "hybrid";
      case SolverKind::cg:
        return "cg";
      case SolverKind::clustering:
        return "clustering";
      case SolverKind::clustering_rows:
        return "clustering-rows";
    }
    return "?";
  }

  // The local ids of the domain's free vertices, increasing (G's row groups).
  static std::vector<Index> free_vertices(const Domain& d) {
    std::vector<Index> v;
    const std::vector<Index>& free = d.model.dofs.free_dofs();
    for (std::size_t k = 0; k < free.size(); k += 3) v.push_back(free[k] / 3);
    return v;
  }

  DdmSettings settings_;
  double h_ = 0.01;
  ContactSettings contact_;  // [contact]: refused beyond its explicit limit (check_scene)
  double alpha_ = 0, beta_ = 0;
  const Scene* scene_ = nullptr;
  const SolverProvider* solvers_ = nullptr;
  std::filesystem::path cache_dir_;
  PrecomputeStats* stats_ = nullptr;

  std::vector<Domain> domains_;
  std::vector<ConstraintRow> rows_;
  Index interface_row_count_ = 0;
  std::vector<int> copies_;

  Eigen::MatrixXd W_;
  Eigen::VectorXd rhs_, lambda_;
  MultiplierCholesky cholesky_;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  Eigen::BDCSVD<Eigen::MatrixXd> svd_;
  bool use_lu_ = false, use_svd_ = false;
  Eigen::VectorXd concentrated_, force_, scratch_, projected_v_, projected_q_;
  bool symmetric_w_ = true;  // W assembled in its lower triangle and factored by Cholesky
  double time_ = 0;
  long step_ = 0;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<DdmCoupling>(context.config);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "ddm",
      PluginKind::coupling,
      SUBSTRUCT_VERSION,
      "domain decomposition: linear FEM sub-domains tracked by one rotation each, coupled by "
      "Lagrange multipliers; hybrid / CPCA-clustering (stable and as printed) / CG solvers "
      "(Huang et al. 2006)",
      &options,
      &create};
  return d;
}

}  // namespace substruct::ddm

SUBSTRUCT_PLUGIN(substruct::ddm::descriptor)
