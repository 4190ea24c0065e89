// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the viewer simulates: one lane per viewed method (one, or the --compare list), plus the
// reference and the ghost when they are not among them, all stepped in lockstep with the same
// loads, time step and mouse pull; the errors of every lane against the reference (the
// benchmark's relative RMS over the reference's motion, frame by frame); the toggles (gravity,
// wind, pause) and the messages. Methods are loaded (precomputed or read from the model cache) on
// a background thread, one after another, with their progress on screen; with one viewed method,
// `m` switches it the same way while the old one keeps running. Lanes step side by side on
// --threads threads (each lane's simulation is independent of the others).
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "excitation.hpp"
#include "lane.hpp"
#include "substruct/core/worker_pool.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "viewer_options.hpp"

namespace substruct::viewer {

class Session {
 public:
  /// `scene_method`: the scene's coupling plugin, viewed when options.compare lists none.
  Session(const PluginHost& host, const ViewerOptions& options, const std::string& scene_method);
  ~Session();

  /// Loads every lane's method: in the background when `background` (poll() takes them over),
  /// else before returning. With one viewed method a failed load throws Error; with several the
  /// lane shows why.
  void load(bool background);
  /// Switches the (single) viewed method to `method`, in the background.
  void switch_method(const std::string& method);
  /// The next coupling plugin after the viewed one that can be loaded (in name order).
  std::string next_method() const;
  /// Takes over a finished background load; true when a lane's simulation changed.
  bool poll();
  bool loading() const { return pending_.valid() || next_load_ < load_queue_.size(); }
  /// Every lane was loaded (or failed) once: stepping has started.
  bool ready() const { return started_; }

  /// The viewed lanes, in viewport order; the reference and the ghost (may be viewed lanes, or
  /// null).
  std::size_t viewed() const { return viewed_; }
  /// Every lane: the viewed ones, then the reference and the ghost when not viewed.
  std::size_t lanes() const { return lanes_.size(); }
  Lane& lane(std::size_t k) { return *lanes_[k]; }
  const Lane& lane(std::size_t k) const { return *lanes_[k]; }
  Lane* reference() { return reference_ < lanes_.size() ? lanes_[reference_].get() : nullptr; }
  Lane* ghost() { return ghost_ < lanes_.size() ? lanes_[ghost_].get() : nullptr; }
  bool is_reference(std::size_t k) const { return k == reference_; }
  const std::string& reference_method() const { return reference_method_; }

  /// Advances every running lane `steps` steps (unless paused), the errors against the
  /// reference and the plot histories with them. A divergence stops that lane (and pauses, with
  /// one viewed method) and is reported in message().
  void advance(int steps);
  /// The wall time of the last advance's steps alone [s]: the longest of the parallel parts'.
  double last_step_seconds() const { return last_step_seconds_; }
  /// Every lane back to its initial state.
  void reset();
  bool paused() const { return paused_; }
  void set_paused(bool paused) { paused_ = paused; }
  /// Samples the plots of the lanes that are due (advance() samples the lanes it steps).
  void sample_plots();

  bool gravity() const { return gravity_on_; }
  void toggle_gravity();
  bool wind() const { return wind_on_; }
  void toggle_wind();
  /// The default excitation (excitation.hpp) every lane's pull load applies, if the scene gets
  /// one.
  const std::optional<Excitation>& excitation() const { return excitation_; }
  /// The mouse spring on every running lane, on the same vertex with the same target.
  void grab(Index vertex, const Vec3& target);
  void move_spring(const Vec3& target);
  void release_spring();
  bool dragging() const { return dragging_; }
  double drag_stiffness() const { return drag_stiffness_; }
  void scale_drag_stiffness(double factor) { drag_stiffness_ *= factor; }
  /// The scene's gravity [m/s²] when its gravity load is on (the energies' potential).
  Vec3 gravity_vector() const;

  /// What happened last (errors, method switches); the precomputation's progress while loading.
  std::string message() const;
  std::string progress() const;
  void set_message(const std::string& text);

 private:
  std::size_t add_lane(const std::string& method);
  void start_next_load();
  void install(std::size_t k, const std::string& method, LoadedSimulation loaded);
  void restart_errors();
  // Every lane from its initial state: the errors restarted, the excitation said on screen.
  void start_runs();
  void add_error_frame(const Eigen::MatrixXd& reference_steps);

  const PluginHost& host_;
  ViewerOptions options_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::unique_ptr<WorkerPool> pool_;  // steps the lanes side by side
  std::size_t viewed_ = 0;
  std::size_t reference_ = static_cast<std::size_t>(-1), ghost_ = static_cast<std::size_t>(-1);
  std::string reference_method_;

  // Loading: lanes are built one after another on a worker thread.
  std::vector<std::pair<std::size_t, std::string>> load_queue_;  // (lane, method)
  std::size_t next_load_ = 0;
  std::future<LoadedSimulation> pending_;
  std::size_t pending_lane_ = 0;
  std::string pending_method_;
  bool started_ = false;

  bool paused_ = false;
  double last_step_seconds_ = 0;
  bool gravity_on_ = true, wind_on_ = false;
  bool dragging_ = false;
  std::optional<Excitation> excitation_;
  double drag_stiffness_ = 0;
  mutable std::mutex text_mutex_;
  std::string message_, progress_;
};

}  // namespace substruct::viewer
