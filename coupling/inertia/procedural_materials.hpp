// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Procedural materials of a plant (Zhao 2014, ch. 5): each domain's stiffness from its age and
// depth (§5.1), and its Rayleigh damping from its lowest natural frequency (§5.3). Small free
// functions on plain per-domain data, in the thesis's symbols.
#include <cstdint>
#include <vector>

namespace substruct::inertia {

/// How the domains' Young's moduli are set (§5.1, §7.2.2).
struct StiffnessSettings {
  bool aging = false;                   // aging mode; false: absolute mode (constant stiffness)
  double exponent = 2;                  // D of Eq. 5.1 (0: the same as absolute mode)
  std::vector<double> level_stiffness;  // c₁ per depth level (E × c₁); the last one repeats
  double randomization = 0;  // frequencies × U[1/(1 + r), 1 + r] (stiffness × its square)
  std::uint64_t seed = 1;
};

/// Eq. 5.4–5.5: a_i = max(ν_root / ν_i, a of i's oldest descendant), ages relative to the root's
/// own (a = c₂/ν with c₂ = ν_root). `nu` is each domain's lowest natural frequency under the
/// uniform default material (≤ 0 for a rigid domain: its age is its oldest descendant's, or 1);
/// `order` lists the domains root first, each after its parent.
std::vector<double> domain_ages(const std::vector<double>& nu, const std::vector<int>& parent,
                                const std::vector<int>& order);

/// Each domain's stiffness multiplier s_i (E_i = s_i E): Eq. 5.1, c₁(depth) a_i^D in the aging
/// mode, c₁(depth) in absolute mode, times the random factor's square when randomized (drawn in
/// domain order from `seed`, so the same settings give the same tree).
std::vector<double> stiffness_multipliers(const StiffnessSettings& settings,
                                          const std::vector<double>& nu,
                                          const std::vector<int>& parent,
                                          const std::vector<int>& depth,
                                          const std::vector<int>& order);

/// §5.3, the damping ratio ξ(ν) of a domain whose lowest frequency is ν [Hz] (Eq. 5.10):
/// ξ_low up to ν_low, ξ_high from ν_high, linear in between.
struct DampingSettings {
  double xi_low = 0.02, xi_high = 0.1;  // ξ
  double nu_low = 1, nu_high = 10;      // [Hz]
  double liveliness = 0;                // γ_user ∈ [0, 1]: γ = 0.5 + 0.3 γ_user
};
double damping_ratio(const DampingSettings& settings, double nu);

/// Eq. 5.12–5.13: the Rayleigh coefficients (D = α M + β K) that give the ratio ξ at ω and ξ/γ at
/// 2ω (Eq. 5.8, 5.11): α = 4ξω/3 (2 − 1/γ), β = 2ξ/(3ω) (2/γ − 1), γ ∈ [0.5, 0.8].
struct Rayleigh {
  double mass = 0, stiffness = 0;  // α [1/s], β [s]
};
Rayleigh procedural_rayleigh(double xi, double omega, double gamma);

}  // namespace substruct::inertia
