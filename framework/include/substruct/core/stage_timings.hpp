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
  void add(const std::string& stage, double seconds);
};

/// Wall-clock split of one step into the parts the papers report (e.g. "dynamics",
/// "coupling", "factorization", "solve", "geometry"), and solver iterations.
struct StepStats {
  std::vector<std::pair<std::string, double>> stage_seconds;
  int iterations = 0;
  void add(const std::string& stage, double seconds);
};

}  // namespace substruct
