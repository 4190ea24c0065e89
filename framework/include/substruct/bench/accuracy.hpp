#pragma once
/// Accuracy of a method against a reference run of the same scene, loads and time step: the
/// figures of the benchmark report (trajectory error, natural frequency, energy drift).
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

/// Error of tracked-vertex trajectories, as a fraction of a length (the object's size).
struct TrajectoryError {
  double rms = 0;  // √(mean over frames and vertices of |x − x_ref|²) / size
  double max = 0;  // max over frames and vertices of |x − x_ref| / size
};

/// `test` and `reference` hold one row per frame and 3 columns (x y z) per tracked vertex, frame
/// k of one at the same time as frame k of the other; only the frames both have are compared.
/// Throws Error when the column counts differ or size ≤ 0.
TrajectoryError trajectory_error(const Eigen::MatrixXd& test, const Eigen::MatrixXd& reference,
                                 double size);

/// Error of tracked-vertex trajectories relative to the reference's own motion (its displacement
/// from its first frame), so that a method is not flattered by a motion small against the
/// object: frames and columns as trajectory_error().
struct MotionError {
  /// √(Σ |x − x_ref|²) / √(Σ |x_ref − x_ref(0)|²) over frames and vertices: 0 exact, 1 as far
  /// off as standing still. NaN when the reference does not move.
  double relative_rms = 0;
  /// Mean displacement against the reference's, d · d_ref / |d_ref|² with d = the mean over
  /// frames of x − x(0) (all vertices stacked): 1 for the right static offset (a sag), 0.2 for
  /// one five times too small. NaN when the reference's mean displacement is 0.
  double offset_ratio = 0;
};

MotionError motion_error(const Eigen::MatrixXd& test, const Eigen::MatrixXd& reference);

/// motion_error() of a run in progress, one frame at a time (a viewer's live figure): after
/// add(frame 0) … add(frame n) it equals motion_error() of the matrices of those frames, without
/// keeping them. Frames are rows as for motion_error(): 3 columns per tracked vertex.
class RunningMotionError {
 public:
  /// Adds the frame after the last one added (the first is the initial state); throws Error when
  /// the column counts differ from each other or from the first frame's.
  void add(const Eigen::RowVectorXd& test, const Eigen::RowVectorXd& reference);
  /// Back to no frames (a reset of the runs).
  void clear();
  long frames() const { return frames_; }
  MotionError value() const;

 private:
  long frames_ = 0;
  Eigen::RowVectorXd test0_, reference0_;     // frame 0
  Eigen::RowVectorXd test_sum_, motion_sum_;  // Σ (x − x(0)), Σ (x_ref − x_ref(0))
  double error2_ = 0, motion2_ = 0;           // Σ |x − x_ref|², Σ |x_ref − x_ref(0)|²
};

/// The dominant frequency [Hz] of one vertex's vibration: `positions` (frames × 3, every dt
/// seconds) about their mean, projected on the principal direction of the motion; the frequency
/// from the times the projection crosses zero (linear interpolation between frames):
/// f = (crossings − 1) / (2 (t_last − t_first)). NaN when it crosses zero fewer than 3 times
/// (no full period in the run) or does not move.
double vibration_frequency(const Eigen::MatrixXd& positions, double dt);

/// Energy drift of a run: (E_last − E_first) / max_t (kinetic + elastic), with E the total energy
/// of each frame; 0 when nothing moves. Positive when the run gains energy.
double energy_drift(const std::vector<double>& total, const std::vector<double>& kinetic_elastic);

}  // namespace substruct
