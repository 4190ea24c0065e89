// SPDX-License-Identifier: GPL-3.0-or-later
// spring-coupling: floating domains (rigid motion + reduced deformation, one per domain of the
// scene's element partition) whose interface vertices have one copy per domain, the copies
// joined by zero-length springs of stiffness k — the soft coupling of Kim & James 2011 that Wu,
// Mukherjee & Wang 2015 (§7, Fig. 8) compare coupling elements with. One backward Euler step in
// velocities for all domains, through [solvers] coupled.
//
// It is also the example of a coupling plugin written outside the substruct tree: everything it
// uses comes from the installed headers (README.md walks through it).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <substruct/config/config.hpp>
#include <substruct/config/reduction_settings.hpp>
#include <substruct/core/error.hpp>
#include <substruct/core/log.hpp>
#include <substruct/core/stopwatch.hpp>
#include <substruct/coupling/coupling_method.hpp>
#include <substruct/geometry/reduced_geometry.hpp>
#include <substruct/multidomain/block_system.hpp>
#include <substruct/multidomain/domain_step.hpp>
#include <substruct/multidomain/floating_domain.hpp>
#include <substruct/multidomain/floating_motion.hpp>
#include <substruct/options/options.hpp>
#include <substruct/plugin/plugin_descriptor.hpp>
#include <substruct/scene/scene.hpp>
#include <substruct/solvers/solver_provider.hpp>

namespace spring_coupling {
namespace {

using namespace substruct;

// 1. The options: the plugin's own [spring-coupling] section, declared once. Each option is
//    bound to a field of the settings struct, whose initial value is the default; the host
//    validates every key and value of a scene against them, `substruct help spring-coupling`
//    prints them, and read() gives the struct.
struct SpringSettings {
  double stiffness = 1e5;  // k [N/m]
};

const OptionSet<SpringSettings>& spring_options() {
  static const auto options =
      OptionSet<SpringSettings>("spring-coupling", "domains joined by springs at their interfaces")
          .number("stiffness", &SpringSettings::stiffness, "N/m",
                  "k of the zero-length spring between the two copies of every interface vertex: "
                  "too soft and the domains drift apart, too stiff and the interface locks and "
                  "damps",
                  positive);
  return options;
}

const OptionTable& options() {
  return spring_options().table();
}

// One spring: the copy of a vertex in domain a (local index la) and in domain b.
struct Spring {
  int a = 0, b = 0;
  Index la = 0, lb = 0;
};

class SpringCoupling final : public ReducedCouplingMethod {
 public:
  // 2. The factory's object reads its settings from the validated config.
  explicit SpringCoupling(const Config& config)
      : reduction_(ReductionSettings::from_config(config)),
        boundary_set_(config.set_by_user("reduction.boundary")),
        k_(spring_options().read(config).stiffness) {}

 protected:
  // The framework calls the hooks below in order (precompute, reset, step…) once it has checked
  // their inputs: a hook never sees a bad dt, a force on a vertex that does not exist, or a call
  // out of order.
  // A [reduction] key the method cannot honour is refused, not ignored: the domains' bases are
  // fixed at the scene's fixed vertices inside them (boundary = fixed-vertices).
  CanRun check_scene(const Scene& /*scene*/) const override {
    if (boundary_set_ && reduction_.boundary != BoundaryPolicy::fixed_vertices)
      return CanRun::no("spring-coupling needs [reduction] boundary = fixed-vertices");
    return CanRun::yes();
  }

  // 3. Offline work: reduced models per domain (cached), the springs, the block system.
  void do_precompute(const PrecomputeContext& context) override {
    const Scene& scene = context.scene;
    scene_ = &scene;
    if (context.stats) context.stats->integrator = "backward Euler";
    ModelCache cache(reduction_.cache ? context.cache_dir : std::filesystem::path());
    std::vector<DomainModel> models;
    domains_ = build_floating_domains(scene, DomainSplit::elements, reduction_, context.solvers,
                                      cache, models);
    if (context.stats) add_model_stats(models, *context.stats);

    springs_.clear();
    std::vector<std::pair<int, int>> pairs;
    for (const Interface& itf : scene.decomposition.interfaces) {
      pairs.emplace_back(itf.a, itf.b);
      const FloatingDomain& da = domains_[static_cast<std::size_t>(itf.a)];
      const FloatingDomain& db = domains_[static_cast<std::size_t>(itf.b)];
      for (Index g : itf.vertices) springs_.push_back({itf.a, itf.b, da.local(g), db.local(g)});
    }
    std::vector<int> sizes;
    for (const FloatingDomain& d : domains_) sizes.push_back(d.unknowns());
    system_ = BlockSystem(sizes, pairs);
    solver_ = context.solvers.coupled();  // [solvers] coupled: block-cholesky by default
    analyzed_ = false;

    domain_of_.assign(static_cast<std::size_t>(scene.mesh.num_vertices()), -1);
    for (auto d = domains_.rbegin(); d != domains_.rend(); ++d)  // the lowest domain wins
      for (Index g : d->global_vertex) domain_of_[static_cast<std::size_t>(g)] = d->id;
    geometry_ = floating_layout(scene.mesh.vertices, domains_);
    log::info("spring-coupling: {} domains, {} springs of {:.3g} N/m, {} unknowns per step",
              domains_.size(), springs_.size(), k_, system_.size());
    do_reset({}, {});
  }

  void do_reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) override {
    motion_ = floating_motion_from(domains_, scene_->mesh.num_vertices(), u0, v0);
    acceleration_.assign(domains_.size(), {Vec3::Zero(), Vec3::Zero()});
    step_ = 0;
  }

