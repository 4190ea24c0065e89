// SPDX-License-Identifier: GPL-3.0-or-later
// Coupling plugin coupling-elements: the unified multi-domain subspace method of Wu, Mukherjee,
// Wang (SIGGRAPH Asia 2015). The vertices are partitioned into domains; each domain moves as a
// rigid body (c, R, v, ω) plus a reduced deformation U q in its frame; the elements that span
// domains (coupling elements, §4.2) are evaluated in full and act on both. One backward Euler step
// in velocities solves every domain's q̇, v, ω together (one-step scheme, §4.3, Eq. 9–10), or the
// rigid motions first and the deformations second (two-step scheme, for Fig. 3). Backward Euler
// damps a swing at Δt = 0.01 s and a few Hz within a second: the midpoint scheme solves the same
// unified system for the velocities at θ of the step (the linearized θ-method; θ = ½ the implicit
// midpoint rule) and keeps the motion.
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <Eigen/Geometry>

#include "coupling_layer.hpp"
#include "interface_cubature.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/reduction_settings.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/contact/explicit_contact_limit.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/geometry/reduced_geometry.hpp"
#include "substruct/multidomain/block_system.hpp"
#include "substruct/multidomain/domain_step.hpp"
#include "substruct/multidomain/floating_domain.hpp"
#include "substruct/multidomain/floating_motion.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::coupling_elements {
namespace {

enum class Scheme { one_step, two_step, midpoint };

// The [coupling-elements] section: the time-stepping scheme, the interface cubature and the
// domains simulated in full space.
struct CouplingElementsSettings : InterfaceCubatureSettings {
  Scheme integration = Scheme::one_step;
  double theta = 0.5;
  std::vector<Index> full_space_domains;
};

const OptionSet<CouplingElementsSettings>& coupling_elements_options() {
  using S = CouplingElementsSettings;
  static const auto options =
      OptionSet<S>("coupling-elements", "multi-domain subspace simulation with coupling elements")
          .choice("integration", &S::integration,
                  {{"one-step", Scheme::one_step},
                   {"two-step", Scheme::two_step},
                   {"midpoint", Scheme::midpoint}},
                  "one-step (the paper's: every domain's q̇, v, ω in one backward Euler system, "
                  "§4.3; damps vibrations, the more the larger Δt·f), two-step (rigid motions "
                  "first, then the deformations with the frames held: more artificial damping, "
                  "Fig. 3) or midpoint (the same unified system solved for the velocities at θ "
                  "of the step, a backward Euler step of θΔt, then q += Δt q̇_θ, q̇ ← q̇ + (q̇_θ − "
                  "q̇)/θ: the linearized θ-method, second order at θ = ½ and nearly without "
                  "numerical damping, at the cost of one-step)")
          .number("theta", &S::theta, "",
                  "integration = midpoint: θ; ½ is the implicit midpoint rule (no damping of a "
                  "linear vibration; but the forces are linearized at the step's start, and a "
                  "large nonlinear motion can gain energy: the flower released from a 45° bend "
                  "diverges after 23 steps of 5 ms), larger values damp the fastest modes "
                  "(0.55 keeps that release stable, but also damps the flower's sway under "
                  "gravity: decay ratio 0.68 against full instead of 0.93)",
                  in_range(0.5, 1))
          .integer("interface_samples", &S::max_samples, "",
                   "interface cubature (§5): at most this many weighted coupling elements per "
                   "interface layer; 0 evaluates every coupling element",
                   non_negative)
          .integer("interface_training_poses", &S::training_poses, "",
                   "random poses the interface cubature is fitted on", at_least(1))
          .number("interface_tolerance", &S::tolerance, "",
                  "relative training error at which the interface cubature stops adding "
                  "elements",
                  non_negative)
          .indices("full_space_domains", &S::full_space_domains,
                   "domains simulated in full space inside the same system (§7), e.g. \"2 5\": "
                   "their q are the free DOFs of their own elements, for regions no small basis "
                   "captures")
          .choice("interface_weights", &S::non_uniform, {{"uniform", false}, {"non-uniform", true}},
                  "uniform (one weight per element: the step's matrix stays symmetric, "
                  "Cholesky) or non-uniform (separate weights for F_i, F_j, (f_i, f_j), (τ_i, τ_j) "
                  "on the same elements: more accurate forces, but an unsymmetric matrix (block "
                  "LU) and forces that no longer derive from one energy, which can feed energy "
                  "into the motion)");
  return options;
}

const OptionTable& options() {
  return coupling_elements_options().table();
}

// A linear solver for one of the systems a step solves, analysed at its first use.
struct Solve {
  std::unique_ptr<LinearSolver> solver;
  bool analyzed = false;
  bool symmetric = true;  // false with non-uniform interface cubature weights
  void run(const SparseMatrix& A, const BlockStructure& blocks, const Eigen::VectorXd& b,
           Eigen::VectorXd& x) {
    if (!analyzed) {
      solver->analyze(A, MatrixProperties{symmetric, symmetric, blocks});
      analyzed = true;
    }
    solver->factorize(A);
    solver->solve(b, x);
  }
};

class CouplingElements final : public ReducedCouplingMethod {
 public:
  explicit CouplingElements(const Config& config)
      : reduction_(ReductionSettings::from_config(config)),
        boundary_set_(config.set_by_user("reduction.boundary")),
        tasks_(run_threads(config)),
        contact_(contact_options().read(config)),
        dt_(run_options().read(config).dt) {
    const CouplingElementsSettings settings = coupling_elements_options().read(config);
    scheme_ = settings.integration;
    theta_ = settings.theta;
    cubature_ = settings;
    full_space_ = settings.full_space_domains;
  }

