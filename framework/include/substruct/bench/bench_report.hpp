#pragma once
/// The benchmark report: every scene × method with its timings, memory and accuracy against the
/// `full` ground truth, as Markdown (report.md), CSV (results.csv) and JSON (results.json, with
/// the tracked trajectories and energies the plots are drawn from).
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "substruct/bench/accuracy.hpp"
#include "substruct/bench/bench_case.hpp"
#include "substruct/bench/machine_info.hpp"

namespace substruct {

/// A case's accuracy against the reference run of its scene (NaN where there is none).
struct BenchAccuracy {
  TrajectoryError error{std::nan(""), std::nan("")};  // of the tracked vertices, / scene size
  double frequency_hz = std::nan("");                 // of the first tracked vertex's vibration
  double reference_frequency_hz = std::nan("");       // the same in the reference run
  double frequency_ratio = std::nan("");              // frequency_hz / reference_frequency_hz
  double energy_drift = std::nan("");                 // energy_drift() of the case itself
};

/// `reference` may be null (no ground truth for this scene) or the case itself.
BenchAccuracy compare_with_reference(const BenchCase& c, const BenchCase* reference);

struct BenchReport {
  MachineInfo machine;
  std::string reference_method;  // "full", or empty when the accuracy columns are off
  long steps = 0;
  int repeats = 0;
  std::vector<BenchCase> cases;
  std::vector<BenchAccuracy> accuracy;  // one per case
};

/// The results table in Markdown (also what the README shows).
std::string bench_markdown_table(const BenchReport& report);

/// Writes report.md, results.csv and results.json into `dir` (created; each file staged under a
/// temporary name and renamed when complete). Returns the paths written.
std::vector<std::filesystem::path> write_bench_report(const std::filesystem::path& dir,
                                                      const BenchReport& report);

}  // namespace substruct
