// SPDX-License-Identifier: GPL-3.0-or-later
// Coupling plugin spectral-hybrid: the hybrid solid of Yang, Rong, Torres, Guo (CAVW 2010). The
// scene's domains are flagged rigid or deformable ([spectral-hybrid] rigid_domains); face-adjacent
// domains of one type are one region (domains/hybrid_regions.hpp). Every region is a linear modal
// model of its own sub-mesh with modal warping (region_model.hpp):
//   q̈ + (ξI + ζΛ) q̇ + Λ q = Φᵀ (Rᵀ f)           (Eq. 4, 6, 8; M̂ = I, K̂ = Λ)
//   u_a = R̃(w_a) (Φ q)_a,  w = Ψ q               (Eq. 5, 7)
// a rigid region being the same with its 6 rigid-body modes (Λ = 0). The regions are glued at a
// few chosen boundary nodes by equal linear displacement and rotation vector (Eq. 11) or equal
// warped positions (Eq. 10), and user targets add rows (Eq. 14–15) (hybrid_constraints.hpp); all
// regions advance together by Newmark's average acceleration with Lagrange multipliers (Eq. 12–16,
// constrained_newmark.hpp). World positions come from the framework's reduced layout with Ψ: one
// layout domain per region, frame = world.
//
// Choices the paper leaves open, made here:
// - Time step: [run] dt, as every method; the multiplier system is refactored when it changes.
// - Damping: Ĉ = ξI + ζΛ with ξ, ζ the scene's Rayleigh α, β (so a rigid region's motion is
//   damped by α like the `full` model's), as Eq. 4 says.
// - Eq. 16's stabilisation mixes a position target with violation terms whose scale the paper
//   never gives. Default (`stabilisation = exact`): the constraint rows ask J q^{n+1} = c^{n+1}
//   at the end of each step, i.e. J q̈ = (c^{n+1} − J q̃)/(βh²) — no drift and no parameter to
//   tune. The paper's form (`damped`): J q̈ = −2p₁Ċ − p₂²C with C = Jq − c and Ċ = Jq̇ − ċ at the
//   step's start (Metaxas–Terzopoulos), p₁ and p₂ options.
// - "Accumulated rotation" R̃: the closed-form integrated rotation of Choi & Ko,
//   R̃(w) = ∫₀¹ exp(s ŵ) ds (kinematics/modal_warping.hpp), with R(w) = exp(ŵ) rotating the forces
//   into each node's frame (Eq. 6); both from the current w = Ψq, so a region moved along its
//   rigid modes moves exactly rigidly at any angle.
// - User rows (Eq. 15) move R̃ to the right side as the paper does, but as its inverse:
//   (Φq)_v = R̃⁻¹(x* − X_v). The paper writes R̃ᵀ, which is R̃⁻¹ only for small angles (R̃ is not
//   orthogonal); with R̃ᵀ a half-turn twist asks for a displacement no rigid motion has. R̃ is that
//   of the target rotation when the vertex also has orientation rows (then the warped position
//   lands on x* exactly), of the last step's w otherwise.
// - Rows that depend on others (a fixed node, "all" nodes on a small boundary: Fig. 2c) are
//   dropped offline, so S = J A⁻¹ Jᵀ is positive definite.
// - A point force acts on the lowest region holding its vertex; gravity on every region through
//   its own vertex masses.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <Eigen/LU>

#include "constrained_newmark.hpp"
#include "hybrid_constraints.hpp"
#include "region_model.hpp"
#include "spectral_hybrid_settings.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/reduction_settings.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/contact/explicit_contact_limit.hpp"
#include "substruct/core/dense_rows_product.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/domains/hybrid_regions.hpp"
#include "substruct/integrators/implicit_integrator.hpp"
#include "substruct/kinematics/modal_warping.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::spectral_hybrid {
namespace {

const OptionTable& options() {
  return spectral_hybrid_options().table();
}

using Kind = ConstraintRow::Kind;

// A vertex on a deformable–rigid boundary: its two copies (interface_gap()).
struct BoundaryCopy {
  int region_a;
  Index local_a;
  int region_b;
  Index local_b;
};

class SpectralHybridCoupling final : public ReducedCouplingMethod {
 public:
  explicit SpectralHybridCoupling(const Config& config)
      : settings_(read_spectral_hybrid_settings(config)),
        h_(run_options().read(config).dt),
        solver_signature_(reduction_solver_signature(config)),
        contact_(contact_options().read(config)) {}

