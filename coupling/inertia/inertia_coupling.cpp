// SPDX-License-Identifier: GPL-3.0-or-later
// inertia: multidomain reduced dynamics (Barbič–Zhao 2011, Algorithm 1) with the extensions of
// Zhao 2014 (frequency scaling α = β^depth, fracture, free-flying root). Every domain is a reduced
// model (u = U q) simulated in its own moving frame; a child's frame is the polar rotation of the
// interface to its parent as the parent deforms. Per step, root → leaves: the domain's frame and
// its motion, the system forces f_sys (Eq. 14), the lumped subtree inertia of its children (Eq.
// 15–16, L1 or L2), one semi-implicit Newmark step of
//     (I + Σ_j M_ij) q̈ + D q̇ + f_int(q) = f_ext + f_sys + Σ_j f0_ij      (Eq. 17),
// then its children's interface kinematics from the new state. Linear in the number of domains.
// This file is the plugin: the scene checks, precompute (models, tree, per-domain integrators
// and procedural materials) and the hooks. The units it runs:
//   inertia_settings.*          the [inertia] options and the checks between them;
//   inertia_system.*            the coupled tree's state and the per-domain step body;
//   step_schedules.*            the fused, stage-timed and procedural walks of that body;
//   articulated_step.*          the two-way (articulated-body) step, lumping = articulated;
//   fracture.*                  detached subtrees (§4.4);
//   frequency_matcher.*         frequency matching (§4.6), its cache in frequency_matching_cache.*.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "articulated_step.hpp"
#include "domain_energy.hpp"
#include "domain_memory.hpp"
#include "domain_tree.hpp"
#include "frequency_matcher.hpp"
#include "inertia_settings.hpp"
#include "inertia_system.hpp"
#include "procedural_materials.hpp"
#include "step_schedules.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/contact_settings.hpp"
#include "substruct/config/reduction_settings.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/parallel_tasks.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/integrators/implicit_integrator.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/reduction/domain_models.hpp"
#include "substruct/reduction/reduced_integrator.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct::inertia {
namespace {

const OptionTable& options() {
  return inertia_options().table();
}

class InertiaCoupling final : public ReducedCouplingMethod {
 public:
  explicit InertiaCoupling(const Config& config)
      : reduction_(ReductionSettings::from_config(config)),
        settings_(read_inertia_settings(config)),
        tasks_(run_threads(config)) {
    const ContactSettings contact = contact_options().read(config);
    contact_ = has_obstacles(contact);
    const std::string caveat =
        trapezoidal_contact_warning(contact, "inertia", settings_.newmark_gamma);
    if (!caveat.empty()) log::warn("{}", caveat);
  }

