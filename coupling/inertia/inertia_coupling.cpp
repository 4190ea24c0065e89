// SPDX-License-Identifier: GPL-3.0-or-later
// inertia: multidomain reduced dynamics (Barbič–Zhao 2011, Algorithm 1) with the extensions of
// Zhao 2014 (frequency scaling α = β^depth, fracture, free-flying root). Every domain is a reduced
// model (u = U q) simulated in its own moving frame; a child's frame is the polar rotation of the
// interface to its parent as the parent deforms. Per step, root → leaves: the domain's frame and
// its motion, the system forces f_sys (Eq. 14), the lumped subtree inertia of its children (Eq.
// 15–16, L1 or L2), one semi-implicit Newmark step of
//     (I + Σ_j M_ij) q̈ + D q̇ + f_int(q) = f_ext + f_sys + Σ_j f0_ij      (Eq. 17),
// then its children's interface kinematics from the new state. Linear in the number of domains.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "articulated_body.hpp"
#include "domain_energy.hpp"
#include "domain_memory.hpp"
#include "domain_tree.hpp"
#include "frame_kinematics.hpp"
#include "frequency_matching.hpp"
#include "interface_forces.hpp"
#include "procedural_materials.hpp"
#include "procedural_timestep.hpp"
#include "rigid_body.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/options.hpp"
#include "substruct/config/reduction_settings.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/core/damped_vibration.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/fnv1a.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/parallel_tasks.hpp"
#include "substruct/core/prefetch.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/integrators/implicit_integrator.hpp"
#include "substruct/io/checked_record.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/reduction/domain_models.hpp"
#include "substruct/reduction/reduced_integrator.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::inertia {
namespace {

// β = (γ + ½)²/4: Newmark's β for a given γ ≥ ½ that keeps the scheme unconditionally stable and
// damps the highest modes most (γ = ½: β = ¼, the trapezoidal rule).
double newmark_beta(double gamma) {
  return (gamma + 0.5) * (gamma + 0.5) / 4;
}

// What [inertia] root asks for; RootKind is what it resolves to on a scene.
enum class RootOption { automatic, fixed, free_flying };

enum class FrequencyMatching { off, automatic };
enum class StiffnessMode { absolute, aging };
enum class DampingMode { scene, procedural };
enum class TimestepMode { global, procedural };
constexpr int kMaxSubstepExponent = 12;  // 4096 substeps per step
constexpr int kChildRun = 16;            // children per run of over_children: four batches of four

// The [inertia] section.
struct InertiaSettings {
  Lumping lumping = Lumping::center_of_mass;
  FrequencyMatching frequency_matching = FrequencyMatching::off;
  double frequency_scale = 1;                      // α
  double level_frequency_scale = 1;                // β
  std::map<Index, double> domain_frequency_scale;  // domain → factor
  double fracture_threshold = 0;
  double planar_epsilon = 1e-3;  // ε
  int newton_iterations = 1;
  int articulated_solves = 3;
  double newmark_gamma = 0.55;
  RootOption root = RootOption::automatic;
  std::vector<Index> rigid_domains;
  bool stage_timing = false;
  TreeSchedule schedule = TreeSchedule::dependencies;
  // Procedural materials (Zhao 2014, ch. 5).
  StiffnessMode stiffness = StiffnessMode::absolute;
  double aging_exponent = 2;
  std::vector<double> level_stiffness;
  double stiffness_randomization = 0;
  long stiffness_seed = 1;
  double root_frequency = 0;  // [Hz]; 0: E as the scene sets it
  DampingMode damping = DampingMode::scene;
  double damping_ratio_low = 0.02, damping_ratio_high = 0.1;
  double damping_frequency_low = 1, damping_frequency_high = 10;
  double damping_liveliness = 0;
  TimestepMode timestep = TimestepMode::global;
  double timestep_quality = 100;  // Q
};

const OptionSet<InertiaSettings>& inertia_options() {
  using S = InertiaSettings;
  static const auto options =
      OptionSet<S>("inertia", "multidomain reduced dynamics in moving frames")
          .choice("lumping", &S::lumping,
                  {{"interface", Lumping::interface},
                   {"center-of-mass", Lumping::center_of_mass},
                   {"articulated", Lumping::articulated}},
                  "how a child subtree acts on its parent: the paper's lumped masses, one-way "
                  "(the parent drives a child without feeling its deformation, so a child in "
                  "resonance with its parent gains energy without bound on undamped scenes: use "
                  "them with damping or newmark_gamma > 0.5) — center-of-mass (L2: the "
                  "subtree's centre of mass carried by the interface) or interface (L1, Eq. 16: "
                  "a constant lumped mass, a shorter pendulum: measured on the flower's "
                  "release, L1 vibrates at 1.6–3× the ground truth's frequency, L2 at 1.2×; "
                  "the paper reports 2× and 1.5×) — or articulated (the subtree's exact "
                  "articulated inertia, its deformation included, eliminated leaves → root and "
                  "solved root → leaves, all domains' steps together by the implicit midpoint "
                  "rule; two-way, so an undamped run keeps its energy: the free letters within "
                  "0.23 % over 5 s; on the flower's 45° release it needs dt ≤ 2.5 ms and "
                  "diverges after 4 s there)")
          .choice("frequency_matching", &S::frequency_matching,
                  {{"off", FrequencyMatching::off}, {"auto", FrequencyMatching::automatic}},
                  "auto: each domain's α is chosen during precompute so that the lowest "
                  "frequency of the subtree rooted at it, simulated reduced and coupled, equals "
                  "that subtree's in unreduced FEM with its parent interface held (Zhao 2014, "
                  "§4.6); one eigen solve and a few short runs per domain, stored in the cache "
                  "directory. frequency_scale and the other factors multiply on top. On the "
                  "flower released from a 45° bend, f / f_full: interface lumping 2.99 → 1.006 "
                  "matched, center-of-mass 1.20 → 1.05 (the match is made at small amplitude)")
          .number("frequency_scale", &S::frequency_scale, "",
                  "global frequency scale α: every domain's natural frequencies × α (Zhao 2014, "
                  "§4.3)",
                  positive)
          .number("level_frequency_scale", &S::level_frequency_scale, "",
                  "β: a domain at depth k in the tree gets α × β^k", positive)
          .index_map("domain_frequency_scale", &S::domain_frequency_scale, "DOMAIN:FACTOR", "",
                     "per-domain factors on top, e.g. \"3:0.5 7:2\"; a range 4-9:0.5 gives each "
                     "of its domains the factor",
                     positive)
          .number("fracture_threshold", &S::fracture_threshold, "",
                  "a child subtree detaches when its reduced interface force ‖f_itf‖² exceeds "
                  "this (Zhao 2014, §4.4); 0 = never",
                  non_negative)
          .number("planar_epsilon", &S::planar_epsilon, "",
                  "planar-interface threshold ε (λ_min < ε λ_max of the interface covariance)",
                  positive)
          .integer("newton_iterations", &S::newton_iterations, "",
                   "Newton iterations per domain step of the lumped couplings (1 = "
                   "semi-implicit, as in the paper)",
                   at_least(1))
          .integer("articulated_solves", &S::articulated_solves, "",
                   "linear solves per step of the articulated coupling: the first with every "
                   "frame, inertia and velocity term at the step's start, each further one at "
                   "the last solve's midpoint, the elastic forces linearised there (1: "
                   "semi-implicit, dissipates: the flower's undamped release loses 13.5 % in 3 s "
                   "at dt = 0.01 s; 3 keeps it within 0.02 %)",
                   at_least(1))
          .number("newmark_gamma", &S::newmark_gamma, "",
                  "Newmark γ of every domain (β = (γ + ½)²/4); ½ is the trapezoidal rule "
                  "(Barbič & James 2005, as in the paper), which keeps energy; γ > ½ damps the "
                  "highest frequencies numerically: the default 0.55 removes 84 % of the "
                  "flower's undamped release energy in 0.82 s, which hides the lumped "
                  "couplings' gain; with lumping = articulated, the point θ = γ of the step "
                  "where its implicit rule takes the equations (½: the midpoint rule, "
                  "energy-conserving; above ½ it damps high frequencies)",
                  in_range(0.5, 1))
          .choice("root", &S::root,
                  {{"auto", RootOption::automatic},
                   {"fixed", RootOption::fixed},
                   {"free-flying", RootOption::free_flying}},
                  "root frame: auto (fixed when the scene fixes vertices, free-flying otherwise), "
                  "fixed (the world frame) or free-flying (Newton–Euler of the whole object)")
          .indices("rigid_domains", &S::rigid_domains,
                   "domains simulated as rigid bodies (r = 0), e.g. \"2 5\"")
          .flag("stage_timing", &S::stage_timing,
                "time the frames / system forces / dynamics stages of every step apart (level by "
                "level; slower: each domain's data is fetched once per stage instead of once per "
                "step)")
          .choice("schedule", &S::schedule,
                  {{"levels", TreeSchedule::levels}, {"dependencies", TreeSchedule::dependencies}},
                  "how the domains of a step are spread over [run] threads (Zhao 2014, §5.4.2): "
                  "dependencies (a domain's whole step, substeps included, is one task, started "
                  "as soon as its parent's is done: the thesis's Scheme 1; sibling subtrees of "
                  "a few domains go as one task) or levels (one depth level after another, a "
                  "barrier between levels)")
          .choice("stiffness", &S::stiffness,
                  {{"absolute", StiffnessMode::absolute}, {"aging", StiffnessMode::aging}},
                  "each domain's Young's modulus (Zhao 2014, §5.1): absolute (the scene's, times "
                  "level_stiffness) or aging (× c₁ a^D, Eq. 5.1, with the age a = ν_root / ν of "
                  "the domain's lowest frequency under the scene's material, never younger than "
                  "a descendant, Eq. 5.4–5.5)")
          .number("aging_exponent", &S::aging_exponent, "",
                  "D of Eq. 5.1: 2 gives every branch about the same lowest frequency, 0 is "
                  "absolute mode",
                  non_negative)
          .numbers("level_stiffness", &S::level_stiffness, "",
                   "stiffness multipliers c₁ per depth level, root first, the last repeating (E × "
                   "c₁, frequencies × √c₁), e.g. \"10 5 1\"; the thesis's per-level stiffness. "
                   "level_frequency_scale scales frequencies instead",
                   positive)
          .number("stiffness_randomization", &S::stiffness_randomization, "",
                  "r: each domain's frequency × a factor uniform on [1/(1 + r), 1 + r] (its "
                  "stiffness × the square), drawn from stiffness_seed (§7.2.2); at most 10 "
                  "(stiffness × up to 121)",
                  in_range(0, 10))
          .integer("stiffness_seed", &S::stiffness_seed, "", "seed of stiffness_randomization")
          .number("root_frequency", &S::root_frequency, "Hz",
                  "when > 0: every Young's modulus × (this / f₀)², f₀ the root domain's lowest "
                  "frequency under the scene's material, so that the root vibrates at this "
                  "frequency (§4.1: E′ = E / f₀² for 1 Hz); the procedural factors apply on top",
                  non_negative)
          .choice("damping", &S::damping,
                  {{"scene", DampingMode::scene}, {"procedural", DampingMode::procedural}},
                  "Rayleigh damping of each domain: the scene's [material] coefficients, or "
                  "procedural (§5.3): ξ from the domain's lowest frequency ν by Eq. 5.10, then α, "
                  "β by Eq. 5.12–5.13")
          .number("damping_ratio_low", &S::damping_ratio_low, "",
                  "procedural damping: ξ of domains whose lowest frequency is ≤ "
                  "damping_frequency_low",
                  non_negative)
          .number("damping_ratio_high", &S::damping_ratio_high, "",
                  "procedural damping: ξ of domains whose lowest frequency is ≥ "
                  "damping_frequency_high (linear in between)",
                  non_negative)
          .number("damping_frequency_low", &S::damping_frequency_low, "Hz", "ν_low of Eq. 5.10",
                  positive)
          .number("damping_frequency_high", &S::damping_frequency_high, "Hz", "ν_high of Eq. 5.10",
                  positive)
          .number("damping_liveliness", &S::damping_liveliness, "",
                  "γ_user: γ = 0.5 + 0.3 γ_user, the ratio at twice the lowest frequency is ξ/γ; "
                  "0 (the thesis's default) is stiffness damping only, 1 the liveliest high "
                  "frequencies",
                  in_range(0, 1))
          .choice("timestep", &S::timestep,
                  {{"global", TimestepMode::global}, {"procedural", TimestepMode::procedural}},
                  "global (every domain one step of [run] dt) or procedural (Zhao 2014, §5.2, "
                  "§5.4.1: each domain 2^N substeps with dt / 2^N < T / Q, T its lowest period "
                  "from its reduced K and unit mass with its stiffness and frequency scales; rigid "
                  "domains take their parent's N, rigid subtrees 0; a child reads its parent's "
                  "frame at the coarser of their two substep grids)")
          .number("timestep_quality", &S::timestep_quality, "",
                  "Q of the procedural timestep: substeps per lowest period (the thesis's "
                  "default 100)",
                  positive);
  return options;
}

const OptionTable& options() {
  return inertia_options().table();
}

enum class RootKind { fixed, free_flying };

// Per-domain state of the simulation.
struct DomainState {
  std::unique_ptr<ReducedNewmark> newmark;  // null for a rigid domain
  double alpha = 1;                         // frequency scale
  double stiffness = 1;                     // Young's modulus multiplier (procedural)
  Eigen::VectorXd q, qdot, qddot;           // r entries (frozen copies for detached domains)
  Vec3 p = Vec3::Zero();                    // frame origin, world
  Mat3 R = Mat3::Identity();                // frame rotation, world
  FrameMotion motion;                       // in the frame's own axes
  std::vector<InterfaceKinematics> child_itf;
  // Ballistic motion of a detached subtree root: its centre of mass c, velocity, ω (world), and
  // the rest offset of the centre of mass from the frame origin (frame axes).
  Vec3 c = Vec3::Zero(), c_dot = Vec3::Zero(), omega_world = Vec3::Zero(), d = Vec3::Zero();
  bool ballistic_started = false;
  // Workspace.
  Eigen::MatrixXd mass;  // I + Σ_j M_ij
  bool mass_changed = true;
  InterfaceForceBatch children;      // the children's M_ij and f0_ij
  std::vector<char> child_attached;  // per child, before this step's fractures
  Eigen::VectorXd f;
  long solves = 0;  // this step's linear solves (summed after the step: no shared counter)
};

class InertiaCoupling final : public ReducedCouplingMethod {
 public:
  explicit InertiaCoupling(const Config& config)
      : reduction_(ReductionSettings::from_config(config)),
        settings_(inertia_options().read(config)),
        tasks_(run_threads(config)) {
    domain_scale_ = settings_.domain_frequency_scale;
    level_stiffness_ = settings_.level_stiffness;
    if (settings_.timestep == TimestepMode::procedural && settings_.fracture_threshold > 0)
      throw config.value_error("inertia.timestep",
                               "procedural timesteps do not support fracture (fracture_threshold "
                               "> 0) yet: use timestep = global");
    if (settings_.timestep == TimestepMode::procedural && settings_.stage_timing)
      throw config.value_error("inertia.stage_timing", "times stages with timestep = global only");
    if (settings_.lumping == Lumping::articulated) {
      // The articulated inertia is the subtree's true one: a frequency scale (M/α) or a
      // detached subtree would make the coupled equations inconsistent.
      const char* needs = nullptr;
      if (settings_.timestep == TimestepMode::procedural)
        needs = "inertia.timestep = procedural";
      else if (settings_.fracture_threshold > 0)
        needs = "inertia.fracture_threshold";
      else if (settings_.frequency_matching != FrequencyMatching::off)
        needs = "inertia.frequency_matching";
      else if (settings_.frequency_scale != 1 || settings_.level_frequency_scale != 1 ||
               !settings_.domain_frequency_scale.empty())
        needs = "inertia frequency scales";
      else if (settings_.stage_timing)
        needs = "inertia.stage_timing";
      if (needs)
        throw config.value_error(
            "inertia.lumping",
            fmt::format("{} needs a lumped subtree inertia: set inertia.lumping = "
                        "center-of-mass or interface (the articulated coupling steps all domains "
                        "together with their true inertia)",
                        needs));
    }
    if (settings_.damping_frequency_high <= settings_.damping_frequency_low)
      throw config.value_error("inertia.damping_frequency_high",
                               "must be above damping_frequency_low");
  }