 protected:
  CanRun check_scene(const Scene& scene) const override {
    if (const std::string why = explicit_contact_refusal(contact_, scene, h_, "spectral-hybrid");
        !why.empty())
      return CanRun::no(why);
    for (Index d : settings_.rigid_domains)
      if (d < 0 || d >= scene.num_domains())
        return CanRun::no(fmt::format(
            "[spectral-hybrid] rigid_domains names domain {}, but the scene has {} domain(s)", d,
            scene.num_domains()));
    for (Index v : settings_.target_vertices)
      if (v < 0 || v >= scene.mesh.num_vertices())
        return CanRun::no(
            fmt::format("[spectral-hybrid] target_vertices names vertex {}, but the mesh has {} "
                        "(numbered from 0)",
                        v, scene.mesh.num_vertices()));
    try {
      hybrid_regions(scene.mesh, scene.decomposition.partition, rigid_flags(scene));
    } catch (const Error& e) {
      return CanRun::no(e.what());
    }
    return CanRun::yes();
  }

  void do_precompute(const PrecomputeContext& context) override {
    const Scene& scene = context.scene;
    scene_ = &scene;
    if (context.stats) context.stats->integrator = newmark_description(0.5, 0.25);
    auto start = Clock::now();
    regions_ = hybrid_regions(scene.mesh, scene.decomposition.partition, rigid_flags(scene));
    std::unique_ptr<EigenSolver> eigen = context.solvers.eigen();
    RegionBuild build;
    models_ = make_region_models(
        scene.mesh, regions_, scene.fixed_vertices, settings_.modes, *eigen, solver_signature_,
        settings_.cache ? context.cache_dir : std::filesystem::path(), &build);
    const double regions_seconds =
        seconds_since(start) - build.basis_seconds - build.rotation_seconds;
    start = Clock::now();
    constraints_ = hybrid_constraints(scene.mesh, regions_, models_, settings_);
    Index total = 0;
    for (const RegionModel& m : models_) total += m.r();
    Eigen::VectorXd lambda(total);
    for (const RegionModel& m : models_) lambda.segment(m.offset, m.r()) = m.lambda;
    newmark_ = std::make_unique<ConstrainedNewmark>(
        lambda, scene.rayleigh_mass, scene.rayleigh_stiffness, context.solvers.linear());
    newmark_->factor(constraints_.J, h_);
    layout_ = make_layout(scene);
    prepare_forces_and_targets(scene);
    const double system_seconds = seconds_since(start);
    if (PrecomputeStats* stats = context.stats) {
      stats->add("regions, solver start", regions_seconds);
      stats->add("spectral bases (M, K, eigenproblem)", build.basis_seconds);
      stats->add("modal rotation matrices Ψ, masses", build.rotation_seconds);
      stats->add("constraints, multiplier system", system_seconds);
      stats->models_computed += build.computed;
      stats->models_loaded += build.loaded;
    }
    int rigid = 0;
    for (const RegionModel& m : models_) rigid += m.rigid ? 1 : 0;
    log::info(
        "spectral-hybrid: {} region(s) ({} rigid), {} boundaries, {} spectral coordinates, {} "
        "constraint rows ({} boundary, {} target)",
        models_.size(), rigid, regions_.boundaries.size(), total, constraints_.rows.size(),
        constraints_.boundary_rows(),
        static_cast<Index>(constraints_.rows.size()) - constraints_.boundary_rows());
    do_reset(Eigen::VectorXd(), Eigen::VectorXd());
  }

  void do_reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) override {
    const Index total = static_cast<Index>(layout_total());
    state_.q = Eigen::VectorXd::Zero(total);
    state_.qdot = Eigen::VectorXd::Zero(total);
    state_.qddot = Eigen::VectorXd::Zero(total);
    // Project a full-space state onto each region's basis: q = Φᵀ M u (Φ is M-orthonormal),
    // warping ignored (exact for small initial displacements).
    const auto project = [&](const Eigen::VectorXd& full, Eigen::VectorXd& out) {
      if (full.size() == 0) return;
      for (const RegionModel& m : models_) {
        Eigen::VectorXd local(3 * m.num_vertices());
        for (Index a = 0; a < m.num_vertices(); ++a)
          local.segment<3>(3 * a) =
              full.segment<3>(3 * m.sub.global_vertex[static_cast<std::size_t>(a)]);
        out.segment(m.offset, m.r()) = m.Phi.transpose() * (m.M * local);
      }
    };
    project(u0, state_.q);
    project(v0, state_.qdot);
    time_ = 0;
    step_ = 0;
  }