 protected:
  // The hooks the framework calls in order, once it has checked their inputs.
  CanRun check_scene(const Scene& scene) const override {
    if (const std::string why = explicit_contact_refusal(contact_, scene, dt_, "coupling-elements");
        !why.empty())
      return CanRun::no(why);
    if (reduction_.force_model == ForceModelKind::polynomial &&
        scene.material_model != MaterialModel::stvk)
      return CanRun::no(
          "the reduced StVK polynomials need [material] model = stvk (or "
          "[reduction] force_model = cubature)");
    // Each domain's basis is fixed at the scene's fixed vertices inside it, free-flying (rigid
    // modes removed) elsewhere: that is boundary = fixed-vertices, whatever the default says.
    if (boundary_set_ && reduction_.boundary != BoundaryPolicy::fixed_vertices)
      return CanRun::no(fmt::format(
          "coupling-elements fixes each domain's basis at the scene's fixed vertices inside it "
          "(free-flying elsewhere), i.e. [reduction] boundary = fixed-vertices; it cannot honour "
          "[reduction] boundary = {}",
          to_string(reduction_.boundary)));
    return CanRun::yes();
  }

  void do_precompute(const PrecomputeContext& context) override {
    const Scene& scene = context.scene;
    scene_ = &scene;
    if (context.stats)
      context.stats->integrator =
          scheme_ == Scheme::midpoint
              ? fmt::format("θ-method (θ = {:.3g}; θ = ½: implicit midpoint)", theta_)
              : fmt::format("backward Euler ({} scheme)", scheme_name());
    ModelCache cache(reduction_.cache ? context.cache_dir : std::filesystem::path());
    std::vector<DomainModel> models;
    for (int d : full_space_)
      if (d >= scene.num_domains())
        throw Error(
            fmt::format("coupling-elements.full_space_domains: domain {} does not exist "
                        "(the scene has {} domains)",
                        d, scene.num_domains()));
    domains_ = build_floating_domains(scene, DomainSplit::vertices, reduction_, context.solvers,
                                      cache, models, full_space_);
    if (context.stats) add_model_stats(models, *context.stats);

    const auto start = Clock::now();
    std::vector<std::pair<int, int>> pairs;
    coupling_ = find_coupling_elements(scene.mesh, domains_, pairs);
    if (cubature_.max_samples > 0) {
      const auto fit_start = Clock::now();
      InterfaceCubatureReport report;
      coupling_ =
          fit_interface_cubature(coupling_, domains_, scene.material_model, cubature_, report);
      if (context.stats) {
        context.stats->add("interface cubature", seconds_since(fit_start));
        context.stats->report("interface elements", report.elements);
        context.stats->report("kept", report.samples);
        context.stats->report("training error", report.training_error);
        context.stats->report("held-out error", report.held_out_error);
      }
      log::info(
          "coupling-elements: interface cubature keeps {} of {} coupling elements in {} layers; "
          "worst relative force error {:.3g} (training), {:.3g} (held out)",
          report.samples, report.elements, report.layers, report.training_error,
          report.held_out_error);
    }
    std::vector<int> sizes, rigid_sizes, deformation_sizes;
    for (const FloatingDomain& d : domains_) {
      sizes.push_back(d.unknowns());
      rigid_sizes.push_back(d.anchored ? 0 : 6);
      deformation_sizes.push_back(d.r());
    }
    system_ = BlockSystem(sizes, pairs);
    blocks_ = system_.structure();
    rigid_blocks_ = BlockSystem(rigid_sizes, pairs).structure();
    deformation_blocks_ = BlockSystem(deformation_sizes, pairs).structure();
    solves_.clear();
    for (int k = 0; k < (scheme_ == Scheme::two_step ? 2 : 1); ++k)
      solves_.push_back(Solve{context.solvers.coupled(), false,
                              !(cubature_.non_uniform && cubature_.max_samples > 0)});

    domain_of_.assign(static_cast<std::size_t>(scene.mesh.num_vertices()), -1);
    for (const FloatingDomain& d : domains_)
      for (Index g : d.global_vertex) domain_of_[static_cast<std::size_t>(g)] = d.id;
    geometry_ = floating_layout(scene.mesh.vertices, domains_);
    int anchored = 0;
    for (const FloatingDomain& d : domains_) anchored += d.anchored ? 1 : 0;
    if (context.stats) context.stats->add("coupling elements", seconds_since(start));
    log::info(
        "coupling-elements: {} domains ({} anchored), {} coupling elements joining {} pairs, {} "
        "unknowns per step, {} scheme",
        domains_.size(), anchored, coupling_.size(), pairs.size(), system_.size(), scheme_name());
    do_reset({}, {});
  }

