// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The [inertia] section: every choice of the inertia coupling, declared once, and the checks
// between its keys.
#include <map>
#include <vector>

#include "interface_forces.hpp"
#include "substruct/core/parallel_tasks.hpp"
#include "substruct/core/types.hpp"
#include "substruct/options/options.hpp"

namespace substruct {
class Config;
}

namespace substruct::inertia {

/// What [inertia] root asks for (RootKind is what it resolves to on a scene).
enum class RootOption { automatic, fixed, free_flying };
/// Whether each domain's α is matched to its unreduced subtree's lowest frequency (§4.6).
enum class FrequencyMatching { off, automatic };
/// Each domain's Young's modulus: the scene's, or aged (Zhao 2014, §5.1).
enum class StiffnessMode { absolute, aging };
/// Rayleigh damping: the scene's, or procedural (§5.3).
enum class DampingMode { scene, procedural };
/// One step of [run] dt per domain, or 2^N substeps each (§5.2).
enum class TimestepMode { global, procedural };

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

const OptionSet<InertiaSettings>& inertia_options();

/// The section read and checked: the combinations a run cannot make (procedural timesteps with
/// fracture or stage timing; the articulated coupling with anything that needs a lumped subtree
/// inertia; damping_frequency_high ≤ damping_frequency_low) throw the key's value error.
InertiaSettings read_inertia_settings(const Config& config);

/// β = (γ + ½)²/4: Newmark's β for a given γ ≥ ½ that keeps the scheme unconditionally stable
/// and damps the highest modes most (γ = ½: β = ¼, the trapezoidal rule).
inline double newmark_beta(double gamma) {
  return (gamma + 0.5) * (gamma + 0.5) / 4;
}

}  // namespace substruct::inertia