  void do_step(double h, const ExternalForces& forces, StepStats& stats) override {
    const auto t0 = Clock::now();
    ++step_;
    const bool warped_rows =
        settings_.constraint == BoundaryConstraint::warped_position && settings_.warping;
    if (warped_rows) {
      update_warped_rows(models_, state_.q, constraints_);  // Eq. 10 with the last step's R̃
      try {
        newmark_->factor(constraints_.J, h);
      } catch (const Error& e) {
        // The rows were independent at rest; R̃ made them dependent (Fig. 2b's failure).
        throw DivergenceError(
            models_[static_cast<std::size_t>(constraints_.rows.front().region_a)].domains.front(),
            step_,
            fmt::format("spectral-hybrid: at step {} the warped-position rows (Eq. 10) became "
                        "dependent: {}; boundary_constraint = displacement-and-rotation (Eq. 11) "
                        "does not change with the state",
                        step_, e.what()));
      }
    } else if (h != newmark_->h()) {
      log::info("spectral-hybrid: dt changed from {:g} s to {:g} s; refactoring", newmark_->h(), h);
      newmark_->factor(constraints_.J, h);
    }
    const auto t1 = Clock::now();
    spectral_forces(forces);  // Φᵀ Rᵀ f per region (Eq. 6, 8)
    const auto t2 = Clock::now();
    newmark_->predict(state_, q_pred_, qdot_pred_);
    constraint_accelerations(h);
    newmark_->solve(f_hat_, q_pred_, qdot_pred_, d_, state_);
    time_ += h;
    if (!state_.q.allFinite() || !state_.qdot.allFinite()) {
      const RegionModel& bad = first_non_finite();
      throw DivergenceError(bad.domains.front(), step_,
                            fmt::format("spectral-hybrid: {} became non-finite at step {} (try a "
                                        "smaller [run] dt)",
                                        bad.name(), step_));
    }
    const auto t3 = Clock::now();
    if (warped_rows)
      stats.add("constraint rows (Eq. 10)", std::chrono::duration<double>(t1 - t0).count());
    stats.add("spectral forces", std::chrono::duration<double>(t2 - t1).count());
    stats.add("newmark + multipliers", std::chrono::duration<double>(t3 - t2).count());
  }

  Energies do_energies(const Vec3& gravity) const override {
    Energies e;
    e.kinetic = 0.5 * state_.qdot.squaredNorm();  // M̂ = I
    for (const RegionModel& m : models_) {
      const auto q = state_.q.segment(m.offset, m.r());
      e.elastic += 0.5 * q.dot(m.lambda.cwiseProduct(q));  // K̂ = Λ
      const Eigen::VectorXd u = m.Phi * q, w = m.Psi * q;
      for (Index a = 0; a < m.num_vertices(); ++a) {
        const Vec3 x = m.sub.mesh.vertices.row(a).transpose() +
                       turned(w.segment<3>(3 * a), u.segment<3>(3 * a));
        e.gravity -= m.vertex_mass[a] * gravity.dot(x);
      }
    }
    return e;
  }

  Index do_dofs() const override { return static_cast<Index>(layout_total()); }

  // The largest distance between the deformable and the rigid copy of a boundary vertex (the
  // paper's Fig. 3 "boundary deviation"), over every boundary vertex, constrained or not.
  double do_interface_gap() const override {
    double gap = 0;
    for (const BoundaryCopy& c : boundary_copies_)
      gap = std::max(
          gap,
          (warped_position(c.region_a, c.local_a) - warped_position(c.region_b, c.local_b)).norm());
    return gap;
  }

  const ReducedGeometry& layout() const override { return layout_; }

  void poses(std::vector<DomainPose>& poses) const override {
    poses.resize(models_.size());
    for (std::size_t k = 0; k < models_.size(); ++k) {
      const RegionModel& m = models_[k];
      poses[k] = DomainPose{};
      poses[k].q = state_.q.segment(m.offset, m.r());
      poses[k].qdot = state_.qdot.segment(m.offset, m.r());
    }
  }

 private:
  std::vector<bool> rigid_flags(const Scene& scene) const {
    std::vector<bool> rigid(static_cast<std::size_t>(scene.num_domains()), false);
    for (Index d : settings_.rigid_domains) rigid[static_cast<std::size_t>(d)] = true;
    return rigid;
  }

  std::size_t layout_total() const {
    std::size_t n = 0;
    for (const RegionModel& m : models_) n += static_cast<std::size_t>(m.r());
    return n;
  }