  void do_reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) override {
    motion_ = floating_motion_from(domains_, scene_->mesh.num_vertices(), u0, v0);
    frame_acceleration_.assign(domains_.size(), {Vec3::Zero(), Vec3::Zero()});
    step_ = 0;
  }

  void do_step(double dt, const ExternalForces& forces, StepStats& stats) override {
    ++step_;
    auto t0 = Clock::now();
    if (scheme_ != Scheme::two_step) {
      // The stages of the paper's Table 3: domain dynamics, coupling, factorization + solve.
      // The θ-method: the backward Euler system of θΔt gives the velocities at θ of the step.
      const double theta = scheme_ == Scheme::midpoint ? theta_ : 1.0;
      assemble(theta * dt, forces, &stats);
      t0 = Clock::now();
      Eigen::VectorXd y;
      solve(0, system_.matrix(), blocks_, system_.b(), y);
      const double t_solve = seconds_since(t0);
      t0 = Clock::now();
      update(dt, y, true, true, theta);
      stats.add("factorization + solve", t_solve);
      stats.add("update", seconds_since(t0));
      return;
    }
    assemble(dt, forces, nullptr);
    // Two-step: the rigid motions (deformations held), then the deformations (frames held),
    // the coupling evaluated again at the moved frames.
    Eigen::VectorXd y_rigid, y_def;
    std::vector<Index> rigid_rows, deformation_rows;
    split_unknowns(rigid_rows, deformation_rows);
    solve(0, select(system_.matrix(), rigid_rows), rigid_blocks_, select(system_.b(), rigid_rows),
          y_rigid);
    update(dt, scatter(y_rigid, rigid_rows), true, false);
    assemble(dt, forces, nullptr);
    solve(1, select(system_.matrix(), deformation_rows), deformation_blocks_,
          select(system_.b(), deformation_rows), y_def);
    update(dt, scatter(y_def, deformation_rows), false, true);
    stats.add("two-step", seconds_since(t0));
  }

  const ReducedGeometry& layout() const override { return geometry_; }

  void poses(std::vector<DomainPose>& poses) const override { floating_poses(motion_, poses); }

  Energies do_energies(const Vec3& gravity) const override {
    Energies e = floating_energies(domains_, motion_, gravity);
    e.elastic +=
        add_coupling_terms(coupling_, domains_, motion_, scene_->material_model, 0, nullptr);
    return e;
  }

  Index do_dofs() const override { return system_.size(); }

 private:
  // The step's system at the current state; the two parts timed into `stats` when given.
  void assemble(double dt, const ExternalForces& forces, StepStats* stats) {
    const DomainStepState state{&motion_, &frame_acceleration_, scene_->rayleigh_mass,
                                scene_->rayleigh_stiffness};
    auto t0 = Clock::now();
    assemble_domain_step(domains_, domain_of_, state, forces, dt, system_, &tasks_);
    if (stats) stats->add("domain dynamics", seconds_since(t0));
    t0 = Clock::now();
    assembler_.add(coupling_, domains_, motion_, scene_->material_model, dt, &system_);
    if (stats) stats->add("coupling", seconds_since(t0));
  }

