// SPDX-License-Identifier: GPL-3.0-or-later
#include "procedural_timestep.hpp"

#include <cmath>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::inertia {

int substep_exponent(double dt, double omega0, double quality) {
  const double T = 2 * M_PI / omega0;  // Eq. 5.6
  int N = 0;
  while (dt / std::ldexp(1.0, N) >= T / quality) ++N;  // Eq. 5.7: Δt / 2^N < T / Q
  return N;
}

std::vector<int> substep_exponents(const std::vector<double>& omega0,
                                   const std::vector<int>& parent, const std::vector<int>& order,
                                   double dt, double quality, int max_exponent) {
  const std::size_t d = omega0.size();
  std::vector<int> N(d, 0);
  // Subtrees without a deformable domain: N = 0 (leaves → root).
  std::vector<char> deformable_below(d, 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto i = static_cast<std::size_t>(*it);
    if (omega0[i] > 0) deformable_below[i] = 1;
    if (const int p = parent[i]; p >= 0 && deformable_below[i])
      deformable_below[static_cast<std::size_t>(p)] = 1;
  }
  for (int id : order) {
    const auto i = static_cast<std::size_t>(id);
    if (omega0[i] > 0) {
      // The largest N the cap allows is checked before the loop could run long.
      const double T = 2 * M_PI / omega0[i];
      if (dt / std::ldexp(1.0, max_exponent) >= T / quality)
        throw Error(fmt::format(
            "inertia: domain {} would need more than 2^{} substeps per step (lowest frequency "
            "{:.4g} Hz, period {:.3g} s, quality {:g}, dt {:g} s): lower timestep_quality or "
            "[run] dt, or soften the domain",
            id, max_exponent, omega0[i] / (2 * M_PI), T, quality, dt));
      N[i] = substep_exponent(dt, omega0[i], quality);
    } else if (deformable_below[i] && parent[i] >= 0) {
      N[i] = N[static_cast<std::size_t>(parent[i])];  // a rigid domain moves with its parent
    }
  }
  return N;
}

int SubstepExchange::write_slot(int e) const {
  const int n = slots();
  return ((e + 1) * n) % parent_substeps == 0 ? (e + 1) * n / parent_substeps - 1 : -1;
}

int SubstepExchange::read_slot(int s) const {
  const int n = slots();
  return ((s + 1) * n + child_substeps - 1) / child_substeps - 1;  // ⌈(s+1) n / n_c⌉ − 1
}

}  // namespace substruct::inertia
