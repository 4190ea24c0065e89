// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/sim/initial_state.hpp"
#include "substruct/core/parse_number.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/reduction/domain_boundary.hpp"
#include "substruct/reduction/linear_modes.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct {

namespace {

constexpr int kRigidModes = 6;

// The degrees of freedom that can vibrate: 3 per free vertex, less the rigid-body modes of a
// free-flying mesh.
Index vibrating_dofs(const Scene& scene) {
  const Index free =
      3 * (scene.mesh.num_vertices() - static_cast<Index>(scene.fixed_vertices.size()));
  return scene.fixed_vertices.empty() ? free - kRigidModes : free;
}

}  // namespace

std::optional<ModeSpec> parse_mode_spec(const std::string& key, const std::string& text) {
  std::istringstream in(text);
  std::string word;
  if (!(in >> word)) return std::nullopt;
  const auto malformed = [&](const std::string& why) {
    return Error(
        fmt::format("[run] {}: expected \"mode K AMPLITUDE\" (K ≥ 1: the K-th lowest "
                    "vibration mode; AMPLITUDE ≥ 0: its largest vertex value), found "
                    "'{}' ({})",
                    key.substr(key.find('.') + 1), text, why));
  };
  if (word != "mode") throw malformed(fmt::format("'{}' is not 'mode'", word));
  std::string k_text;
  std::string amplitude_text;
  std::string extra;
  if (!(in >> k_text >> amplitude_text)) throw malformed("K or AMPLITUDE is missing");
  if (in >> extra) throw malformed(fmt::format("unexpected '{}' after AMPLITUDE", extra));

  ModeSpec spec;
  const std::optional<long> parsed_k = parse_integer(k_text);
  if (!parsed_k) throw malformed(fmt::format("K = '{}' is not an integer", k_text));
  const long k = *parsed_k;
  if (k < 1) throw malformed(fmt::format("K = {} but modes are numbered from 1", k));
  if (k > 1'000'000'000L) throw malformed(fmt::format("K = {} is too large", k));
  spec.mode = static_cast<int>(k);

  const std::optional<double> amplitude = parse_number(amplitude_text);
  if (!amplitude) throw malformed(fmt::format("AMPLITUDE = '{}' is not a number", amplitude_text));
  spec.amplitude = *amplitude;
  if (!std::isfinite(spec.amplitude) || spec.amplitude < 0)
    throw malformed(fmt::format("AMPLITUDE = {} must be finite and ≥ 0", amplitude_text));
  return spec;
}

Eigen::MatrixXd scene_modes(const Scene& scene, int count, EigenSolver& solver) {
  const Index available = vibrating_dofs(scene);
  if (count < 0 || count > available)
    throw Error(fmt::format(
        "cannot compute {} vibration modes of scene '{}': its mesh has {} vertices, {} of them "
        "fixed, so modes 1…{} exist",
        count, scene.name, scene.mesh.num_vertices(), scene.fixed_vertices.size(),
        std::max<Index>(available, 0)));
  DomainBoundary boundary;
  boundary.fixed_vertices = scene.fixed_vertices;
  boundary.remove_rigid_modes = scene.fixed_vertices.empty();
  if (boundary.remove_rigid_modes) {
    // Free-flying: the mesh form projects the modes out of the exact rigid-body modes of the
    // rest shape. Its K is linear elasticity, the stiffness at rest of every material model.
    return linear_modes(scene.mesh, boundary, count, solver).vectors;
  }
  // K φ = λ M φ: K = ∂f_int/∂u at u = 0 of the scene's model, M consistent.
  const ElasticForceModel model(scene.mesh, scene.material_model);
  const SparseMatrix K = model.stiffness(Eigen::VectorXd::Zero(model.num_dofs()));
  return linear_modes(K, consistent_mass(scene.mesh), boundary, count, solver).vectors;
}

Eigen::VectorXd scale_to_amplitude(const Eigen::VectorXd& shape, double amplitude) {
  double largest = 0;  // max_v ‖shape_v‖
  for (Eigen::Index v = 0; v + 2 < shape.size(); v += 3)
    largest = std::max(largest, shape.segment<3>(v).norm());
  if (!(largest > 0)) throw Error("cannot scale a zero mode shape to an amplitude");
  return shape * (amplitude / largest);
}

namespace {

constexpr const char* kKeys[2] = {"run.initial_displacement", "run.initial_velocity"};

// The specs of kKeys, checked against the scene.
std::array<std::optional<ModeSpec>, 2> read_specs(const Config& config, const Scene& scene) {
  std::array<std::optional<ModeSpec>, 2> specs;
  const Index available = vibrating_dofs(scene);
  const RunSettings run = run_options().read(config);
  const std::array<std::string, 2> texts = {run.initial_displacement, run.initial_velocity};
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string& text = texts[i];
    specs[i] = parse_mode_spec(kKeys[i], text);
    if (specs[i] && specs[i]->mode > available)
      throw config.value_error(
          kKeys[i], fmt::format("scene '{}' has only {} vibration modes ({} vertices, {} of them "
                                "fixed{})",
                                scene.name, std::max<Index>(available, 0),
                                scene.mesh.num_vertices(), scene.fixed_vertices.size(),
                                scene.fixed_vertices.empty() ? ", less 6 rigid-body modes" : ""));
  }
  return specs;
}

}  // namespace

void check_initial_state(const Config& config, const Scene& scene) {
  read_specs(config, scene);
}

InitialState initial_state(const Config& config, const Scene& scene,
                           const SolverProvider& solvers) {
  const std::array<std::optional<ModeSpec>, 2> specs = read_specs(config, scene);
  int count = 0;
  for (const auto& spec : specs)
    if (spec) count = std::max(count, spec->mode);
  InitialState state;
  if (count == 0) return state;
  const auto solver = solvers.eigen();
  const Eigen::MatrixXd modes = scene_modes(scene, count, *solver);
  if (specs[0])
    state.displacement = scale_to_amplitude(modes.col(specs[0]->mode - 1), specs[0]->amplitude);
  if (specs[1])
    state.velocity = scale_to_amplitude(modes.col(specs[1]->mode - 1), specs[1]->amplitude);
  return state;
}

}  // namespace substruct