 protected:
  // The hooks the framework calls in order, once it has checked their inputs.
  CanRun check_scene(const Scene& scene) const override {
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

  void do_precompute(const PrecomputeContext& context) override {
    const Scene& scene = context.scene;
    scene_ = &scene;
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
    root_kind_ = settings_.root == RootOption::fixed ||
                         (settings_.root == RootOption::automatic && !scene.fixed_vertices.empty())
                     ? RootKind::fixed
                     : RootKind::free_flying;
    tree_ = build_domain_tree(scene, models, rigid, root_kind_ == RootKind::free_flying,
                              settings_.planar_epsilon, settings_.lumping == Lumping::articulated);
    geometry_ = reduced_layout(scene, tree_);
    index_tree();
    index_task_tree();

    states_.clear();
    states_.resize(tree_.domains.size());
    modal_mass_.clear();
    if (settings_.lumping == Lumping::articulated)
      for (const InertiaDomain& dom : tree_.domains)
        modal_mass_.push_back(dom.U().transpose() * (dom.M * dom.U()));
    attached_.assign(tree_.domains.size(), 1);
    frozen_.assign(tree_.domains.size(), 0);
    domain_mass_.clear();
    for (const InertiaDomain& dom : tree_.domains) domain_mass_.push_back(dom.mass());
    int planar = 0;
    const ProceduralMaterials materials = procedural_materials(context);
    domain_frequency_ = materials.frequency;
    for (const InertiaDomain& dom : tree_.domains) {
      DomainState& s = states_[static_cast<std::size_t>(dom.id)];
      s.alpha = settings_.frequency_scale * std::pow(settings_.level_frequency_scale, dom.depth);
      if (auto it = domain_scale_.find(dom.id); it != domain_scale_.end()) s.alpha *= it->second;
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
      match_frequencies(context, models);
      if (context.stats) context.stats->add("frequency matching", seconds_since(matching_start));
    }
    int deformable = 0;
    for (const InertiaDomain& dom : tree_.domains) deformable += dom.r() > 0 ? 1 : 0;
    log::info(
        "inertia: {} domains ({} deformable, {} rigid), {} interfaces ({} planar), tree depth {}, "
        "root {} ({}), {} lumping, {} DOFs; frames and system-force integrals in {:.3g} s ({} "
        "instances share their representative's, {} its children's frames; models {:.3g} s)",
        tree_.domains.size(), deformable, static_cast<int>(tree_.domains.size()) - deformable,
        tree_.domains.size() - 1, planar, max_depth(), scene.root,
        root_kind_ == RootKind::fixed ? "fixed" : "free-flying",
        settings_.lumping == Lumping::interface ? "interface (L1)"
                                                : (settings_.lumping == Lumping::center_of_mass
                                                       ? "centre-of-mass (L2)"
                                                       : "articulated"),
        do_dofs(), seconds_since(frames_start), tree_.shared_integrals, tree_.shared_child_frames,
        std::chrono::duration<double>(frames_start - start).count());
    do_reset({}, {});
    if (context.stats) report_memory(*context.stats);
  }

  void do_reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) override {
    const Scene& scene = *scene_;
    substeps_dt_ = 0;  // the frequency scales may have changed: substeps found again
    const Index n = scene.mesh.num_vertices();
    const Eigen::VectorXd u = u0.size() ? u0 : Eigen::VectorXd::Zero(3 * n);
    const Eigen::VectorXd v = v0.size() ? v0 : Eigen::VectorXd::Zero(3 * n);
    step_ = 0;
    subtree_sums_valid_ = false;
    body_ = RigidBody{};
    body_.mass = tree_.mass;
    body_.inertia = tree_.inertia;
    body_.p = tree_.center;
    if (root_kind_ == RootKind::free_flying) {
      // The rigid part of v: linear momentum / m and ω = I⁻¹ L about the centre of mass.
      Vec3 momentum = Vec3::Zero(), L = Vec3::Zero();
      for (Index g = 0; g < n; ++g) {
        const int i = scene.vertex_domain[static_cast<std::size_t>(g)];
        if (i < 0) continue;
        const InertiaDomain& dom = tree_.domains[static_cast<std::size_t>(i)];
        const double m = dom.vertex_mass[local(dom, g)];
        const Vec3 vg = v.segment<3>(3 * g);
        momentum += m * vg;
        L += m * (scene.mesh.vertices.row(g).transpose() - tree_.center).cross(vg);
      }
      body_.v = momentum / tree_.mass;
      body_.omega = tree_.inertia.ldlt().solve(L);
    }
    for (int i : tree_.tree.bfs_order) {
      const InertiaDomain& dom = tree_.domains[static_cast<std::size_t>(i)];
      DomainState& s = states_[static_cast<std::size_t>(i)];
      attached_[static_cast<std::size_t>(i)] = 1;
      s.mass_changed = true;
      frozen_[static_cast<std::size_t>(i)] = 0;
      s.ballistic_started = false;
      place_frame(i);
      s.q = s.qdot = s.qddot = Eigen::VectorXd::Zero(dom.r());
      if (dom.r() > 0) {
        // Local displacement and velocity relative to the frame, projected: q = Uᵀ M u_local.
        const Index nv = static_cast<Index>(dom.global_vertex.size());
        Eigen::VectorXd ul(3 * nv), vl(3 * nv);
        for (Index l = 0; l < nv; ++l) {
          const Index g = dom.global_vertex[static_cast<std::size_t>(l)];
          const Vec3 xw = scene.mesh.vertices.row(g).transpose() + u.segment<3>(3 * g);
          const Vec3 xl = s.R.transpose() * (xw - s.p);
          ul.segment<3>(3 * l) = xl - dom.X.row(l).transpose();
          vl.segment<3>(3 * l) =
              s.R.transpose() * v.segment<3>(3 * g) - s.motion.v - s.motion.omega.cross(xl);
        }
        const SparseMatrix M = dom.mass_matrix(scene);
        const Eigen::MatrixXd U = dom.basis();
        s.q = U.transpose() * (M * ul);
        s.qdot = U.transpose() * (M * vl);
        s.newmark->set_state(s.q, s.qdot);
      }
      s.child_itf.assign(dom.children.size(), InterfaceKinematics{});
      dom.child_rows.kinematics(s.q, s.qdot, s.qddot, free_alpha(),
                                std::vector<char>(dom.children.size(), 1), s.child_itf);
    }
  }