 protected:
  // The hooks the framework calls in order, once it has checked their inputs.
  CanRun check_scene(const Scene& scene) const override {
    // Contact is implicit in one domain's global step only. A spring on a child domain is felt
    // by its own modes, not by the frame motion its parent's deformation gives it; the
    // articulated step and the procedural substeps take contact forces explicitly. At the
    // springs' ω Δt ≫ 2 each diverges (measured on the 0.4 m block's drop: framework/docs/
    // contact.md).
    if (contact_) {
      std::string why;
      if (scene.num_domains() > 1)
        why =
            fmt::format("a single domain, the scene has {} ([scene] domains)", scene.num_domains());
      else if (settings_.lumping == Lumping::articulated)
        why = "lumping = center-of-mass or interface, not articulated";
      else if (settings_.timestep == TimestepMode::procedural)
        why = "timestep = global, not procedural";
      if (!why.empty())
        return CanRun::no(fmt::format(
            "[contact] with inertia needs {}: contact forces would act explicitly there and "
            "diverge at the contact springs' stiffness; use coupling.plugin = full, which takes "
            "contact implicitly on every vertex",
            why));
    }
    const DomainGraph& g = scene.graph;
    if (!g.is_tree()) {
      const std::vector<int> cycle = g.find_cycle();
      if (!cycle.empty()) {
        std::string path;
        for (int c : cycle) path += fmt::format("{} → ", c);
        return CanRun::no(fmt::format(
            "the domain graph has a cycle {}{}; inertia coupling needs a tree: set [scene] "
            "resolve_loops = spanning-tree or merge domains",
            path, cycle.front()));
      }
      std::string parts;
      for (const auto& component : g.connected_components())
        parts += fmt::format(" {{{}}}", fmt::join(component, " "));
      return CanRun::no(fmt::format(
          "the domain graph falls apart into {} components{}; inertia coupling needs one "
          "connected tree: merge domains or choose a partition whose domains touch",
          g.connected_components().size(), parts));
    }
    for (const DomainEdge& e : g.edges()) {
      const Interface& itf =
          scene.decomposition.interfaces.at(static_cast<std::size_t>(e.interface));
      if (itf.vertices.size() < 3 || itf.rank < 2) {
        return CanRun::no(fmt::format(
            "the interface between domains {} and {} is degenerate ({} vertices {}); inertia "
            "coupling needs at least 3 non-collinear interface vertices: merge the two domains or "
            "choose another partition",
            itf.a, itf.b, itf.vertices.size(),
            itf.rank == 0 ? "at one point" : (itf.rank == 1 ? "on a line" : "in all")));
      }
    }
    if (reduction_.boundary != BoundaryPolicy::parent_interface) {
      return CanRun::no(
          "inertia coupling needs each domain's basis fixed at the interface to its parent: set "
          "[reduction] boundary = parent-interface");
    }
    // A domain's basis is fixed at its parent interface, in its own moving frame: a fixed vertex
    // outside the root would be held to that frame, not to the world.
    const SubMesh& root_mesh = scene.decomposition.domains[static_cast<std::size_t>(scene.root)];
    for (Index v : scene.fixed_vertices)
      if (root_mesh.local_vertex(v) < 0) {
        return CanRun::no(fmt::format(
            "fixed vertex {} is not in the root domain {} (it is in domain {}); inertia coupling "
            "holds only the root to the world: fix vertices of one domain, or use another method",
            v, scene.root, scene.vertex_domain[static_cast<std::size_t>(v)]));
      }
    if (settings_.root == RootOption::free_flying && !scene.fixed_vertices.empty()) {
      return CanRun::no(
          "inertia.root = free-flying needs a scene without fixed vertices (remove [scene] fixed "
          "or use root = auto)");
    }
    for (Index d : settings_.rigid_domains)
      if (d < 0 || d >= scene.num_domains()) {
        return CanRun::no(
            fmt::format("inertia.rigid_domains names domain {}, but the scene has {} domains", d,
                        scene.num_domains()));
      }
    return CanRun::yes();
  }

  std::vector<Index> do_rigid_domains() const override { return settings_.rigid_domains; }