  ReducedGeometry make_layout(const Scene& scene) const {
    ReducedGeometry layout;
    layout.rest_positions = scene.mesh.vertices;
    for (const RegionModel& m : models_) {
      DomainLayout d;
      d.global_vertex = m.sub.global_vertex;
      d.rest = m.sub.mesh.vertices;
      d.U = m.Phi;
      if (settings_.warping) d.Psi = m.Psi;
      layout.domains.push_back(std::move(d));
    }
    layout.finalize();
    return layout;
  }

  // Which region each point force goes to, the boundary copies, the targets' centroid.
  void prepare_forces_and_targets(const Scene& scene) {
    owner_.assign(static_cast<std::size_t>(scene.mesh.num_vertices()), -1);
    for (std::size_t k = models_.size(); k-- > 0;)  // lowest region wins
      for (Index g : models_[k].sub.global_vertex)
        owner_[static_cast<std::size_t>(g)] = static_cast<int>(k);
    boundary_copies_.clear();
    for (const RegionBoundary& b : regions_.boundaries) {
      const RegionModel& d = models_[static_cast<std::size_t>(b.deformable)];
      const RegionModel& r = models_[static_cast<std::size_t>(b.rigid)];
      for (Index v : b.vertices)
        boundary_copies_.push_back({d.id, d.sub.local_vertex(v), r.id, r.sub.local_vertex(v)});
    }
    target_centre_.setZero();
    for (Index v : settings_.target_vertices)
      target_centre_ += scene.mesh.vertices.row(v).transpose();
    if (!settings_.target_vertices.empty())
      target_centre_ /= static_cast<double>(settings_.target_vertices.size());
    f_hat_.setZero(static_cast<Index>(layout_total()));
  }

  // f̂_k = Φ_kᵀ (R(w_a)ᵀ f_a)_a with f_a = m_a g + the point and nodal forces of owned vertices.
  void spectral_forces(const ExternalForces& forces) {
    const bool concentrated = !forces.point_forces.empty() || forces.nodal.size() > 0;
    if (concentrated) {
      concentrated_.setZero(3 * scene_->mesh.num_vertices());
      forces.add_concentrated_to(concentrated_);
    }
    const bool gravity = forces.gravity != Vec3::Zero();
    for (const RegionModel& m : models_) {
      auto f_hat = f_hat_.segment(m.offset, m.r());
      if (m.r() == 0) continue;
      if (!gravity && !concentrated) {
        f_hat.setZero();
        continue;
      }
      const Index n = m.num_vertices();
      // Eq. 5: w = Ψ q, one pass over the row-major Ψ.
      w_.resize(m.Psi.rows());
      dense_rows_product(std::size_t(m.Psi.rows()), std::size_t(m.r()), m.Psi.data(),
                         state_.q.data() + m.offset, nullptr, w_.data(), nullptr);
      local_force_.resize(3 * n);
      for (Index a = 0; a < n; ++a) {
        Vec3 f = m.vertex_mass[a] * forces.gravity;
        if (concentrated) {
          const Index g = m.sub.global_vertex[static_cast<std::size_t>(a)];
          if (owner_[static_cast<std::size_t>(g)] == m.id) f += concentrated_.segment<3>(3 * g);
        }
        local_force_.segment<3>(3 * a) =
            settings_.warping ? rotate_back(w_.segment<3>(3 * a), f) : f;  // Rᵀ f (Eq. 6)
      }
      // f̂ = Φᵀ f: the column-major Φ is a row-major Φᵀ, one pass over it.
      dense_rows_product(std::size_t(m.r()), std::size_t(m.Phi.rows()), m.Phi.data(),
                         local_force_.data(), nullptr, f_hat.data(), nullptr);
    }
  }

  // The world position of local vertex `a` of region `k` (Eq. 7).
  Vec3 warped_position(int k, Index a) const {
    const RegionModel& m = models_[static_cast<std::size_t>(k)];
    const auto q = state_.q.segment(m.offset, m.r());
    const Vec3 u = m.Phi.middleRows(3 * a, 3) * q, w = m.Psi.middleRows(3 * a, 3) * q;
    return m.sub.mesh.vertices.row(a).transpose() + turned(w, u);
  }

  // R̃(w) u (Eq. 7), or u without warping.
  Vec3 turned(const Vec3& w, const Vec3& u) const { return settings_.warping ? warp(w, u) : u; }