  void do_step(double dt, const ExternalForces& forces, StepStats& stats) override {
    const Scene& scene = *scene_;
    ++step_;
    double t_frames = 0, t_sys = 0, t_dyn = 0;
    auto t0 = Clock::now();
    const std::size_t d = tree_.domains.size();
    const Index n = scene.mesh.num_vertices();
    // Concentrated forces per domain: (global vertex, world force); only the lists of the
    // domains loaded at the last step are cleared (a tree may have 10⁵ domains).
    for (const std::size_t i : loaded_) concentrated_[i].clear();
    loaded_.clear();
    concentrated_.resize(d);
    const auto add_concentrated = [&](int i, Index g, const Vec3& f) {
      auto& list = concentrated_[static_cast<std::size_t>(i)];
      if (list.empty()) loaded_.push_back(static_cast<std::size_t>(i));
      list.emplace_back(g, f);
    };
    for (const PointForce& p : forces.point_forces) {
      const int i = scene.vertex_domain[static_cast<std::size_t>(p.vertex)];
      if (i >= 0) add_concentrated(i, p.vertex, p.force);
    }
    if (forces.nodal.size() != 0)
      for (Index g = 0; g < n; ++g) {
        const Vec3 f = forces.nodal.segment<3>(3 * g);
        const int i = scene.vertex_domain[static_cast<std::size_t>(g)];
        if (i >= 0 && f != Vec3::Zero()) add_concentrated(i, g, f);
      }

    if (settings_.lumping == Lumping::articulated) {
      stats.add("frames", seconds_since(t0));
      t0 = Clock::now();
      stats.iterations += articulated_step(dt, forces.gravity);
      stats.add("domains", seconds_since(t0));
      return;
    }

    // Leaves → root: subtree masses m̄ and rest first moments, and from them each subtree's
    // centre-of-mass offset d, again only when a subtree broke off; the external forces f̄
    // (world): gravity on m̄, and each concentrated force on its domain and every ancestor it is
    // attached to.
    if (!subtree_sums_valid_) {
      mbar_.assign(d, 0);
      std::vector<Vec3> moment(d, Vec3::Zero());
      for (auto it = tree_.tree.bfs_order.rbegin(); it != tree_.tree.bfs_order.rend(); ++it) {
        const auto i = static_cast<std::size_t>(*it);
        const InertiaDomain& dom = tree_.domains[i];
        mbar_[i] += domain_mass_[i];
        moment[i] += dom.first_moment_world;
        if (dom.parent >= 0 && attached_[i]) {
          const auto p = static_cast<std::size_t>(dom.parent);
          mbar_[p] += mbar_[i];
          moment[p] += moment[i];
        }
      }
      // R̂ = I: the rest axes are F_j's.
      subtree_offset_.resize(d);
      for (std::size_t i = 0; i < d; ++i)
        subtree_offset_[i] = moment[i] / mbar_[i] - tree_.domains[i].origin;
      subtree_sums_valid_ = true;
    }
    fbar_.resize(d);
    for (std::size_t i = 0; i < d; ++i) fbar_[i] = mbar_[i] * forces.gravity;
    for (const std::size_t i : loaded_)
      for (const auto& [g, f] : concentrated_[i])
        for (auto a = static_cast<int>(i);; a = tree_.domains[static_cast<std::size_t>(a)].parent) {
          fbar_[static_cast<std::size_t>(a)] += f;
          if (tree_.domains[static_cast<std::size_t>(a)].parent < 0 ||
              !attached_[static_cast<std::size_t>(a)])
            break;
        }

    // The free-flying root: Newton–Euler of the whole (attached) object.
    const int root = tree_.tree.root;
    if (root_kind_ == RootKind::free_flying) {
      Vec3 torque = Vec3::Zero();
      for (std::size_t i = 0; i < d; ++i) {
        if (frozen_[i]) continue;
        for (const auto& [g, f] : concentrated_[i])
          torque += (world_position(static_cast<int>(i), g) - body_.p).cross(f);
      }
      body_.mass = mbar_[static_cast<std::size_t>(root)];
      body_.step(dt, fbar_[static_cast<std::size_t>(root)], torque);
    }
    t_frames += seconds_since(t0);

    // Root → leaves: a domain needs only its parent's new state. With stage timing, one depth
    // level at a time, the domains of a level going through each stage together.
    const std::vector<int>& order = tree_.tree.bfs_order;
    // Each domain touches only its own state and its children's frames, so the domains of a
    // level, or every domain whose parent is done, may run at once.
    if (settings_.timestep == TimestepMode::procedural) {
      stats.add("frames", t_frames);
      t0 = Clock::now();
      plan_substeps(dt);
      tasks_.down_tree(tree_view(), settings_.schedule, [&](int i) {
        states_[static_cast<std::size_t>(i)].solves = step_substeps(i, dt, forces.gravity);
      });
      stats.iterations += static_cast<int>(solves(tree_.tree.bfs_order));
      stats.add("domains", seconds_since(t0));
      return;
    }
    if (!settings_.stage_timing) {
      // Each domain through all its stages at once, while its data is in cache.
      stats.add("frames", t_frames);
      t0 = Clock::now();
      const auto place = [&](int i) {
        place_frame(i);
        if (detached_root(i)) advance_ballistic(i, dt, forces.gravity);
      };
      tasks_.down_tree(task_tree_view(), settings_.schedule, [&](int i) {
        place(i);
        assemble_forces(i, forces.gravity);
        states_[static_cast<std::size_t>(i)].solves = advance_dynamics(i, dt);
        update_child_interfaces(i);
        // The rigid leaves straight from the interfaces just made (their own domain's data is
        // not read); a frozen one (a detached subtree's) the general way.
        const DomainState& s = states_[static_cast<std::size_t>(i)];
        const auto& leaves = rigid_leaves_[static_cast<std::size_t>(i)];
        for (std::size_t l = 0; l < leaves.size(); ++l) {
          const auto [j, k] = leaves[l];
          if (l + 2 < leaves.size()) prefetch_frame(leaves[l + 2].first);
          if (frozen_[static_cast<std::size_t>(j)])
            place(j);
          else
            place_child_frame(states_[static_cast<std::size_t>(j)], s.p, s.R, s.motion,
                              s.child_itf[static_cast<std::size_t>(k)]);
        }
      });
      stats.iterations += static_cast<int>(solves(task_order_));
      stats.add("domains", seconds_since(t0));
      report_fractures();
      return;
    }
    for (std::size_t level = 0; level + 1 < level_start_.size(); ++level) {
      const std::size_t b = level_start_[level];
      const std::size_t count = level_start_[level + 1] - b;
      auto each = [&](auto&& body) {
        tasks_.for_each(count, [&](std::size_t k) { body(order[b + k]); });
      };
      t0 = Clock::now();
      each([&](int i) {
        place_frame(i);
        if (detached_root(i)) advance_ballistic(i, dt, forces.gravity);
      });
      t_frames += seconds_since(t0);
      t0 = Clock::now();
      each([&](int i) { assemble_forces(i, forces.gravity); });
      t_sys += seconds_since(t0);
      t0 = Clock::now();
      each([&](int i) { states_[static_cast<std::size_t>(i)].solves = advance_dynamics(i, dt); });
      t_dyn += seconds_since(t0);
      t0 = Clock::now();
      each([&](int i) { update_child_interfaces(i); });
      t_frames += seconds_since(t0);
    }
    stats.iterations += static_cast<int>(solves(order));
    stats.add("frames", t_frames);
    stats.add("system forces", t_sys);
    stats.add("dynamics", t_dyn);
    report_fractures();
  }