  // 4. One step: the domains' own terms from the framework, the springs' terms, one solve.
  void do_step(double dt, const ExternalForces& forces, StepStats& stats) override {
    ++step_;
    auto t0 = Clock::now();
    const DomainStepState state{&motion_, &acceleration_, scene_->rayleigh_mass,
                                scene_->rayleigh_stiffness};
    assemble_domain_step(domains_, domain_of_, state, forces, dt, system_);
    add_springs(dt);
    const SparseMatrix A = system_.matrix();
    stats.add("assembly", seconds_since(t0));
    t0 = Clock::now();
    Eigen::VectorXd y;
    try {
      if (!analyzed_) {
        solver_->analyze(A, MatrixProperties{true, true, system_.structure()});
        analyzed_ = true;
      }
      solver_->factorize(A);
      solver_->solve(system_.b(), y);
    } catch (const DivergenceError&) {
      throw;
    } catch (const Error& e) {
      throw DivergenceError(0, step_, fmt::format("the step's linear system: {}", e.what()));
    }
    stats.add("factorization + solve", seconds_since(t0));
    advance_floating_domains(domains_, system_, y, dt, true, true, step_, motion_, acceleration_);
  }

  // 5. Outputs: with the layout and the poses (ReducedCouplingMethod), the framework computes
  //    the positions and velocities (its geometry kernel; the copies of an interface vertex
  //    averaged) for positions(), velocities(), the viewer and the geometry plugins; then
  //    energies and the gap the springs leave.
  const ReducedGeometry& layout() const override { return geometry_; }
  void poses(std::vector<DomainPose>& poses) const override { floating_poses(motion_, poses); }
  Energies do_energies(const Vec3& gravity) const override {
    Energies e = floating_energies(domains_, motion_, gravity);
    for (const Spring& s : springs_) e.elastic += 0.5 * k_ * stretch(s).squaredNorm();
    return e;
  }
  Index do_dofs() const override { return system_.size(); }
  double do_interface_gap() const override {
    double gap = 0;
    for (const Spring& s : springs_) gap = std::max(gap, stretch(s).norm());
    return gap;
  }

 private:
  // x_a − x_b of a spring's two copies (world).
  Vec3 stretch(const Spring& s) const {
    return vertex_position(domains_[static_cast<std::size_t>(s.a)],
                           motion_[static_cast<std::size_t>(s.a)], s.la) -
           vertex_position(domains_[static_cast<std::size_t>(s.b)],
                           motion_[static_cast<std::size_t>(s.b)], s.lb);
  }

  // Energy ½ k |x_a − x_b|²: force f_a = k (x_a − x_b) = −f_b, tangent k [I −I; −I I]; with the
  // vertex Jacobians J (ẋ = J y): b −= Δt Jᵀ f, A += Δt² Jᵀ K J (symmetric).
  void add_springs(double dt) {
    for (const Spring& s : springs_) {
      const FloatingDomain& da = domains_[static_cast<std::size_t>(s.a)];
      const FloatingDomain& db = domains_[static_cast<std::size_t>(s.b)];
      const DomainMotion& ma = motion_[static_cast<std::size_t>(s.a)];
      const DomainMotion& mb = motion_[static_cast<std::size_t>(s.b)];
      Eigen::MatrixXd Ja(3, da.unknowns()), Jb(3, db.unknowns());
      vertex_jacobian(da, ma, s.la, Ja);
      vertex_jacobian(db, mb, s.lb, Jb);
      const Vec3 f = k_ * stretch(s);
      const double c = dt * dt * k_;
      if (Ja.cols() > 0) {
        system_.b().segment(system_.offset(s.a), Ja.cols()).noalias() -= dt * (Ja.transpose() * f);
        system_.block(s.a, s.a).noalias() += c * (Ja.transpose() * Ja);
      }
      if (Jb.cols() > 0) {
        system_.b().segment(system_.offset(s.b), Jb.cols()).noalias() += dt * (Jb.transpose() * f);
        system_.block(s.b, s.b).noalias() += c * (Jb.transpose() * Jb);
      }
      if (Ja.cols() > 0 && Jb.cols() > 0) {
        system_.block(s.a, s.b).noalias() -= c * (Ja.transpose() * Jb);
        system_.block(s.b, s.a).noalias() -= c * (Jb.transpose() * Ja);
      }
    }
  }

  ReductionSettings reduction_;
  bool boundary_set_ = false;
  double k_ = 0;
  const Scene* scene_ = nullptr;
  std::vector<FloatingDomain> domains_;
  std::vector<Spring> springs_;
  std::vector<int> domain_of_;
  BlockSystem system_;
  std::unique_ptr<LinearSolver> solver_;
  bool analyzed_ = false;
  ReducedGeometry geometry_;
  std::vector<DomainMotion> motion_;
  std::vector<std::pair<Vec3, Vec3>> acceleration_;
  long step_ = 0;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<SpringCoupling>(context.config);
}

}  // namespace

// 6. The descriptor: name (also the config section), kind, version, summary, options, factory.
const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "spring-coupling",
      PluginKind::coupling,
      "0.1.0",
      "floating reduced domains joined by zero-length springs at their interfaces (Kim & James "
      "2011; the comparison of Wu et al. 2015, Fig. 8)",
      &options,
      &create};
  return d;
}

}  // namespace spring_coupling

SUBSTRUCT_PLUGIN(spring_coupling::descriptor)
