// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The benchmark report: every scene × method with its timings, memory and accuracy against the
/// `full` ground truth, as Markdown (report.md), CSV (results.csv) and JSON (results.json, with
/// the tracked trajectories and energies the plots are drawn from).
#include <cmath>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "substruct/bench/accuracy.hpp"
#include "substruct/bench/bench_case.hpp"
#include "substruct/bench/machine_info.hpp"

namespace substruct {

/// A case's accuracy against the reference run of its scene (NaN where there is none).
struct BenchAccuracy {
  MotionError motion{std::nan(""), std::nan("")};     // relative to the reference's motion
  TrajectoryError error{std::nan(""), std::nan("")};  // of the tracked vertices, / scene size
  // The first tracked vertex's dominant vibration (damped_vibration.hpp), and the reference's.
  double frequency_hz = std::nan("");
  double reference_frequency_hz = std::nan("");
  double frequency_ratio = std::nan("");  // frequency_hz / reference_frequency_hz
  double decay_rate = std::nan("");       // σ [1/s] of that vibration
  double reference_decay_rate = std::nan("");
  /// How much of its amplitude the vibration keeps over the run, against the reference:
  /// e^{−σ T} / e^{−σ_ref T} (T the run's duration): 1 as the reference, 0.1 when the method
  /// damps it to a tenth of what the reference keeps.
  double decay_ratio = std::nan("");
  double energy_drift = std::nan("");  // energy_drift() of the case, against energy_scale()
  /// broken_interface() of the run's largest gap: its accuracy figures are not a result.
  bool broken = false;
  /// The reference's own error at its Δt against a run at Δt/4, relative to its motion (as
  /// motion.relative_rms); NaN when not checked. A method's error below it is within what the
  /// reference can tell.
  double reference_uncertainty = std::nan("");
  /// This row is the reference, and its motion/error figures are against the Δt/4 run.
  bool self_check = false;
};

/// `reference` may be null (no ground truth for this scene) or the case itself.
BenchAccuracy compare_with_reference(const BenchCase& c, const BenchCase* reference);

struct BenchReport {
  MachineInfo machine;
  std::string reference_method;  // the reference row's name ("full"), empty: no accuracy columns
  bool stage_column = false;     // the table lists each case's step stages (mean ms)
  bool figures_column = false;   // the table lists each case's precompute figures
  long steps = 0;
  int repeats = 0;
  bool quick = false;  // a check of the pipeline: too few steps for accuracy figures to mean much
  std::vector<BenchCase> cases;
  std::vector<BenchAccuracy> accuracy;  // one per case
};

/// One column of a case's row in results.csv: text, a count, or a number (NaN: none).
struct BenchField {
  std::string name;
  std::variant<std::string, long long, double> value;
};
/// A case's row of results.csv (the columns in their order), for the file and for the Python API.
std::vector<BenchField> bench_result_fields(const BenchCase& c, const BenchAccuracy& a);

/// The results table in Markdown (also what the README shows), with a "paper" column when a case
/// has a paper figure.
std::string bench_markdown_table(const BenchReport& report);

/// The contact figures of every case that ran with [contact] obstacles, a Markdown list item
/// each (deepest penetration against the tolerance, contacts per step, share sliding, the
/// contact stage's time); empty when none had obstacles.
std::string bench_contact_lines(const BenchReport& report);

/// Writes report.md, results.csv and results.json into `dir` (created; each file staged under a
/// temporary name and renamed when complete). Returns the paths written.
std::vector<std::filesystem::path> write_bench_report(const std::filesystem::path& dir,
                                                      const BenchReport& report);

}  // namespace substruct