  void do_precompute(const PrecomputeContext& context) override {
    const Scene& scene = context.scene;
    system_.scene = &scene;
    const auto start = Clock::now();
    ModelCache cache(reduction_.cache ? context.cache_dir : std::filesystem::path());
    std::vector<bool> rigid(static_cast<std::size_t>(scene.num_domains()), false);
    for (Index d : settings_.rigid_domains) rigid[static_cast<std::size_t>(d)] = true;
    const std::vector<DomainModel> models =
        build_domain_models(scene, reduction_, context.solvers, cache, rigid,
                            settings_.lumping != Lumping::articulated);
    if (context.stats) {
      add_model_stats(models, *context.stats);
      const double gamma = settings_.newmark_gamma;
      context.stats->integrator =
          settings_.lumping == Lumping::articulated
              ? fmt::format(
                    "implicit {} rule (θ = {:g}) on every domain and the root frame "
                    "together (articulated-body recursion), {} linear solve(s) per step",
                    gamma == 0.5 ? "midpoint" : "θ", gamma, settings_.articulated_solves)
              : fmt::format(
                    "{} per domain, {} Newton iteration(s); frames advanced from the domains' "
                    "forces",
                    newmark_description(gamma, newmark_beta(gamma)), settings_.newton_iterations);
    }
    const auto frames_start = Clock::now();
    system_.root_kind =
        settings_.root == RootOption::fixed ||
                (settings_.root == RootOption::automatic && !scene.fixed_vertices.empty())
            ? RootKind::fixed
            : RootKind::free_flying;
    system_.tree =
        build_domain_tree(scene, models, rigid, system_.root_kind == RootKind::free_flying,
                          settings_.planar_epsilon, settings_.lumping == Lumping::articulated);
    make_layout(scene);
    schedules_.index(system_.tree);

    system_.states.clear();
    system_.states.resize(system_.tree.domains.size());
    if (settings_.lumping == Lumping::articulated) articulated_.precompute(system_.tree);
    system_.fracture.reset(system_.tree.domains.size());
    system_.domain_mass.clear();
    for (const InertiaDomain& dom : system_.tree.domains) system_.domain_mass.push_back(dom.mass());
    int planar = 0;
    const ProceduralMaterials materials = procedural_materials(context);
    schedules_.set_domain_frequencies(materials.frequency);
    for (const InertiaDomain& dom : system_.tree.domains) {
      DomainState& s = system_.states[static_cast<std::size_t>(dom.id)];
      s.alpha = settings_.frequency_scale * std::pow(settings_.level_frequency_scale, dom.depth);
      if (auto it = settings_.domain_frequency_scale.find(dom.id);
          it != settings_.domain_frequency_scale.end())
        s.alpha *= it->second;
      s.stiffness = materials.stiffness[static_cast<std::size_t>(dom.id)];
      if (dom.r() > 0) {
        ReducedNewmarkSettings settings;
        settings.max_iterations = settings_.newton_iterations;
        settings.gamma = settings_.newmark_gamma;
        settings.beta = newmark_beta(settings_.newmark_gamma);
        settings.mass_damping = scene.rayleigh_mass;
        settings.stiffness_damping = scene.rayleigh_stiffness;
        if (settings_.damping == DampingMode::procedural) {
          // §5.3 at the domain's lowest frequency with its stiffness and frequency scale.
          const double nu = s.alpha * std::sqrt(s.stiffness) *
                            materials.frequency[static_cast<std::size_t>(dom.id)];
          const DampingSettings d{settings_.damping_ratio_low, settings_.damping_ratio_high,
                                  settings_.damping_frequency_low, settings_.damping_frequency_high,
                                  settings_.damping_liveliness};
          const Rayleigh c = procedural_rayleigh(damping_ratio(d, nu), 2 * M_PI * nu,
                                                 0.5 + 0.3 * settings_.damping_liveliness);
          settings.mass_damping = c.mass;
          settings.stiffness_damping = c.stiffness;
        }
        settings.domain = dom.id;
        s.newmark = std::make_unique<ReducedNewmark>(*dom.model->forces, settings);
        s.newmark->set_frequency_scale(s.alpha);
        s.newmark->set_stiffness_scale(s.stiffness);
      }
      planar += dom.planar_interfaces;
    }
    if (context.stats) context.stats->add("frames and integrals", seconds_since(frames_start));
    if (settings_.frequency_matching == FrequencyMatching::automatic) {
      const auto matching_start = Clock::now();
      const MatchingRun run{[this](const Eigen::VectorXd& u0) { do_reset(u0, {}); },
                            [this](double dt) {
                              const ExternalForces none;
                              StepStats stats;
                              do_step(dt, none, stats);
                            }};
      match_frequencies(system_, context, models, reduction_.cache, run);
      if (context.stats) context.stats->add("frequency matching", seconds_since(matching_start));
    }
    int deformable = 0;
    for (const InertiaDomain& dom : system_.tree.domains) deformable += dom.r() > 0 ? 1 : 0;
    log::info(
        "inertia: {} domains ({} deformable, {} rigid), {} interfaces ({} planar), tree depth {}, "
        "root {} ({}), {} lumping, {} DOFs; frames and system-force integrals in {:.3g} s ({} "
        "instances share their representative's, {} its children's frames; models {:.3g} s)",
        system_.tree.domains.size(), deformable,
        static_cast<int>(system_.tree.domains.size()) - deformable, system_.tree.domains.size() - 1,
        planar, max_depth(), scene.root,
        system_.root_kind == RootKind::fixed ? "fixed" : "free-flying",
        settings_.lumping == Lumping::interface ? "interface (L1)"
                                                : (settings_.lumping == Lumping::center_of_mass
                                                       ? "centre-of-mass (L2)"
                                                       : "articulated"),
        do_dofs(), seconds_since(frames_start), system_.tree.shared_integrals,
        system_.tree.shared_child_frames,
        std::chrono::duration<double>(frames_start - start).count());
    do_reset({}, {});
    if (context.stats) report_memory(*context.stats);
  }

