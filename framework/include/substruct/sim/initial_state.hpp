// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The state a run starts from: [run] initial_displacement and [run] initial_velocity.
///
/// Each key is "" (rest: zero) or "mode K AMPLITUDE": the K-th lowest (1-based) vibration mode
/// φ_K of the whole mesh, K φ = λ M φ with the scene's fixed vertices held (K the stiffness at
/// rest of the scene's material model, M the consistent mass), scaled so that its largest vertex
/// value max_v ‖φ_v‖ is AMPLITUDE (m for a displacement, m/s for a velocity). A scene without
/// fixed vertices is free-flying: its 6 rigid-body modes are skipped, mode 1 is the lowest
/// elastic one. Released with such a velocity from rest, the object vibrates in that mode.
#include <optional>
#include <string>

#include "substruct/core/types.hpp"

namespace substruct {

class Config;
class EigenSolver;
class SolverProvider;
struct Scene;

/// A parsed "mode K AMPLITUDE".
struct ModeSpec {
  int mode = 1;          // K, 1-based
  double amplitude = 0;  // largest vertex value, ≥ 0
};

/// Parses the value of `key` ("run.initial_velocity" …): "" or blanks give nullopt. Throws Error
/// naming the key for anything else than "mode K AMPLITUDE" with an integer K ≥ 1 and a finite
/// AMPLITUDE ≥ 0.
std::optional<ModeSpec> parse_mode_spec(const std::string& key, const std::string& text);

/// Full-space displacement u₀ and velocity v₀ (3N each, global vertex numbering); an empty
/// vector is zero.
struct InitialState {
  Eigen::VectorXd displacement;
  Eigen::VectorXd velocity;
  bool at_rest() const { return displacement.size() == 0 && velocity.size() == 0; }
};

/// The `count` lowest vibration modes of the scene's whole mesh (3N × count, fixed vertices
/// zero, M-orthonormal, each vector's largest-magnitude entry positive). Throws Error when count
/// exceeds the free degrees of freedom.
Eigen::MatrixXd scene_modes(const Scene& scene, int count, EigenSolver& solver);

/// `shape` scaled so that max_v ‖shape_v‖ = amplitude. Throws Error for a zero shape.
Eigen::VectorXd scale_to_amplitude(const Eigen::VectorXd& shape, double amplitude);

/// Checks [run] initial_displacement / initial_velocity against `scene` without solving: throws
/// Error naming the key for a malformed value or a mode the mesh does not have.
void check_initial_state(const Config& config, const Scene& scene);

/// The state [run] initial_displacement / initial_velocity describe; one eigen solve (by the
/// [solvers] eigen plugin) for both keys, none when both are "". Throws Error naming the key
/// for a malformed value or a mode the mesh does not have.
InitialState initial_state(const Config& config, const Scene& scene, const SolverProvider& solvers);

}  // namespace substruct