  // How much of the target offset and rotation applies at time t.
  double ramp(double t) const {
    return settings_.target_ramp > 0 ? std::min(1.0, t / settings_.target_ramp) : 1.0;
  }

  // c of every row at time t (Eq. 14): 0 for boundary rows, the targets' values for user rows.
  void constraint_values(double t, Eigen::VectorXd& c) const {
    const Index m = static_cast<Index>(constraints_.rows.size());
    c.setZero(m);
    const double s = ramp(t);
    const Vec3 w_target = s * settings_.target_rotation;
    const Mat3 R_target = rotation_from_vector(w_target);
    const bool both = settings_.target_kind == TargetKind::both;
    for (Index i = 0; i < m; ++i) {
      const ConstraintRow& row = constraints_.rows[static_cast<std::size_t>(i)];
      if (row.kind == Kind::target_rotation) {
        c[i] = w_target[row.component];
      } else if (row.kind == Kind::target_position) {
        const Vec3 X = scene_->mesh.vertices.row(row.vertex).transpose();
        const Vec3 u_target =
            target_centre_ + R_target * (X - target_centre_) + s * settings_.target_offset - X;
        Vec3 w = w_target;
        if (!both) {
          const RegionModel& r = models_[static_cast<std::size_t>(row.region_a)];
          w = r.Psi.middleRows(3 * row.local_a, 3) * state_.q.segment(r.offset, r.r());
        }
        // Φq = R̃⁻¹ u*: R̃ is not orthogonal (|R̃ v| < |v| off its axis), so the paper's R̃ᵀ
        // is its inverse only at small angles; R̃ is invertible below a full turn.
        c[i] = settings_.warping ? Vec3(integrated_rotation(w).lu().solve(u_target))[row.component]
                                 : u_target[row.component];
      }
    }
  }

  // d in J q̈ = d (Eq. 16's right-hand side) for the step to t + h.
  void constraint_accelerations(double h) {
    const Index m = static_cast<Index>(constraints_.rows.size());
    if (m == 0) {
      d_.resize(0);
      return;
    }
    const Eigen::MatrixXd& J = constraints_.J;
    constraint_values(time_ + h, c_next_);
    if (settings_.stabilisation == Stabilisation::exact) {
      // J (q̃ + βh² q̈) = c^{n+1}
      d_ = (c_next_ - J * q_pred_) / (ConstrainedNewmark::kBeta * h * h);
      return;
    }
    // C̈ + 2p₁Ċ + p₂²C = 0 with C = Jq − c, Ċ = Jq̇ − ċ at the step's start, c̈ ≈ 0.
    constraint_values(time_, c_now_);
    const Eigen::VectorXd C = J * state_.q - c_now_;
    const Eigen::VectorXd C_dot = J * state_.qdot - (c_next_ - c_now_) / h;
    d_ = -2 * settings_.p1 * C_dot - settings_.p2 * settings_.p2 * C;
  }

  const RegionModel& first_non_finite() const {
    for (const RegionModel& m : models_)
      if (!state_.q.segment(m.offset, m.r()).allFinite() ||
          !state_.qdot.segment(m.offset, m.r()).allFinite())
        return m;
    return models_.front();
  }

  SpectralHybridSettings settings_;
  double h_ = 0.01;
  std::string solver_signature_;
  ContactSettings contact_;  // [contact]: refused beyond its explicit limit (check_scene)
  const Scene* scene_ = nullptr;

  HybridRegions regions_;
  std::vector<RegionModel> models_;
  HybridConstraints constraints_;
  std::unique_ptr<ConstrainedNewmark> newmark_;
  ReducedGeometry layout_;
  std::vector<int> owner_;
  std::vector<BoundaryCopy> boundary_copies_;
  Vec3 target_centre_ = Vec3::Zero();

  NewmarkState state_;
  double time_ = 0;
  long step_ = 0;
  // per-step scratch
  Eigen::VectorXd f_hat_, q_pred_, qdot_pred_, d_, c_next_, c_now_, w_, local_force_, concentrated_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<SpectralHybridCoupling>(context.config);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "spectral-hybrid",
      PluginKind::coupling,
      SUBSTRUCT_VERSION,
      "rigid and deformable regions as linear modal models with modal warping, glued by "
      "displacement and rotation constraints at a few boundary nodes, one Newmark system "
      "(Yang et al. 2010)",
      &options,
      &create};
  return d;
}

}  // namespace substruct::spectral_hybrid

SUBSTRUCT_PLUGIN(substruct::spectral_hybrid::descriptor)
