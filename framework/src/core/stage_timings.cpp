// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/stage_timings.hpp"

namespace substruct {

namespace {

// Adds `seconds` to the stage called `stage`, appended in first-use order.
void add_stage(std::vector<std::pair<std::string, double>>& stages, const std::string& stage,
               double seconds) {
  for (auto& [name, value] : stages) {
    if (name == stage) {
      value += seconds;
      return;
    }
  }
  stages.emplace_back(stage, seconds);
}

}  // namespace

void StepStats::add(const std::string& stage, double seconds) {
  add_stage(stage_seconds, stage, seconds);
}

void PrecomputeStats::add(const std::string& stage, double seconds) {
  add_stage(stage_seconds, stage, seconds);
}

void PrecomputeStats::report(const std::string& name, double value) {
  for (auto& [n, v] : figures)
    if (n == name) {
      v = value;
      return;
    }
  figures.emplace_back(name, value);
}

}  // namespace substruct
