// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Where the time of a precompute or of one step went, split into named stages.
#include <string>
#include <utility>
#include <vector>

namespace substruct {

/// What precompute() spent its time on, split into stages ("modes", "derivatives",
/// "polynomial", "cache load", "integrals", "assembly" …), and how the domains got their models.
struct PrecomputeStats {
  std::vector<std::pair<std::string, double>> stage_seconds;
  int models_computed = 0;   // reduced from scratch
  int models_loaded = 0;     // read from the model cache
  int models_instanced = 0;  // transformed from an identical domain's model
  /// Named results of the precompute that a benchmark reports beside the times (e.g. the
  /// interface cubature's held-out force error), in the order given; a name given again
  /// replaces its value.
  std::vector<std::pair<std::string, double>> figures;
  /// The time integrator of the method's step in words ("trapezoidal Newmark (γ = ½, β = ¼)",
  /// "backward Euler"), reported beside its figures so that a decay is read for what it is;
  /// empty when the method does not say.
  std::string integrator;
  void add(const std::string& stage, double seconds);
  void report(const std::string& name, double value);
};

/// Wall-clock split of one step into the parts the papers report (e.g. "dynamics",
/// "coupling", "factorization", "solve", "geometry"), and solver iterations.
struct StepStats {
  std::vector<std::pair<std::string, double>> stage_seconds;
  int iterations = 0;
  void add(const std::string& stage, double seconds);
};

}  // namespace substruct
