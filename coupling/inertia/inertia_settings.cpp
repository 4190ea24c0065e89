// SPDX-License-Identifier: GPL-3.0-or-later
#include "inertia_settings.hpp"

#include <fmt/format.h>

#include "substruct/config/config.hpp"

namespace substruct::inertia {

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

InertiaSettings read_inertia_settings(const Config& config) {
  InertiaSettings settings = inertia_options().read(config);
  if (settings.timestep == TimestepMode::procedural && settings.fracture_threshold > 0)
    throw config.value_error("inertia.timestep",
                             "procedural timesteps do not support fracture (fracture_threshold "
                             "> 0) yet: use timestep = global");
  if (settings.timestep == TimestepMode::procedural && settings.stage_timing)
    throw config.value_error("inertia.stage_timing", "times stages with timestep = global only");
  if (settings.lumping == Lumping::articulated) {
    // The articulated inertia is the subtree's true one: a frequency scale (M/α) or a
    // detached subtree would make the coupled equations inconsistent.
    const char* needs = nullptr;
    if (settings.timestep == TimestepMode::procedural)
      needs = "inertia.timestep = procedural";
    else if (settings.fracture_threshold > 0)
      needs = "inertia.fracture_threshold";
    else if (settings.frequency_matching != FrequencyMatching::off)
      needs = "inertia.frequency_matching";
    else if (settings.frequency_scale != 1 || settings.level_frequency_scale != 1 ||
             !settings.domain_frequency_scale.empty())
      needs = "inertia frequency scales";
    else if (settings.stage_timing)
      needs = "inertia.stage_timing";
    if (needs)
      throw config.value_error(
          "inertia.lumping",
          fmt::format("{} needs a lumped subtree inertia: set inertia.lumping = "
                      "center-of-mass or interface (the articulated coupling steps all domains "
                      "together with their true inertia)",
                      needs));
  }
  if (settings.damping_frequency_high <= settings.damping_frequency_low)
    throw config.value_error("inertia.damping_frequency_high",
                             "must be above damping_frequency_low");
  return settings;
}

}  // namespace substruct::inertia