  void do_reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) override {
    schedules_.reset();  // the frequency scales may have changed: substeps found again
    system_.reset(u0, v0);
  }

  void do_step(double dt, const ExternalForces& forces, StepStats& stats) override {
    ++system_.step;
    auto t0 = Clock::now();
    system_.gather_loads(forces);
    if (settings_.lumping == Lumping::articulated) {
      stats.add("frames", seconds_since(t0));
      t0 = Clock::now();
      stats.iterations += articulated_.step(system_, dt, forces.gravity);
      stats.add("domains", seconds_since(t0));
      return;
    }
    system_.sum_subtrees(forces.gravity);
    if (system_.root_kind == RootKind::free_flying) system_.step_root_body(dt);
    schedules_.run(system_, dt, forces.gravity, seconds_since(t0), stats);
  }

  // Each domain's lowest natural frequency under the scene's material (its reduced K at rest,
  // unit reduced mass; 0 for a rigid domain) and its procedural stiffness multiplier, with the
  // precompute report's line.
  struct ProceduralMaterials {
    std::vector<double> frequency, stiffness;
  };
  ProceduralMaterials procedural_materials(const PrecomputeContext& context) const {
    const std::size_t d = system_.tree.domains.size();
    ProceduralMaterials m;
    m.frequency.assign(d, 0.0);
    std::map<const ReducedForceModel*, double> known;  // instances share their model
    for (const InertiaDomain& dom : system_.tree.domains) {
      if (dom.r() == 0) continue;
      const ReducedForceModel* forces = dom.model->forces.get();
      auto [it, added] = known.try_emplace(forces, 0.0);
      if (added) {
        Eigen::VectorXd f;
        Eigen::MatrixXd K;
        forces->evaluate(Eigen::VectorXd::Zero(dom.r()), nullptr, &f, &K);
        const double lambda =
            Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K, Eigen::EigenvaluesOnly)
                .eigenvalues()
                .minCoeff();
        it->second = std::sqrt(std::max(lambda, 0.0)) / (2 * M_PI);  // Eq. 5.6: ω² = λ₀
      }
      m.frequency[static_cast<std::size_t>(dom.id)] = it->second;
    }
    const StiffnessSettings settings{settings_.stiffness == StiffnessMode::aging,
                                     settings_.aging_exponent, settings_.level_stiffness,
                                     settings_.stiffness_randomization,
                                     static_cast<std::uint64_t>(settings_.stiffness_seed)};
    m.stiffness = stiffness_multipliers(settings, m.frequency, system_.tree.tree.parent,
                                        system_.tree.tree.depth, system_.tree.tree.bfs_order);
    const double f0 = m.frequency[static_cast<std::size_t>(system_.tree.tree.root)];
    double tune = 1;
    if (settings_.root_frequency > 0) {
      if (!(f0 > 0))
        throw Error("inertia: root_frequency needs a deformable root domain (domain " +
                    std::to_string(system_.tree.tree.root) + " is rigid)");
      tune = (settings_.root_frequency / f0) * (settings_.root_frequency / f0);
      for (double& s : m.stiffness) s *= tune;
    }
    const bool procedural = settings.aging || !settings_.level_stiffness.empty() ||
                            settings.randomization > 0 || settings_.root_frequency > 0;
    if (procedural) {
      const auto [lo, hi] = std::minmax_element(m.stiffness.begin(), m.stiffness.end());
      log::info(
          "inertia: procedural stiffness ({} mode{}): root's lowest frequency {:.4g} Hz under "
          "the scene's material{}, {:.4g} Hz with its multiplier; Young's modulus × {:.3g} … "
          "{:.3g} over {} domains",
          settings.aging ? "aging" : "absolute",
          settings.aging ? fmt::format(", D = {:g}", settings.exponent) : "", f0,
          settings_.root_frequency > 0
              ? fmt::format(", E × {:.4g} for {:g} Hz", tune, settings_.root_frequency)
              : "",
          f0 * std::sqrt(m.stiffness[static_cast<std::size_t>(system_.tree.tree.root)]), *lo, *hi,
          d);
      if (context.stats) {
        context.stats->report("root frequency [Hz]", f0);
        context.stats->report("stiffness min", *lo);
        context.stats->report("stiffness max", *hi);
      }
    }
    return m;
  }

  // Per domain from its system-force integrals (domain_energy.hpp), in the integrals' axes and
  // origin (an instance's are its representative's).
  Energies do_energies(const Vec3& gravity) const override {
    Energies e;
    Eigen::VectorXd work[4];
    for (const InertiaDomain& dom : system_.tree.domains) {
      const DomainState& s = system_.states[static_cast<std::size_t>(dom.id)];
      const FrameMotion m = dom.integral_motion(s.motion);
      e.kinetic += kinetic_energy(*dom.integrals, m.v, m.omega, s.q, s.qdot, work);
      if (s.newmark) e.elastic += s.newmark->potential_energy();                 // α W(q)
      e.gravity -= gravity.dot(dom.mass() * s.p + s.R * dom.first_moment(s.q));  // −∫ρ g·x
    }
    return e;
  }

  // The copies of an interface vertex (one per domain it belongs to) are apart by the mismatch
  // of the domains' deformations; positions() shows their average.
  double do_interface_gap() const override {
    const Index n = system_.scene->mesh.num_vertices();
    Points first(n, 3);
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    double gap = 0;
    Eigen::MatrixXd turned;
    for (const InertiaDomain& dom : system_.tree.domains) {
      const DomainState& s = system_.states[static_cast<std::size_t>(dom.id)];
      for (std::size_t l = 0; l < dom.global_vertex.size(); ++l) {
        const Index g = dom.global_vertex[l];
        const Vec3 x = s.p + s.R * local_position(dom, s, static_cast<Index>(l), turned);
        if (seen[static_cast<std::size_t>(g)])
          gap = std::max(gap, (x - first.row(g).transpose()).norm());
        else
          first.row(g) = x.transpose();
        seen[static_cast<std::size_t>(g)] = 1;
      }
    }
    return gap;
  }

  Index do_dofs() const override {
    Index total = 0;
    for (const InertiaDomain& dom : system_.tree.domains) total += dom.r();
    return total +
           (system_.root_kind == RootKind::free_flying && !system_.tree.domains.empty() ? 6 : 0);
  }

  const ReducedGeometry& layout() const override { return geometry_; }

  // The bytes per domain by kind (domain_memory.hpp) as precompute figures, each domain's step
  // state counted as its vectors, matrices and integrator object.
  void report_memory(PrecomputeStats& stats) const {
    const std::vector<DomainState>& states = system_.states;
    std::vector<std::size_t> state(states.size());
    for (std::size_t i = 0; i < states.size(); ++i) {
      const DomainState& s = states[i];
      state[i] =
          sizeof(DomainState) + (s.newmark ? sizeof(ReducedNewmark) : 0) +
          sizeof(double) * static_cast<std::size_t>(s.q.size() + s.qdot.size() + s.qddot.size() +
                                                    s.mass.size() + s.f.size()) +
          s.child_itf.capacity() * sizeof(InterfaceKinematics) + s.child_attached.capacity();
    }
    const DomainMemory m = domain_memory(*system_.scene, system_.tree, geometry_, state);
    for (const auto& [name, kind] :
         {std::pair{"flexible", m.flexible}, std::pair{"instance", m.instance},
          std::pair{"rigid", m.rigid}}) {
      stats.report(fmt::format("memory: {} domains", name), kind.domains);
      stats.report(fmt::format("memory: bytes per {} domain", name), kind.per_domain());
    }
  }

  // x = p + R (X̄ + U q), v = R (ν + ω × (X̄ + U q) + U q̇) per domain, shared vertices averaged.
  void poses(std::vector<DomainPose>& poses) const override {
    poses.resize(system_.states.size());
    for (std::size_t i = 0; i < system_.states.size(); ++i) {
      const DomainState& s = system_.states[i];
      poses[i].R = s.R;
      poses[i].p = s.p;
      poses[i].nu = s.motion.v;
      poses[i].omega = s.motion.omega;
      poses[i].q = s.q;
      poses[i].qdot = s.qdot;
    }
  }

 private:
  int max_depth() const {
    int depth = 0;
    for (int k : system_.tree.tree.depth) depth = std::max(depth, k);
    return depth;
  }

  // The layout the framework's geometry kernel (and the geometry plugins) evaluate: per domain
  // its vertices, local rest shape X̄ and basis U (domain ids are the indices); instances that
  // share their representative's integrals share its X̄ and U too. A domain's X̄ moves into the
  // layout (the tree reads it there: InertiaDomain::rest()); an instance keeps its own, which
  // its state and point loads use.
  void make_layout(const Scene& scene) {
    geometry_ = ReducedGeometry();
    geometry_.rest_positions = scene.mesh.vertices;
    geometry_.domains.resize(system_.tree.domains.size());
    for (InertiaDomain& dom : system_.tree.domains) {
      DomainLayout& d = geometry_.domains[static_cast<std::size_t>(dom.id)];
      d.global_vertex.assign(dom.global_vertex.begin(), dom.global_vertex.end());
      if (dom.integrals_of >= 0) {  // a turned copy of its representative (checked there)
        d.instance_of = dom.integrals_of;
        d.rotation = dom.integral_rotation;
        d.offset = dom.integral_offset;
        continue;
      }
      d.rest = std::move(dom.X);
      dom.X = Points();
      dom.rest_in = &d.rest;
      d.U = dom.U();
    }
    geometry_.finalize();
  }

  ReductionSettings reduction_;
  InertiaSettings settings_;
  ParallelTasks tasks_;
  bool contact_ = false;  // [contact] has obstacles (single domain only: check_scene)
  InertiaSystem system_{settings_, tasks_};
  StepSchedules schedules_;
  ReducedGeometry geometry_;     // layout for positions() and the geometry plugins
  ArticulatedStep articulated_;  // lumping = articulated
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<InertiaCoupling>(context.config);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "inertia",
      PluginKind::coupling,
      SUBSTRUCT_VERSION,
      "multidomain reduced dynamics in moving frames (Barbič–Zhao 2011, Zhao 2014): a tree of "
      "reduced domains, lumped subtree inertia, linear in the number of domains",
      &options,
      &create};
  return d;
}

}  // namespace substruct::inertia

SUBSTRUCT_PLUGIN(substruct::inertia::descriptor)
