// SPDX-License-Identifier: GPL-3.0-or-later
#include "procedural_materials.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace substruct::inertia {

std::vector<double> domain_ages(const std::vector<double>& nu, const std::vector<int>& parent,
                                const std::vector<int>& order) {
  const std::size_t d = nu.size();
  std::vector<double> age(d, 0.0);
  if (order.empty()) return age;
  const double nu_root = nu[static_cast<std::size_t>(order.front())];
  // Eq. 5.4: a = c₂/ν, c₂ = ν_root; a rigid domain (no frequency) only inherits.
  for (std::size_t i = 0; i < d; ++i) age[i] = nu[i] > 0 && nu_root > 0 ? nu_root / nu[i] : 0.0;
  // Eq. 5.5, leaves → root: no domain younger than a descendant.
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto i = static_cast<std::size_t>(*it);
    if (age[i] == 0) age[i] = 1;  // a rigid subtree
    if (const int p = parent[i]; p >= 0)
      age[static_cast<std::size_t>(p)] = std::max(age[static_cast<std::size_t>(p)], age[i]);
  }
  return age;
}

std::vector<double> stiffness_multipliers(const StiffnessSettings& settings,
                                          const std::vector<double>& nu,
                                          const std::vector<int>& parent,
                                          const std::vector<int>& depth,
                                          const std::vector<int>& order) {
  const std::size_t d = nu.size();
  std::vector<double> s(d, 1.0);
  const std::vector<double> age =
      settings.aging ? domain_ages(nu, parent, order) : std::vector<double>(d, 1.0);
  std::mt19937_64 random(settings.seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const double r = settings.randomization;
  for (std::size_t i = 0; i < d; ++i) {
    const std::vector<double>& c = settings.level_stiffness;
    const double c1 =
        c.empty() ? 1.0 : c[std::min(static_cast<std::size_t>(depth[i]), c.size() - 1)];
    s[i] = c1 * (settings.aging ? std::pow(age[i], settings.exponent) : 1.0);  // Eq. 5.1
    if (r > 0) {
      // §7.2.2: the frequency × a factor uniform on [1/(1 + r), 1 + r]; stiffness ∝ frequency².
      const double lo = 1 / (1 + r), hi = 1 + r;
      const double factor = lo + (hi - lo) * uniform(random);
      s[i] *= factor * factor;
    }
  }
  return s;
}

double damping_ratio(const DampingSettings& settings, double nu) {
  if (nu <= settings.nu_low) return settings.xi_low;
  if (nu >= settings.nu_high) return settings.xi_high;
  return settings.xi_low + (settings.xi_high - settings.xi_low) * (nu - settings.nu_low) /
                               (settings.nu_high - settings.nu_low);  // Eq. 5.10
}

Rayleigh procedural_rayleigh(double xi, double omega, double gamma) {
  Rayleigh c;
  c.mass = 4 * xi * omega / 3 * (2 - 1 / gamma);         // Eq. 5.12
  c.stiffness = 2 * xi / (3 * omega) * (2 / gamma - 1);  // Eq. 5.13
  return c;
}

}  // namespace substruct::inertia