  // Whether the children's interface kinematics need Ω and the q̈ = 0 part of ω̇_ij.
  bool free_alpha() const { return settings_.lumping != Lumping::interface; }

  // The articulated coupling's linear system of one step (articulated_body.hpp) for the step's
  // acceleration a: each domain's frames, inertias and velocity terms at its current state (s.q,
  // s.qdot and the frames placed from them), its elastic forces linearised about q_lin, and its
  // modes at q = q̃ + c_q a, q̇ = ṽ + c_v a; leaves → root the subtrees' articulated inertias, root
  // → leaves the accelerations (nodes_[i].A, .qddot).
  void articulated_solve(double c_q, double c_v, const Vec3& gravity) {
    const std::vector<int>& order = tree_.tree.bfs_order;
    nodes_.resize(tree_.domains.size());
    std::vector<std::pair<Index, Vec3>> loads;
    Eigen::VectorXd f;
    Eigen::MatrixXd K;
    for (const int i : order) {
      const auto ii = static_cast<std::size_t>(i);
      const InertiaDomain& dom = tree_.domains[ii];
      const DomainState& s = states_[ii];
      ArticulatedNode& node = nodes_[ii];
      const Mat3 Rt = s.R.transpose();
      loads.clear();
      for (const auto& [g, F] : concentrated_[ii]) loads.emplace_back(local(dom, g), Rt * F);
      domain_rigid_terms(dom.M, dom.U(), dom.X, s.q, s.qdot, s.motion.omega, Rt * gravity, loads,
                         node);
      if (dom.r() > 0) {
        // M_r a + D q̇ + f(q) = Uᵀ f_known + couplings, f(q) ≈ f(q_lin) + K(q_lin)(q − q_lin),
        // D = a_R M_r + b_R K(q_lin) (Rayleigh).
        const Eigen::MatrixXd& Mr = modal_mass_[ii];
        const double sc = s.stiffness;
        dom.model->forces->evaluate(lin_q_[ii], nullptr, &f, &K);
        f *= sc;
        K *= sc;
        const ReducedNewmarkSettings& ns = s.newmark->settings();
        const Eigen::MatrixXd D = ns.mass_damping * Mr + ns.stiffness_damping * K;
        node.H = Mr + c_v * D + c_q * K;
        node.b = node.modal - f - K * (pred_q_[ii] - lin_q_[ii]) - D * pred_v_[ii];
      } else {
        node.H.resize(0, 0);
        node.b.resize(0);
      }
      if (dom.parent >= 0) {
        const DomainState& ps = states_[static_cast<std::size_t>(dom.parent)];
        const auto k = static_cast<std::size_t>(dom.child_index);
        child_link(
            tree_.domains[static_cast<std::size_t>(dom.parent)].child_rows.columns(dom.child_index),
            ps.child_itf[k], ps.motion.omega, node);
      }
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      ArticulatedNode& node = nodes_[static_cast<std::size_t>(*it)];
      articulated_eliminate(node, *it, step_);
      const int parent = tree_.domains[static_cast<std::size_t>(*it)].parent;
      if (parent >= 0) add_child(node, nodes_[static_cast<std::size_t>(parent)]);
    }
    for (const int i : order) {
      ArticulatedNode& node = nodes_[static_cast<std::size_t>(i)];
      const int parent = tree_.domains[static_cast<std::size_t>(i)].parent;
      if (parent >= 0) {
        child_acceleration(nodes_[static_cast<std::size_t>(parent)], node);
      } else if (root_kind_ == RootKind::fixed) {
        node.A.setZero();
      } else {
        // A free root carries no wrench: IA A = pA.
        node.A = node.IA.ldlt().solve(node.pA);
      }
      modal_acceleration(node);
    }
  }

  // One step of the articulated coupling by the implicit midpoint rule, on every domain's q and
  // the free root's frame: with the step's acceleration a,
  //   q_½ = q + (h/2) q̇ + (h²/4) a,  q̇_½ = q̇ + (h/2) a,  the equations of motion at the midpoint,
  //   q₊ = q + h q̇ + (h²/2) a,  q̇₊ = q̇ + h a
  // (for a linear system the trapezoidal rule's states; for a nonlinear one without its energy
  // drift). The first of articulated_solves solves takes the frames, inertias and velocity terms
  // at the step's start, each further one at the last solve's midpoint, the elastic forces
  // linearised there. Returns the linear solves.
  long articulated_step(double dt, const Vec3& gravity) {
    const std::vector<int>& order = tree_.tree.bfs_order;
    const std::size_t d = tree_.domains.size();
    // The equations at θ of the step (θ = γ; ½: the midpoint): q_θ = q + θh q̇ + θ(h²/2) a.
    const double theta = settings_.newmark_gamma;
    const double c_q = theta * dt * dt / 2, c_v = theta * dt;
    pred_q_.resize(d);
    pred_v_.resize(d);
    lin_q_.resize(d);
    start_q_.resize(d);
    start_v_.resize(d);
    mid_v_.resize(d);
    for (std::size_t i = 0; i < d; ++i) {
      const DomainState& s = states_[i];
      start_q_[i] = s.q;
      start_v_[i] = s.qdot;
      pred_q_[i] = s.q + theta * dt * s.qdot;
      pred_v_[i] = s.qdot;
      lin_q_[i] = s.q;  // Newton from qₙ, as ReducedNewmark
    }
    const RigidBody start_body = body_;
    Mat3 solved_in = body_.R;  // the axes of the root frame the last solve was made in
    long solves = 0;
    for (int it = 0; it < settings_.articulated_solves; ++it) {
      if (it > 0) {
        // Frames and interfaces at the last solve's midpoint state.
        for (std::size_t i = 0; i < d; ++i) {
          DomainState& s = states_[i];
          if (!s.newmark) continue;
          s.q = lin_q_[i];
          s.qdot = mid_v_[i];
        }
        if (root_kind_ == RootKind::free_flying)
          body_ = between(start_body,
                          advance_root(start_body, solved_in,
                                       nodes_[static_cast<std::size_t>(tree_.tree.root)].A, dt),
                          theta);
        solved_in = body_.R;
        for (const int i : order) {
          place_frame(i);
          update_child_interfaces(i);
        }
      }
      articulated_solve(c_q, c_v, gravity);
      solves += static_cast<long>(d);
      for (std::size_t i = 0; i < d; ++i)
        if (nodes_[i].qddot.size()) {
          lin_q_[i] = pred_q_[i] + c_q * nodes_[i].qddot;
          mid_v_[i] = pred_v_[i] + c_v * nodes_[i].qddot;
        }
    }
    for (std::size_t i = 0; i < d; ++i) {
      DomainState& s = states_[i];
      if (!s.newmark) continue;
      const Eigen::VectorXd& a = nodes_[i].qddot;
      s.q = start_q_[i] + dt * start_v_[i] + 0.5 * dt * dt * a;
      s.qdot = start_v_[i] + dt * a;
      s.qddot = a;
      if (!s.q.allFinite() || !s.qdot.allFinite())
        throw DivergenceError(static_cast<int>(i), step_, "inertia: the state is not finite");
      s.newmark->set_state(s.q, s.qdot);
    }
    if (root_kind_ == RootKind::free_flying)
      body_ = advance_root(start_body, solved_in,
                           nodes_[static_cast<std::size_t>(tree_.tree.root)].A, dt);
    for (const int i : order) {
      place_frame(i);
      update_child_interfaces(i);
    }
    return solves;
  }

