// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The main loop shared by `substruct run`, the benchmark runner and the viewer:
/// loads(t) → coupling.step(dt) → geometry → divergence check → exporters.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/contact/contact_service.hpp"
#include "substruct/core/parallel_tasks.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/geometry/render_surface.hpp"
#include "substruct/io/exporter.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/sim/initial_state.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct {

class PluginHost;

/// What a run did, for the summary line and the benchmark runner.
struct RunSummary {
  std::string scene;
  std::string method;
  Index vertices = 0;
  Index elements = 0;
  int domains = 0;
  Index dofs = 0;
  long steps = 0;
  double dt = 0;
  double precompute_seconds = 0;
  PrecomputeStats precompute;        // its stages and where the models came from
  std::vector<double> step_seconds;  // wall time of each step (method only, no output)
  StepStats stages;                  // summed over all steps
  Energies final_energies;
  bool contact = false;        // the scene has [contact] obstacles
  ContactStats contact_stats;  // what the contact stage did (steps only)
  double contact_tolerance = 0;
  std::vector<std::filesystem::path> outputs;

  double median_step_seconds() const;
};

class Simulation {
 public:
  /// Loads the scene and creates the coupling method, loads and exporters the config selects.
  Simulation(const Config& config, const PluginHost& host);
  ~Simulation();

  const Scene& scene() const { return scene_; }
  CouplingMethod& method() { return *method_; }
  const Config& config() const { return config_; }
  /// The [run] section of the config.
  const RunSettings& run_settings() const { return run_; }

  /// Offline work of the method (once: later calls do nothing and return 0); returns its wall
  /// time [s].
  double precompute();
  /// The stages of the last precompute() and where its models came from.
  const PrecomputeStats& precompute_stats() const { return precompute_stats_; }
  /// Back to t = 0 in the given full-space displacement u0 and velocity v0 (3N each). With both
  /// empty (the default), the state of [run] initial_displacement / initial_velocity (rest when
  /// those are empty; sim/initial_state.hpp), computed at the first such reset. forces() is then
  /// the loads at t = 0.
  void reset(const Eigen::VectorXd& u0 = {}, const Eigen::VectorXd& v0 = {});
  /// The state of [run] initial_displacement / initial_velocity (computed at the first call).
  const InitialState& initial_state();
  /// One step of `dt` ([run] dt): evaluates the loads and the contacts (the stage "contact"),
  /// steps the method, checks for divergence, with subnormal numbers flushed to zero
  /// (core/flush_subnormals.hpp). Returns the method's
  /// wall time for the step [s]; the world positions' update after it (u = U q, through the
  /// geometry plugin for reduced methods) is added to `stats` as the stage "geometry".
  double step(StepStats& stats);

  /// The static equilibrium under the loads at `time` (evaluated once, at rest: dead loads),
  /// solved by the method (CouplingMethod::solve_static) from rest; precomputes first when
  /// needed. positions() is then the equilibrium and velocities() zero. Throws Error when the
  /// method defines no static solve or finds no equilibrium.
  StaticReport solve_static(double time);
  double time() const { return time_; }
  long step_index() const { return step_; }
  /// World positions and velocities of the volumetric vertices after the last reset()/step():
  /// through the [solvers] geometry plugin when the method exposes a reduced layout, else the
  /// method's positions()/velocities().
  const Points& positions() const { return positions_; }
  const Points& velocities() const { return velocities_; }
  const ExternalForces& forces() const { return forces_; }
  /// The [contact] stage (contact/contact_service.hpp); null when the scene has no obstacles.
  const ContactService* contact() const { return contact_.get(); }

  /// Loads beyond [run] loads (e.g. a viewer's wind or mouse spring), evaluated after them in
  /// the order added. `name` identifies it for set_load_enabled(); [run] loads are named after
  /// their plugin.
  void add_load(const std::string& name, std::unique_ptr<Load> load, bool enabled = true);
  /// Switches the loads called `name` on or off; false if there is none.
  bool set_load_enabled(const std::string& name, bool enabled);
  bool has_load(const std::string& name) const;
  bool load_enabled(const std::string& name) const;

  /// The render surface (the scene's render mesh embedded in the tets, or the tet boundary),
  /// built at the first call.
  const RenderSurface& render_surface();
  /// Its world positions and smooth normals for the current state, through the geometry plugin.
  void render_state(Points& positions, Points& normals);
  /// The [solvers] geometry plugin (created at the first call).
  GeometrySolver& geometry();

  /// precompute(), reset(), then [run] steps steps with output and progress; exporters are
  /// finished on success and aborted (nothing left that looks complete) on any error.
  RunSummary run();

 private:
  void refresh_state();
  void evaluate_loads();
  void check_divergence() const;
  /// Refuses, before anything is computed, output targets no writer may replace
  /// (io/output_target.hpp): [run] output, the manifest beside it, every exporter's files.
  void check_output_targets() const;

  struct LoadSlot {
    std::string name;
    std::unique_ptr<Load> load;
    bool enabled = true;
  };

  Config config_;
  RunSettings run_;
  Scene scene_;
  SolverProvider solvers_;
  std::unique_ptr<CouplingMethod> method_;
  std::vector<LoadSlot> loads_;
  std::unique_ptr<ContactService> contact_;  // null: no obstacles
  std::vector<std::unique_ptr<Exporter>> exporters_;
  std::string method_name_;
  double dt_ = 0;
  double divergence_limit_ = 0;  // [run] max_displacement × the scene's size [m]
  ParallelTasks tasks_;          // [run] threads, for the divergence check
  double time_ = 0;
  long step_ = 0;
  bool precomputed_ = false;
  PrecomputeStats precompute_stats_;
  std::optional<InitialState> initial_state_;
  Points positions_;
  Points velocities_;
  ExternalForces forces_;
  std::unique_ptr<GeometrySolver> geometry_;
  bool layout_sent_ = false;  // the method's layout was given to geometry_ since precompute
  std::vector<DomainPose> poses_;
  std::optional<RenderSurface> surface_;
  bool surface_sent_ = false;
};

/// The [run] section, with its memory_limit applied to the process (core/memory_budget.hpp):
/// call it before loading anything large. Throws Error for a memory_limit that is not a size.
RunSettings read_run_settings(const Config& config);

/// [run] output resolved: relative to the working directory; default `out/<scene>.pvd`.
std::filesystem::path output_path(const Config& config, const Scene& scene);

/// [run] cache_dir resolved: relative to the scene file; default .substruct-cache beside it, or,
/// when the scene's folder is read-only (an installed scene), $XDG_CACHE_HOME/substruct/models
/// (~/.cache/substruct/models).
std::filesystem::path cache_dir(const Config& config, const Scene& scene);

}  // namespace substruct
