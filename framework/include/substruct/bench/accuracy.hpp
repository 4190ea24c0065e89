// SPDX-License-Identifier: GPL-3.0-or-later
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

/// Whether a run's output is broken rather than a result: its domains have come apart at an
/// interface by more than 1 % of the object's size (`gap` and `size` in the same unit), so that
/// no accuracy figure of it means what it says.
inline constexpr double kBrokenInterfaceGap = 0.01;
inline bool broken_interface(double gap, double size) {
  return size > 0 && gap > kBrokenInterfaceGap * size;
}

/// Energy change of a run against an energy scale: (E_last − E_first) / scale, with E the total
/// energy of each frame; positive when the run gains energy, and not bounded by 1 (a run that
/// ends 120 times above the scale reads about +120). 0 when the scale is 0.
double energy_drift(const std::vector<double>& total, double scale);

/// The scale energy_drift() is read against: the reference's largest kinetic + elastic energy
/// (`reference_kinetic_elastic`, empty when there is no reference), else the run's own initial
/// kinetic + elastic energy, else (a run starting at rest with no reference) its own largest.
/// A method's drift is thereby not divided by the energy it gained.
double energy_scale(const std::vector<double>& kinetic_elastic,
                    const std::vector<double>& reference_kinetic_elastic);

}  // namespace substruct