  // The free root's frame after a midpoint step h from `body` under the step's acceleration A
  // (frame axes R_A): p + h v + (h²/2) a, v + h a, ω + h α, exp(h ω_½) R with ω_½ = ω + (h/2) α.
  static RigidBody advance_root(const RigidBody& body, const Mat3& R_A, const Vec6& A, double h) {
    RigidBody next = body;
    const Vec3 a = R_A * A.head<3>(), alpha = R_A * A.tail<3>();
    next.p = body.p + h * body.v + 0.5 * h * h * a;
    next.v = body.v + h * a;
    next.omega = body.omega + h * alpha;
    next.R = rotation_exp(h * (body.omega + 0.5 * h * alpha)) * body.R;
    next.a = a;
    next.alpha = alpha;
    return next;
  }

  // The state at θ between two states of the free root (its rotation θ of the turn).
  static RigidBody between(const RigidBody& a, const RigidBody& b, double theta) {
    RigidBody m = b;
    m.p = (1 - theta) * a.p + theta * b.p;
    m.v = (1 - theta) * a.v + theta * b.v;
    m.omega = (1 - theta) * a.omega + theta * b.omega;
    const Eigen::AngleAxisd turn(b.R * a.R.transpose());
    m.R = Eigen::AngleAxisd(theta * turn.angle(), turn.axis()).toRotationMatrix() * a.R;
    return m;
  }

  // Each domain's lowest natural frequency under the scene's material (its reduced K at rest,
  // unit reduced mass; 0 for a rigid domain) and its procedural stiffness multiplier, with the
  // precompute report's line.
  struct ProceduralMaterials {
    std::vector<double> frequency, stiffness;
  };
  ProceduralMaterials procedural_materials(const PrecomputeContext& context) const {
    const std::size_t d = tree_.domains.size();
    ProceduralMaterials m;
    m.frequency.assign(d, 0.0);
    std::map<const ReducedForceModel*, double> known;  // instances share their model
    for (const InertiaDomain& dom : tree_.domains) {
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
    const StiffnessSettings settings{
        settings_.stiffness == StiffnessMode::aging, settings_.aging_exponent, level_stiffness_,
        settings_.stiffness_randomization, static_cast<std::uint64_t>(settings_.stiffness_seed)};
    m.stiffness = stiffness_multipliers(settings, m.frequency, tree_.tree.parent, tree_.tree.depth,
                                        tree_.tree.bfs_order);
    const double f0 = m.frequency[static_cast<std::size_t>(tree_.tree.root)];
    double tune = 1;
    if (settings_.root_frequency > 0) {
      if (!(f0 > 0))
        throw Error("inertia: root_frequency needs a deformable root domain (domain " +
                    std::to_string(tree_.tree.root) + " is rigid)");
      tune = (settings_.root_frequency / f0) * (settings_.root_frequency / f0);
      for (double& s : m.stiffness) s *= tune;
    }
    const bool procedural = settings.aging || !level_stiffness_.empty() ||
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
          f0 * std::sqrt(m.stiffness[static_cast<std::size_t>(tree_.tree.root)]), *lo, *hi, d);
      if (context.stats) {
        context.stats->report("root frequency [Hz]", f0);
        context.stats->report("stiffness min", *lo);
        context.stats->report("stiffness max", *hi);
      }
    }
    return m;
  }

  // §5.2: every domain's substep count for a step of dt (again when dt or the scales change),
  // and the buffers from each parent to its children.
  void plan_substeps(double dt) {
    if (dt == substeps_dt_) return;
    const std::size_t d = tree_.domains.size();
    std::vector<double> omega(d, 0.0);
    for (const InertiaDomain& dom : tree_.domains) {
      const auto i = static_cast<std::size_t>(dom.id);
      const DomainState& s = states_[i];
      // K' = α s K, M' = M/α (unit M): ω' = α √s ω.
      if (dom.r() > 0)
        omega[i] = 2 * M_PI * domain_frequency_[i] * s.alpha * std::sqrt(s.stiffness);
    }
    const std::vector<int> N = substep_exponents(omega, tree_.tree.parent, tree_.tree.bfs_order, dt,
                                                 settings_.timestep_quality, kMaxSubstepExponent);
    substeps_.assign(d, 1);
    std::map<int, int> histogram;  // substeps → domains
    for (std::size_t i = 0; i < d; ++i) {
      substeps_[i] = 1 << N[i];
      ++histogram[substeps_[i]];
    }
    inbox_.assign(d, {});
    for (const InertiaDomain& dom : tree_.domains)
      if (dom.parent >= 0) {
        const SubstepExchange x{substeps_[static_cast<std::size_t>(dom.parent)],
                                substeps_[static_cast<std::size_t>(dom.id)]};
        inbox_[static_cast<std::size_t>(dom.id)].resize(static_cast<std::size_t>(x.slots()));
      }
    std::string counts;
    for (const auto& [n, domains] : histogram) counts += fmt::format(" {}×{}", domains, n);
    log::info("inertia: procedural timestep (Q = {:g}, dt = {:g} s): domains × substeps:{}",
              settings_.timestep_quality, dt, counts);
    substeps_dt_ = dt;
  }

  // One step of domain i as 2^N substeps of dt/2^N, its frame from its parent's buffer, its
  // children's buffers filled as it goes; returns the linear solves.
  long step_substeps(int i, double dt, const Vec3& gravity) {
    const auto ii = static_cast<std::size_t>(i);
    const InertiaDomain& dom = tree_.domains[ii];
    DomainState& s = states_[ii];
    const int n = substeps_[ii];
    const double h = dt / n;
    long iterations = 0;
    for (int e = 0; e < n; ++e) {
      if (dom.parent < 0) {
        place_frame(i);
      } else {
        const SubstepExchange x{substeps_[static_cast<std::size_t>(dom.parent)], n};
        const ParentSlot& slot = inbox_[ii][static_cast<std::size_t>(x.read_slot(e))];
        place_child_frame(s, slot.p, slot.R, slot.motion, slot.itf);
      }
      assemble_forces(i, gravity);
      iterations += advance_dynamics(i, h);
      update_child_interfaces(i);
      for (std::size_t k = 0; k < dom.children.size(); ++k) {
        const auto j = static_cast<std::size_t>(dom.children[k]);
        const SubstepExchange x{n, substeps_[j]};
        if (const int w = x.write_slot(e); w >= 0)
          inbox_[j][static_cast<std::size_t>(w)] = {s.p, s.R, s.motion, s.child_itf[k]};
      }
    }
    return iterations;
  }

  // The linear solves of this step's domains.
  long solves(const std::vector<int>& domains) const {
    long sum = 0;
    for (const int i : domains) sum += states_[static_cast<std::size_t>(i)].solves;
    return sum;
  }

  // Where each depth level of a breadth-first order starts, and its end.
  std::vector<std::size_t> level_starts(const std::vector<int>& order) const {
    std::vector<std::size_t> start;
    for (std::size_t k = 0; k < order.size(); ++k)
      if (k == 0 || tree_.tree.depth[static_cast<std::size_t>(order[k])] !=
                        tree_.tree.depth[static_cast<std::size_t>(order[k - 1])])
        start.push_back(k);
    start.push_back(order.size());
    return start;
  }

  // The tree as ParallelTasks walks it: the bfs order cut into levels.
  void index_tree() {
    roots_ = {tree_.tree.root};
    level_start_ = level_starts(tree_.tree.bfs_order);
    subtree_size_ = subtree_sizes(tree_.tree.bfs_order, tree_.tree.children);
  }

  ParallelTasks::Tree tree_view() const {
    return {&tree_.tree.bfs_order, &level_start_, &tree_.tree.children, &roots_, &subtree_size_};
  }

  // The same without the rigid leaves (r = 0, no children: most of a plant's domains), which
  // need only their frames placed: their parent places them at the end of its own task, with
  // its interfaces still in cache, instead of one task each.
  void index_task_tree() {
    const std::size_t d = tree_.domains.size();
    rigid_leaves_.assign(d, {});
    task_children_.assign(d, {});
    task_order_.clear();
    for (const int i : tree_.tree.bfs_order) {
      const InertiaDomain& dom = tree_.domains[static_cast<std::size_t>(i)];
      const auto parent = static_cast<std::size_t>(dom.parent);
      if (dom.parent >= 0 && dom.r() == 0 && dom.children.empty()) {
        rigid_leaves_[parent].emplace_back(i, dom.child_index);
        continue;
      }
      task_order_.push_back(i);
      if (dom.parent >= 0) task_children_[parent].push_back(i);
    }
    task_level_start_ = level_starts(task_order_);
    task_subtree_size_ = subtree_sizes(task_order_, task_children_);
  }

  ParallelTasks::Tree task_tree_view() const {
    return {&task_order_, &task_level_start_, &task_children_, &roots_, &task_subtree_size_};
  }

