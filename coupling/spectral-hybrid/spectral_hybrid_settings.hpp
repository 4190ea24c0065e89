// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The [spectral-hybrid] section: every choice of the hybrid spectral method, declared once.
#include <string>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/options/options.hpp"

namespace substruct {
class Config;
}

namespace substruct::spectral_hybrid {

/// Which equality holds at a constrained boundary node.
enum class BoundaryConstraint {
  displacement_and_rotation,  // Eq. 11: Φ_d q_d = Φ_r q_r and Ψ_d q_d = Ψ_r q_r (6 rows)
  warped_position,  // Eq. 10: R̃_d Φ_d q_d = R̃_r Φ_r q_r (3 rows, R̃ of the last step)
};

/// How the constraint equation enters the acceleration system (Eq. 16).
enum class Stabilisation {
  exact,  // J q^{n+1} = c^{n+1}: the constraints hold at the end of every step
  damped,  // the paper's damped second-order form: J q̈ = −2 p₁ Ċ − p₂² C at the step's start
};

/// Which user rows a target vertex gets (the "user manipulation" rows of Eq. 14–15).
enum class TargetKind { position, orientation, both };

struct SpectralHybridSettings {
  std::vector<Index> rigid_domains;
  int modes = 50;
  bool warping = true;
  std::string boundary_nodes_text = "2";  // as written: a count or "all"
  int boundary_nodes = 2;                 // per boundary, from the text; −1: all of them
  BoundaryConstraint constraint = BoundaryConstraint::displacement_and_rotation;
  Stabilisation stabilisation = Stabilisation::exact;
  double p1 = 20;  // damped: 1/s
  double p2 = 20;  // damped: 1/s
  double dependent_tolerance = 1e-4;

  std::vector<Index> target_vertices;
  TargetKind target_kind = TargetKind::both;
  Vec3 target_offset = Vec3::Zero();
  Vec3 target_rotation = Vec3::Zero();
  double target_ramp = 0.5;

  bool cache = true;
};

const OptionSet<SpectralHybridSettings>& spectral_hybrid_options();

/// The section read and checked (boundary_nodes: a count ≥ 1 or "all").
SpectralHybridSettings read_spectral_hybrid_settings(const Config& config);

}  // namespace substruct::spectral_hybrid