  void solve(std::size_t which, const SparseMatrix& A, const BlockStructure& blocks,
             const Eigen::VectorXd& b, Eigen::VectorXd& x) {
    if (A.rows() == 0) {
      x.resize(0);
      return;
    }
    try {
      solves_[which].run(A, blocks, b, x);
    } catch (const DivergenceError&) {
      throw;
    } catch (const Error& e) {
      throw DivergenceError(0, step_, fmt::format("the step's linear system: {}", e.what()));
    }
  }

  // Indices of the rigid (v, ω) and deformation (q̇) unknowns.
  void split_unknowns(std::vector<Index>& rigid, std::vector<Index>& deformation) const {
    for (const FloatingDomain& d : domains_) {
      const Index o = system_.offset(d.id);
      for (int k = 0; k < d.r(); ++k) deformation.push_back(o + k);
      if (!d.anchored)
        for (int k = 0; k < 6; ++k) rigid.push_back(o + d.r() + k);
    }
  }

  static SparseMatrix select(const SparseMatrix& A, const std::vector<Index>& rows) {
    std::vector<Index> position(static_cast<std::size_t>(A.rows()), -1);
    for (std::size_t k = 0; k < rows.size(); ++k)
      position[static_cast<std::size_t>(rows[k])] = static_cast<Index>(k);
    std::vector<Eigen::Triplet<double>> entries;
    for (Index c = 0; c < A.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(A, c); it; ++it) {
        const Index i = position[static_cast<std::size_t>(it.row())];
        const Index j = position[static_cast<std::size_t>(it.col())];
        if (i >= 0 && j >= 0) entries.emplace_back(i, j, it.value());
      }
    SparseMatrix S(static_cast<Index>(rows.size()), static_cast<Index>(rows.size()));
    S.setFromTriplets(entries.begin(), entries.end());
    return S;
  }

  static Eigen::VectorXd select(const Eigen::VectorXd& b, const std::vector<Index>& rows) {
    Eigen::VectorXd s(static_cast<Index>(rows.size()));
    for (std::size_t k = 0; k < rows.size(); ++k) s[static_cast<Index>(k)] = b[rows[k]];
    return s;
  }

  Eigen::VectorXd scatter(const Eigen::VectorXd& part, const std::vector<Index>& rows) const {
    Eigen::VectorXd y = Eigen::VectorXd::Constant(system_.size(), std::nan(""));
    for (std::size_t k = 0; k < rows.size(); ++k) y[rows[k]] = part[static_cast<Index>(k)];
    return y;
  }

  void update(double dt, const Eigen::VectorXd& y, bool rigid, bool deformation, double theta = 1) {
    advance_floating_domains(domains_, system_, y, dt, rigid, deformation, step_, motion_,
                             frame_acceleration_, theta);
  }

  const char* scheme_name() const {
    switch (scheme_) {
      case Scheme::one_step:
        return "one-step";
      case Scheme::two_step:
        return "two-step";
      case Scheme::midpoint:
        return "implicit-midpoint";
    }
    return "";
  }

  ReductionSettings reduction_;
  bool boundary_set_ = false;  // [reduction] boundary given by the user (checked in check_scene)
  Scheme scheme_ = Scheme::one_step;
  double theta_ = 0.5;  // integration = midpoint
  InterfaceCubatureSettings cubature_;
  std::vector<int> full_space_;  // domains simulated in full space

  const Scene* scene_ = nullptr;
  std::vector<FloatingDomain> domains_;
  std::vector<CouplingElement> coupling_;
  std::vector<int> domain_of_;
  BlockSystem system_;
  BlockStructure blocks_, rigid_blocks_, deformation_blocks_;
  std::vector<Solve> solves_;
  ReducedGeometry geometry_;
  std::vector<DomainMotion> motion_;
  std::vector<std::pair<Vec3, Vec3>> frame_acceleration_;  // a, α in frame axes
  long step_ = 0;
  ParallelTasks tasks_;      // [run] threads
  ContactSettings contact_;  // [contact]: refused beyond its explicit limit (check_scene)
  double dt_ = 0.01;         // [run] dt
  CouplingAssembler assembler_{&tasks_};  // the coupling terms, on those threads
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<CouplingElements>(context.config);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "coupling-elements",
      PluginKind::coupling,
      SUBSTRUCT_VERSION,
      "unified multi-domain subspace simulation (Wu, Mukherjee, Wang 2015): rigid motion + "
      "reduced deformation per domain, coupled by the elements that span domains, one linear "
      "system per step",
      &options,
      &create};
  return d;
}

}  // namespace substruct::coupling_elements

SUBSTRUCT_PLUGIN(substruct::coupling_elements::descriptor)