  // f_ext + f_sys + Σ_j f_itf of domain i (Eq. 14–16), and its lumped mass I + Σ_j M_ij.
  void assemble_forces(int i, const Vec3& gravity) {
    const auto ii = static_cast<std::size_t>(i);
    const InertiaDomain& dom = tree_.domains[ii];
    DomainState& s = states_[ii];
    if (frozen_[ii] || dom.r() == 0) return;
    const Mat3 Rt = s.R.transpose();
    // f_sys (Eq. 14) and gravity's f_ext, the sandwich transform UᵀME (Rᵀ g), in one product:
    // f_sys's first term is −UᵀME a, so the frame acceleration a − Rᵀg gives both.
    FrameMotion loaded = s.motion;
    loaded.a -= Rt * gravity;
    dom.system_force(loaded, s.q, s.qdot, s.f);
    // Concentrated forces U_vᵀ Rᵀ F.
    for (const auto& [g, f] : concentrated_[ii])
      s.f.noalias() += dom.basis_rows(local(dom, g)).transpose() * (Rt * f);
    if (dom.children.empty()) return;
    // L1's M_ij = m̄ âᵀâ is constant: the mass I + Σ M_ij is formed again only when a subtree's
    // mass changes (fracture). L2's J_c changes with the state: every step.
    const bool form_mass = settings_.lumping == Lumping::center_of_mass || s.mass_changed;
    if (form_mass) s.mass = Eigen::MatrixXd::Identity(dom.r(), dom.r());
    s.children.reset(static_cast<int>(dom.children.size()), dom.r());
    over_children(i, [&](int first, int last) {
      for (auto k = static_cast<std::size_t>(first); k < static_cast<std::size_t>(last); ++k) {
        // The interfaces were made at the end of this domain's last step, and the rest of the
        // tree has stepped since: fetched two children ahead.
        if (k + 2 < static_cast<std::size_t>(last))
          prefetch_lines(&s.child_itf[k + 2], &s.child_itf[k + 2] + 1, false);
        const auto j = static_cast<std::size_t>(dom.children[k]);
        if (!attached_[j]) {
          s.children.skip(static_cast<int>(k));
          continue;
        }
        s.children.set(static_cast<int>(k), settings_.lumping,
                       dom.child_rows.columns(static_cast<int>(k)), s.child_itf[k], s.motion,
                       subtree(dom, k, Rt), s.qdot);
      }
    });
    s.children.add_to(form_mass ? &s.mass : nullptr, s.f);
    if (form_mass) s.newmark->set_mass(s.mass);
    s.mass_changed = false;
  }

  // One semi-implicit Newmark step of domain i's reduced coordinates; returns the linear solves.
  int advance_dynamics(int i, double dt) {
    const auto ii = static_cast<std::size_t>(i);
    DomainState& s = states_[ii];
    if (frozen_[ii] || tree_.domains[ii].r() == 0) return 0;
    const int iterations = s.newmark->step(dt, s.f);
    s.q = s.newmark->q();
    // The children's frames take the step's average acceleration (q̇₊ − q̇)/dt (= (q̈ + q̈₊)/2
    // for γ = ½), so a child's frame changes velocity exactly as its parent's interface does.
    // The end-of-step q̈₊ of the trapezoidal rule flips sign from step to step on modes too
    // stiff for dt and would drive the children with that noise, pumping energy into them.
    s.qddot = (s.newmark->velocity() - s.qdot) / dt;
    s.qdot = s.newmark->velocity();
    return iterations;
  }

  // The interfaces to domain i's children at its new state, and fracture.
  void update_child_interfaces(int i) {
    const auto ii = static_cast<std::size_t>(i);
    const InertiaDomain& dom = tree_.domains[ii];
    DomainState& s = states_[ii];
    if (frozen_[ii]) return;
    s.child_attached.resize(dom.children.size());
    for (std::size_t k = 0; k < dom.children.size(); ++k)
      s.child_attached[k] = attached_[static_cast<std::size_t>(dom.children[k])];
    for (std::size_t k = 0; k < dom.children.size(); ++k) {
      const int j = dom.children[k];
      if (!s.child_attached[k]) continue;
      if (settings_.fracture_threshold > 0 && dom.r() > 0) {
        // f_itf = −M_ij q̈ + f0_ij at the new state (Eq. 15).
        Eigen::MatrixXd Mij = Eigen::MatrixXd::Zero(dom.r(), dom.r());
        Eigen::VectorXd f0 = Eigen::VectorXd::Zero(dom.r());
        add_interface_force(settings_.lumping, dom.child_rows.columns(static_cast<int>(k)),
                            s.child_itf[k], s.motion, subtree(dom, k, s.R.transpose()), s.qdot,
                            &Mij, f0);
        const double norm2 = (f0 - Mij * s.qddot).squaredNorm();
        if (norm2 > settings_.fracture_threshold) detach(j, norm2);
      }
    }
    over_children(i, [&](int first, int last) {
      dom.child_rows.kinematics(s.q, s.qdot, s.qddot, free_alpha(), s.child_attached, s.child_itf,
                                first, last);
    });
  }

  // body(first, last) over runs of kChildRun of domain i's children, the same runs on any number
  // of threads (ChildFrameRows::kinematics takes a run's children four at a time); the root's
  // runs at once on the step's threads, since nothing else can run while it steps. (Below the
  // root, siblings keep the threads busy.)
  template <class Body>
  void over_children(int i, Body&& body) {
    const auto children =
        static_cast<int>(tree_.domains[static_cast<std::size_t>(i)].children.size());
    const auto run = [&](std::size_t c) {
      const int first = static_cast<int>(c) * kChildRun;
      body(first, std::min(children, first + kChildRun));
    };
    const auto runs = static_cast<std::size_t>((children + kChildRun - 1) / kChildRun);
    if (i == tree_.tree.root && runs > 1) {
      tasks_.for_each(runs, run);
    } else {
      for (std::size_t c = 0; c < runs; ++c) run(c);
    }
  }

