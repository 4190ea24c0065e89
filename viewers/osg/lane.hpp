// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One coupling method's simulation in the viewer: its substruct::Simulation (the code path of
// `run`) with the loads the viewer toggles and its mouse spring, its time per step, the tracked
// vertices after every step of the last advance, the render surface's state, and the history the
// HUD plots. Several lanes step in lockstep when methods are compared (session.hpp).
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "drag_spring.hpp"
#include "excitation.hpp"
#include "plot_history.hpp"
#include "substruct/bench/accuracy.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"
#include "viewer_options.hpp"

namespace substruct::viewer {

/// A simulation built (and precomputed) for a lane, possibly on another thread.
struct LoadedSimulation {
  std::unique_ptr<Simulation> sim;
  double seconds = 0;
  std::optional<Excitation> excitation;  // the default excitation its pull load applies
};

/// Loads the scene with `method` as its coupling plugin (and the --pull load, or the default
/// excitation's: excitation.hpp), precomputes it (or reads the model cache) and builds its render
/// surface; throws Error.
LoadedSimulation build_simulation(const PluginHost& host, const ViewerOptions& options,
                                  const std::string& method);

class Lane {
 public:
  explicit Lane(std::string method) : method_(std::move(method)) {}

  const std::string& method() const { return method_; }
  bool ready() const { return static_cast<bool>(sim_); }
  Simulation& sim() { return *sim_; }
  const Simulation& sim() const { return *sim_; }
  /// Why the lane does not run: its load failed or it diverged (empty when it runs).
  const std::string& failure() const { return failure_; }
  bool running() const { return ready() && failure_.empty(); }
  DragSpring* spring() { return spring_; }
  /// Incremented whenever sim() is a new simulation.
  int generation() const { return generation_; }

  /// Takes over a built simulation for `method` (replacing the current one), with the viewer's
  /// loads (gravity, wind, --pull, the mouse spring) added and switched as given.
  void install(const std::string& method, LoadedSimulation loaded, const PluginHost& host,
               bool pull, bool gravity, bool wind);
  /// The lane cannot run: `why` is shown in its viewport.
  void fail(std::string why);

  /// Advances `steps` steps unless it does not run; a divergence sets failure() and returns false.
  /// tracked_steps() then holds the tracked vertices after each step.
  bool advance(int steps);
  /// Back to the initial state (a divergence is forgotten; a failed load is not).
  void reset();
  void set_load_enabled(const char* name, bool on);

  /// Mean method time per step over the last steps [ms].
  double ms_per_step() const;
  /// Tracked vertices (the scene's tracked_vertices), 3 columns each: the current positions, and
  /// one row per step of the last advance().
  Eigen::RowVectorXd tracked_now() const;
  /// The tracked vertices at the initial state (the last reset).
  const Eigen::RowVectorXd& tracked_initial() const { return tracked0_; }
  const Eigen::MatrixXd& tracked_steps() const { return tracked_steps_; }

  /// The render surface's world positions and normals for the current state (update_render(),
  /// which does nothing when they are already the current state's), at rest, and the largest
  /// displacement of a render vertex so far (the error colours' scale).
  void update_render();
  /// Whether the steps also bring the render state up to date (on the stepping threads): off
  /// while the GPU path draws the lane and nothing reads its render positions.
  void set_render_on_cpu(bool on) { render_on_cpu_ = on; }
  bool render_on_cpu() const { return render_on_cpu_; }
  const Points& render_positions() const { return render_x_; }
  const Points& render_normals() const { return render_n_; }
  const Points& render_rest() const { return render_rest_; }
  double largest_render_displacement() const { return largest_displacement_; }

  /// Adds a sample of the current state to the HUD plot when one is due: the first tracked
  /// vertex's displacement and the energies with gravity `g` [m/s²] as potential.
  void sample_plot(const Vec3& g);
  /// The HUD plot's samples; the running error against the reference.
  PlotHistory& history() { return history_; }
  const PlotHistory& history() const { return history_; }
  RunningMotionError& error() { return error_; }
  const RunningMotionError& error() const { return error_; }

 private:
  std::string method_;
  std::unique_ptr<Simulation> sim_;
  std::string failure_;
  bool load_failed_ = false;
  DragSpring* spring_ = nullptr;  // owned by sim_
  int generation_ = 0;
  std::deque<double> step_seconds_;
  Eigen::MatrixXd tracked_steps_;
  Eigen::RowVectorXd tracked0_;
  Points render_x_, render_n_, render_rest_;
  long rendered_step_ = -1;
  bool render_on_cpu_ = true;  // the step index render_x_ belongs to (-1: none)
  double largest_displacement_ = 0;
  PlotHistory history_;
  RunningMotionError error_;
};

}  // namespace substruct::viewer
