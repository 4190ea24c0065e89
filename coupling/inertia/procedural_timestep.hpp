// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Procedural timesteps and their exchange (Zhao 2014, §5.2 and §5.4.1): every domain takes
// 2^N substeps per step, N from its lowest period and the quality Q; a parent passes its frame
// and interface kinematics to each child through a buffer of slots, one per substep of the
// coarser of the two, so that each reads the other's state on a common time grid.
#include <string>
#include <vector>

namespace substruct::inertia {

/// Eq. 5.6–5.7: the least N ≥ 0 with Δt / 2^N < T / Q, T = 2π / ω₀ the period of the domain's
/// lowest frequency ω₀ [rad/s] (> 0).
int substep_exponent(double dt, double omega0, double quality);

/// The exponents of a tree (`order`: root first, each domain after its parent). A rigid domain
/// (ω₀ ≤ 0) takes its parent's N (the root's: 0), and every domain of a subtree with no
/// deformable domain N = 0. Throws Error naming the domain when N would exceed `max_exponent`.
std::vector<int> substep_exponents(const std::vector<double>& omega0,
                                   const std::vector<int>& parent, const std::vector<int>& order,
                                   double dt, double quality, int max_exponent);

/// The buffer between a parent taking n_p substeps and a child taking n_c (powers of 2): one
/// slot per substep of the coarser. The parent writes its state at the end of its substep e into
/// write_slot(e) when that is ≥ 0; the child's substep s reads read_slot(s), the state at the end
/// of the parent's substep that contains the end of s (held for ℓ = n_c / slots substeps: Eq.
/// 5.15's update interval seen from the child).
struct SubstepExchange {
  int parent_substeps = 1, child_substeps = 1;
  int slots() const { return parent_substeps < child_substeps ? parent_substeps : child_substeps; }
  int write_slot(int e) const;
  int read_slot(int s) const;
};

}  // namespace substruct::inertia