  // Per domain from its system-force integrals (domain_energy.hpp), in the integrals' axes and
  // origin (an instance's are its representative's).
  Energies do_energies(const Vec3& gravity) const override {
    Energies e;
    Eigen::VectorXd work[4];
    for (const InertiaDomain& dom : tree_.domains) {
      const DomainState& s = states_[static_cast<std::size_t>(dom.id)];
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
    const Index n = scene_->mesh.num_vertices();
    Points first(n, 3);
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    double gap = 0;
    for (const InertiaDomain& dom : tree_.domains) {
      const DomainState& s = states_[static_cast<std::size_t>(dom.id)];
      for (std::size_t l = 0; l < dom.global_vertex.size(); ++l) {
        const Index g = dom.global_vertex[l];
        const Vec3 x = s.p + s.R * local_position(dom, s, static_cast<Index>(l));
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
    for (const InertiaDomain& dom : tree_.domains) total += dom.r();
    return total + (root_kind_ == RootKind::free_flying && !tree_.domains.empty() ? 6 : 0);
  }

  const ReducedGeometry& layout() const override { return geometry_; }

  // x = p + R (X̄ + U q), v = R (ν + ω × (X̄ + U q) + U q̇) per domain, shared vertices averaged.
  void poses(std::vector<DomainPose>& poses) const override {
    poses.resize(states_.size());
    for (std::size_t i = 0; i < states_.size(); ++i) {
      const DomainState& s = states_[i];
      poses[i].R = s.R;
      poses[i].p = s.p;
      poses[i].nu = s.motion.v;
      poses[i].omega = s.motion.omega;
      poses[i].q = s.q;
      poses[i].qdot = s.qdot;
    }
  }

 private:
  // Frequency matching (Zhao 2014, §4.6), leaves first: a subtree is matched with its children
  // matched already and everything outside it held at rest. The factors found are multiplied
  // into each domain's α; they come from the cache directory when it holds them.
  void match_frequencies(const PrecomputeContext& context, const std::vector<DomainModel>& models) {
    const Scene& scene = context.scene;
    std::vector<double> factor(tree_.domains.size(), 1.0);
    const std::uint64_t hash = frequency_matching_hash(context, models);
    const std::filesystem::path file =
        reduction_.cache && !context.cache_dir.empty()
            ? context.cache_dir / fmt::format("inertia-frequency-matching-{:016x}.ssfm", hash)
            : std::filesystem::path();
    if (!read_factors(file, hash, factor)) {
      for (DomainState& s : states_)
        if (s.newmark) s.newmark->set_frequency_scale(1);
      const std::unique_ptr<EigenSolver> solver = context.solvers.eigen();
      Progress progress("inertia: frequency matching", tree_.domains.size());
      std::vector<std::string> lines;
      // A leaf whose model is an instance of another leaf's (a moved, turned or uniformly scaled
      // copy, held at its interface alike) has that leaf's frequency ratio, so its factor.
      std::map<int, double> leaf_factor;  // by representative
      const auto instance_leaf = [&](int d) {
        const auto dd = static_cast<std::size_t>(d);
        return tree_.domains[dd].children.empty() && dd < models.size() &&
               tree_.tree.parent[dd] >= 0 && !has_fixed_vertices(d);
      };
      int reused = 0;
      for (auto it = tree_.tree.bfs_order.rbegin(); it != tree_.tree.bfs_order.rend(); ++it) {
        const int d = *it;
        progress.advance();
        if (tree_.domains[static_cast<std::size_t>(d)].r() == 0) continue;  // rigid: no α
        const int representative = models[static_cast<std::size_t>(d)].representative;
        if (instance_leaf(d) && instance_leaf(representative))
          if (auto known = leaf_factor.find(representative); known != leaf_factor.end()) {
            factor[static_cast<std::size_t>(d)] = known->second;
            states_[static_cast<std::size_t>(d)].newmark->set_frequency_scale(known->second);
            ++reused;
            continue;
          }
        const SubtreeMode mode = subtree_lowest_mode(scene, tree_.tree, d, *solver);
        const std::vector<int> members = subtree_domains(tree_.tree, d);
        auto& newmark = *states_[static_cast<std::size_t>(d)].newmark;
        const FrequencyMatch match = match_frequency(mode.frequency_hz, [&](double alpha) {
          newmark.set_frequency_scale(alpha);
          return reduced_subtree_frequency(members, mode);
        });
        // A match that misses by more than 5 % keeps α = 1: the reduced subtree's lowest
        // vibration does not follow this domain's α (it is another domain's), and forcing it
        // would distort this one.
        const bool usable = std::abs(match.matched_hz / mode.frequency_hz - 1) <= 0.05;
        const double alpha = usable ? match.alpha : 1.0;
        factor[static_cast<std::size_t>(d)] = alpha;
        newmark.set_frequency_scale(alpha);
        if (instance_leaf(d) && instance_leaf(representative)) leaf_factor[representative] = alpha;
        lines.push_back(fmt::format(
            "inertia: frequency matching: domain {} ({} domains in its subtree): FEM {:.4g} Hz, "
            "reduced {:.4g} Hz → α = {:.4g} gives {:.4g} Hz ({} runs){}",
            d, members.size(), mode.frequency_hz, match.initial_hz, match.alpha, match.matched_hz,
            match.evaluations,
            usable ? (match.converged ? "" : " (within 5 %)")
                   : ": more than 5 % off, this domain keeps α = 1"));
      }
      progress.finish();
      for (const std::string& line : lines) log::info("{}", line);
      if (reused > 0)
        log::info("inertia: frequency matching: {} instanced leaves took their representative's α",
                  reused);
      write_factors(file, hash, factor);
    } else {
      log::info("inertia: frequency matching: the factors of {} domains from {}", factor.size(),
                file.string());
    }
    double low = INFINITY, high = 0;
    for (const InertiaDomain& dom : tree_.domains) {
      DomainState& s = states_[static_cast<std::size_t>(dom.id)];
      if (!s.newmark) continue;
      const double f = factor[static_cast<std::size_t>(dom.id)];
      low = std::min(low, f);
      high = std::max(high, f);
      s.alpha *= f;
      s.newmark->set_frequency_scale(s.alpha);
    }
    log::info("inertia: frequency matching: α factors from {:.4g} to {:.4g}", low, high);
    if (context.stats) {
      context.stats->report("matched α min", low);
      context.stats->report("matched α max", high);
    }
  }

  // The lowest frequency of the reduced subtree `members` (its root first) released from the
  // unreduced subtree's mode at a small amplitude, everything else held at rest, no loads: the
  // dominant vibration of the motion's coordinate along that mode, s(t) = Σ_v φ_v · u_v(t) (the
  // mode's own shape filters out the other vibrations, e.g. a branch's under a swaying trunk),
  // over six periods of the FEM frequency.
  double reduced_subtree_frequency(const std::vector<int>& members, const SubtreeMode& mode) {
    const Scene& scene = *scene_;
    do_reset((1e-4 * scene.size()) * mode.displacement, {});
    std::vector<char> inside(tree_.domains.size(), 0);
    for (int i : members) inside[static_cast<std::size_t>(i)] = 1;
    for (std::size_t i = 0; i < states_.size(); ++i) frozen_[i] = inside[i] == 0 ? 1 : 0;
    // The vertices that move in the mode, each with a subtree domain holding it.
    std::vector<std::pair<Index, int>> probes;
    std::vector<char> seen(static_cast<std::size_t>(scene.mesh.num_vertices()), 0);
    for (int i : members)
      for (Index g : tree_.domains[static_cast<std::size_t>(i)].global_vertex)
        if (!seen[static_cast<std::size_t>(g)] &&
            mode.displacement.segment<3>(3 * g).squaredNorm() > 1e-6) {
          seen[static_cast<std::size_t>(g)] = 1;
          probes.emplace_back(g, i);
        }
    const auto coordinate = [&] {
      double s = 0;
      for (const auto& [g, i] : probes)
        s += mode.displacement.segment<3>(3 * g).dot(world_position(i, g) -
                                                     scene.mesh.vertices.row(g).transpose());
      return s;
    };
    const int steps = 240;
    const double dt = 1 / (40 * mode.frequency_hz);
    Eigen::VectorXd signal(steps + 1);
    signal[0] = coordinate();
    const ExternalForces none;
    StepStats stats;
    for (int k = 1; k <= steps; ++k) {
      do_step(dt, none, stats);
      signal[k] = coordinate();
    }
    return dominant_vibration(signal, dt).frequency_hz;
  }

  // Whether domain d holds any of the scene's fixed vertices.
  bool has_fixed_vertices(int d) const {
    const InertiaDomain& dom = tree_.domains[static_cast<std::size_t>(d)];
    for (Index v : scene_->fixed_vertices)
      if (std::binary_search(dom.global_vertex.begin(), dom.global_vertex.end(), v)) return true;
    return false;
  }

  // A hash of everything the matching factors depend on: their cache file's name and key.
  std::uint64_t frequency_matching_hash(const PrecomputeContext& context,
                                        const std::vector<DomainModel>& models) const {
    Fnv1a h;
    h.add_string("inertia frequency matching 2");
    for (const DomainModel& m : models) h.add_u64(m.inputs_hash);
    for (int p : tree_.tree.parent) h.add_i64(p);
    for (Index v : context.scene.fixed_vertices) h.add_i64(v);
    for (const InertiaDomain& dom : tree_.domains) h.add_i64(dom.r());
    h.add_i64(static_cast<int>(settings_.lumping));
    h.add_i64(static_cast<int>(root_kind_));
    h.add_i64(settings_.newton_iterations);
    h.add_f64(settings_.newmark_gamma);
    h.add_f64(settings_.planar_epsilon);
    h.add_f64(context.scene.rayleigh_mass);
    h.add_f64(context.scene.rayleigh_stiffness);
    // Procedural materials, when used (older cache files stay valid without them).
    const bool procedural_stiffness = std::any_of(
        states_.begin(), states_.end(), [](const DomainState& s) { return s.stiffness != 1; });
    if (procedural_stiffness)
      for (const DomainState& s : states_) h.add_f64(s.stiffness);
    if (settings_.damping == DampingMode::procedural)
      for (const DomainState& s : states_)
        if (s.newmark) {
          h.add_f64(s.newmark->settings().mass_damping);
          h.add_f64(s.newmark->settings().stiffness_damping);
        }
    return h.digest();
  }

  // The factors in the cache's checked record format (io/checked_record.hpp): a stale,
  // truncated or corrupt file is not trusted, and the factors are computed again.
  static constexpr const char* kMatchingMagic = "SSFMATCH";
  static constexpr std::uint32_t kMatchingVersion = 1;

  static bool read_factors(const std::filesystem::path& file, std::uint64_t hash,
                           std::vector<double>& factor) {
    if (file.empty() || !std::filesystem::exists(file)) return false;
    try {
      const std::string bytes = read_file_bytes(file, "frequency matching factors");
      RecordReader in(decode_checked_record(bytes, kMatchingMagic, "frequency matching record",
                                            kMatchingVersion, hash));
      std::vector<double> read(in.count(sizeof(double)));
      in.f64s(read.data(), read.size());
      if (read.size() != factor.size()) return false;
      for (double f : read)
        if (!(f > 0) || !std::isfinite(f)) return false;
      factor = read;
      return true;
    } catch (const Error& e) {
      log::warn("inertia: frequency matching: {} not used: {}", file.string(), e.what());
      return false;
    }
  }

  static void write_factors(const std::filesystem::path& file, std::uint64_t hash,
                            const std::vector<double>& factor) {
    if (file.empty()) return;
    try {
      RecordWriter out;
      out.u64(factor.size());
      out.f64s(factor.data(), factor.size());
      std::filesystem::create_directories(file.parent_path());
      write_file_atomically(
          file, encode_checked_record(kMatchingMagic, kMatchingVersion, hash, out.bytes()));
    } catch (const std::exception& e) {
      log::warn("inertia: frequency matching: cannot store the factors in {}: {}", file.string(),
                e.what());
    }
  }

  int max_depth() const {
    int depth = 0;
    for (int k : tree_.tree.depth) depth = std::max(depth, k);
    return depth;
  }

  static Index local(const InertiaDomain& dom, Index global) {
    const auto it = std::lower_bound(dom.global_vertex.begin(), dom.global_vertex.end(), global);
    return static_cast<Index>(it - dom.global_vertex.begin());
  }

  // x = X̄ + U q (frame coordinates) of local vertex l.
  static Vec3 local_position(const InertiaDomain& dom, const DomainState& s, Index l) {
    Vec3 x = dom.X.row(l).transpose();
    if (dom.r() > 0) x.noalias() += dom.basis_rows(l) * s.q;
    return x;
  }

  Vec3 world_position(int i, Index global) const {
    const InertiaDomain& dom = tree_.domains[static_cast<std::size_t>(i)];
    const DomainState& s = states_[static_cast<std::size_t>(i)];
    return s.p + s.R * local_position(dom, s, local(dom, global));
  }

  // Fetches domain i's frame (p, R, motion) for writing: a rigid leaf's state is written once a
  // step, by its parent, and a large tree's states do not stay in the cache.
  void prefetch_frame(int i) const {
    const DomainState& s = states_[static_cast<std::size_t>(i)];
    prefetch_lines(&s.p, &s.motion + 1, true);
  }

  // Whether domain i is the root of a subtree that broke off (it moves ballistically).
  bool detached_root(int i) const {
    const auto ii = static_cast<std::size_t>(i);
    return frozen_[ii] && !attached_[ii];
  }

  // The frame of domain i from its parent's state (or the root's / ballistic state).
  void place_frame(int i) {
    const InertiaDomain& dom = tree_.domains[static_cast<std::size_t>(i)];
    DomainState& s = states_[static_cast<std::size_t>(i)];
    if (detached_root(i) && s.ballistic_started) return;  // advance_ballistic moves it
    if (dom.parent < 0) {
      if (root_kind_ == RootKind::fixed) {
        s.p = Vec3::Zero();
        s.R = Mat3::Identity();
        s.motion = FrameMotion{};
      } else {
        const Mat3 Rt = body_.R.transpose();
        s.p = body_.p;
        s.R = body_.R;
        s.motion = FrameMotion{Rt * body_.v, Rt * body_.omega, Rt * body_.a, Rt * body_.alpha};
      }
      return;
    }
    const DomainState& ps = states_[static_cast<std::size_t>(dom.parent)];
    place_child_frame(s, ps.p, ps.R, ps.motion,
                      ps.child_itf[static_cast<std::size_t>(dom.child_index)]);
  }

  // A child's frame from its parent's pose, motion and the interface between them.
  static void place_child_frame(DomainState& s, const Vec3& p, const Mat3& R,
                                const FrameMotion& motion, const InterfaceKinematics& itf) {
    s.p.noalias() = R * itf.x;  // p_j = p_i + R_i x_ij
    s.p += p;
    s.R.noalias() = R * itf.R;  // R_j = R_i R_ij
    child_frame_motion(motion, itf, s.motion);
  }

  // The subtree rooted at the k-th child of dom, as dom sees it (Rt = R_iᵀ).
  Subtree subtree(const InertiaDomain& dom, std::size_t k, const Mat3& Rt) const {
    const auto j = static_cast<std::size_t>(dom.children[k]);
    Subtree t;
    t.mass = mbar_[j];
    t.force = Rt * fbar_[j];
    t.d = subtree_offset_[j];
    return t;
  }

  // Fracture (Zhao 2014, §4.4): subtree j leaves its parent. It becomes one rigid body on a
  // ballistic path: its deformation is frozen, its centre of mass keeps its velocity and falls
  // under gravity, and it keeps its angular velocity (world).
  // Called while the parent steps: the subtree has not started its step, so it is the caller's
  // alone; the ancestors, which other threads may be reading, are told after the step
  // (report_fractures).
  void detach(int j, double norm2) {
    const auto jj = static_cast<std::size_t>(j);
    attached_[jj] = 0;
    {
      const std::lock_guard lock(fractures_mutex_);
      fractures_.emplace_back(j, norm2);
    }
    std::vector<int> stack{j};
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      DomainState& s = states_[static_cast<std::size_t>(k)];
      frozen_[static_cast<std::size_t>(k)] = 1;
      s.qdot.setZero();
      s.qddot.setZero();
      for (int c : tree_.domains[static_cast<std::size_t>(k)].children) stack.push_back(c);
    }
  }

  // The step's fractures, in domain order: logged, and every ancestor's subtree mass has changed,
  // so their lumped masses are formed again at the next step.
  void report_fractures() {
    if (fractures_.empty()) return;
    std::sort(fractures_.begin(), fractures_.end());
    for (const auto& [j, norm2] : fractures_) {
      const InertiaDomain& dom = tree_.domains[static_cast<std::size_t>(j)];
      log::info("inertia: step {}: domain {} breaks off domain {} (‖f_itf‖² = {:.3g} > {:.3g})",
                step_, j, dom.parent, norm2, settings_.fracture_threshold);
      subtree_sums_valid_ = false;
      for (int a = dom.parent; a >= 0; a = tree_.domains[static_cast<std::size_t>(a)].parent)
        states_[static_cast<std::size_t>(a)].mass_changed = true;
    }
    fractures_.clear();
  }

  void advance_ballistic(int j, double dt, const Vec3& g) {
    DomainState& s = states_[static_cast<std::size_t>(j)];
    if (!s.ballistic_started) {
      // place_frame just put it where the parent's new state holds it: start from there.
      s.d = subtree_offset_[static_cast<std::size_t>(j)];
      s.c = s.p + s.R * s.d;
      s.omega_world = s.R * s.motion.omega;
      s.c_dot = s.R * s.motion.v + s.omega_world.cross(s.R * s.d);
      s.ballistic_started = true;
      return;
    }
    s.c_dot += dt * g;
    s.c += dt * s.c_dot;
    s.R = rotation_exp(dt * s.omega_world) * s.R;
    s.p = s.c - s.R * s.d;
    const Vec3 arm = s.p - s.c;
    const Mat3 Rt = s.R.transpose();
    s.motion = FrameMotion{Rt * (s.c_dot + s.omega_world.cross(arm)), Rt * s.omega_world,
                           Rt * (g + s.omega_world.cross(s.omega_world.cross(arm))), Vec3::Zero()};
  }

  // The bytes per domain by kind (domain_memory.hpp) as precompute figures, each domain's step
  // state counted as its vectors, matrices and integrator object.
  void report_memory(PrecomputeStats& stats) const {
    std::vector<std::size_t> state(states_.size());
    for (std::size_t i = 0; i < states_.size(); ++i) {
      const DomainState& s = states_[i];
      state[i] =
          sizeof(DomainState) + (s.newmark ? sizeof(ReducedNewmark) : 0) +
          sizeof(double) * static_cast<std::size_t>(s.q.size() + s.qdot.size() + s.qddot.size() +
                                                    s.mass.size() + s.f.size()) +
          s.child_itf.capacity() * sizeof(InterfaceKinematics) + s.child_attached.capacity();
    }
    const DomainMemory m = domain_memory(*scene_, tree_, geometry_, state);
    for (const auto& [name, kind] :
         {std::pair{"flexible", m.flexible}, std::pair{"instance", m.instance},
          std::pair{"rigid", m.rigid}}) {
      stats.report(fmt::format("memory: {} domains", name), kind.domains);
      stats.report(fmt::format("memory: bytes per {} domain", name), kind.per_domain());
    }
  }

  // The layout the framework's geometry kernel (and the geometry plugins) evaluate: per domain
  // its vertices, local rest shape X̄ and basis U (domain ids are the indices); instances that
  // share their representative's integrals share its X̄ and U too.
  static ReducedGeometry reduced_layout(const Scene& scene, const DomainTree& tree) {
    ReducedGeometry layout;
    layout.rest_positions = scene.mesh.vertices;
    layout.domains.resize(tree.domains.size());
    for (const InertiaDomain& dom : tree.domains) {
      DomainLayout& d = layout.domains[static_cast<std::size_t>(dom.id)];
      d.global_vertex = dom.global_vertex;
      if (dom.integrals_of >= 0) {  // a turned copy of its representative (checked there)
        d.instance_of = dom.integrals_of;
        d.rotation = dom.integral_rotation;
        d.offset = dom.integral_offset;
        continue;
      }
      d.rest = dom.X;
      d.U = dom.U();
    }
    layout.finalize();
    return layout;
  }

  ReductionSettings reduction_;
  InertiaSettings settings_;
  std::map<int, double> domain_scale_;   // [inertia] domain_frequency_scale
  std::vector<double> level_stiffness_;  // [inertia] level_stiffness

  const Scene* scene_ = nullptr;
  RootKind root_kind_ = RootKind::fixed;
  DomainTree tree_;
  std::vector<DomainState> states_;
  // By domain, side by side (a parent reads its children's every step; a DomainState is
  // hundreds of bytes): attached_ 0 for the root of a detached subtree (fracture), frozen_ 1 for
  // every domain of one (rigid, ballistic).
  std::vector<char> attached_, frozen_;
  std::vector<double> domain_mass_;  // m_i, by domain id
  ReducedGeometry geometry_;         // layout for positions() and the geometry plugins
  RigidBody body_;
  long step_ = 0;
  // Per-step workspace.
  std::vector<std::vector<std::pair<Index, Vec3>>> concentrated_;
  std::vector<std::size_t> loaded_;  // the domains with concentrated forces at the last step
  std::vector<double> mbar_;
  std::vector<Vec3> fbar_;
  std::vector<Vec3> subtree_offset_;  // d: the subtree's rest centre of mass − o_j (F_j axes)
  bool subtree_sums_valid_ = false;   // mbar_ and subtree_offset_ (until a fracture or reset)
  // Threads, and the tree as they walk it (index_tree()).
  ParallelTasks tasks_;
  std::vector<int> roots_;
  std::vector<int> subtree_size_;
  std::vector<std::size_t> level_start_;
  // The tree without its rigid leaves, and each domain's rigid leaves (index_task_tree()).
  std::vector<int> task_order_;
  std::vector<std::size_t> task_level_start_;
  std::vector<std::vector<int>> task_children_;
  std::vector<int> task_subtree_size_;
  std::vector<std::vector<std::pair<int, int>>> rigid_leaves_;  // (leaf, its index as a child)
  // Procedural timestep: each domain's lowest frequency (scene material), substeps per step for
  // substeps_dt_ (0: to be found), and per domain the buffer its parent fills (ParentSlot).
  struct ParentSlot {
    Vec3 p = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    FrameMotion motion;
    InterfaceKinematics itf;
  };
  std::vector<double> domain_frequency_;
  std::vector<int> substeps_;
  double substeps_dt_ = 0;
  std::vector<std::vector<ParentSlot>> inbox_;
  std::mutex fractures_mutex_;
  // The articulated coupling: per domain its share of the step's system, its Newmark predictors
  // q̃, ṽ, the point its forces are linearised at, its modal mass UᵀMU; the free root's frame
  // acceleration (a, α) in its axes.
  std::vector<ArticulatedNode> nodes_;
  std::vector<Eigen::VectorXd> pred_q_, pred_v_, lin_q_, start_q_, start_v_, mid_v_;
  std::vector<Eigen::MatrixXd> modal_mass_;

  std::vector<std::pair<int, double>> fractures_;  // this step's: (domain, ‖f_itf‖²)
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
