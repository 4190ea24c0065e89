// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The energies of a simulated state, as every method reports them.

namespace substruct {

/// Energies of the current state [J]. gravity = potential of gravity (−Σ m g·x).
struct Energies {
  double kinetic = 0;
  double elastic = 0;
  double gravity = 0;
  double total() const { return kinetic + elastic + gravity; }
};

}  // namespace substruct
