// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/bench/bench_rows.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/interrupt.hpp"

namespace substruct {
namespace {

constexpr int kRefinement = 4;  // the reference's check runs at Δt / 4

Config row_config(const std::string& scene, const BenchRow& row,
                  const std::vector<std::string>& common, const PluginHost& host,
                  const std::string& origin, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> overrides = common;
  overrides.insert(overrides.end(), row.overrides.begin(), row.overrides.end());
  overrides.push_back("--coupling.plugin=" + row.plugin);
  overrides.push_back("--run.exporters=");
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  return Config::load(scene, overrides, host, origin);
}

// The reference row run again at Δt/4 for 4× the steps, its recorded frames taken at the
// reference's times; an empty matrix when it could not run (said in `log`).
Eigen::MatrixXd refined_reference(const std::string& scene, const BenchRow& row,
                                  const BenchCase& reference,
                                  const std::vector<std::string>& common, const PluginHost& host,
                                  const std::string& origin, std::FILE* log) {
  const long steps = kRefinement * (reference.tracked.rows() - 1);
  const std::string dt = fmt::format("--run.dt={:.17g}", reference.dt / kRefinement);
  if (log) {
    std::fprintf(log, "bench      %s × %s at Δt/%d (the reference's own error) …\n",
                 std::filesystem::path(scene).stem().c_str(), row.label.c_str(), kRefinement);
    std::fflush(log);
  }
  BenchCase fine;
  try {
    fine = run_bench_case(row_config(scene, row, common, host, origin, {dt}), host,
                          BenchCaseSettings{steps, 1});
  } catch (const Interrupted&) {
    throw;
  } catch (const Error& e) {
    fine.failure = e.what();  // e.g. Δt/4 below [run] dt's bound
  }
  if (!fine.ran() || fine.tracked.cols() != reference.tracked.cols()) {
    if (log) std::fprintf(log, "           not run: %s\n", fine.failure.c_str());
    return {};
  }
  Eigen::MatrixXd frames(reference.tracked.rows(), reference.tracked.cols());
  for (Index k = 0; k < frames.rows(); ++k) frames.row(k) = fine.tracked.row(kRefinement * k);
  return frames;
}

}  // namespace

void run_bench_rows(const std::string& scene, const std::vector<BenchRow>& rows,
                    const std::string& reference, const std::vector<std::string>& common,
                    const RowRunSettings& run, const PluginHost& host, BenchReport& report,
                    std::FILE* log) {
  const std::size_t first = report.cases.size();
  for (const BenchRow& row : rows) {
    const Config config = row_config(scene, row, common, host, run.origin);
    long steps = run.steps;
    if (steps == 0) steps = std::max(1L, std::lround(run.duration / run_options().read(config).dt));
    if (run.max_steps > 0) steps = std::min(steps, run.max_steps);
    if (log) {
      std::fprintf(log, "bench      %s × %s …\n", std::filesystem::path(scene).stem().c_str(),
                   row.label.c_str());
      std::fflush(log);
    }
    BenchCase c = run_bench_case(config, host, BenchCaseSettings{steps, run.repeats});
    c.label = row.label == row.plugin ? "" : row.label;
    c.paper = row.paper;
    if (log && c.ran())
      std::fprintf(log, "           %lld DOFs, precompute %.3g s, %.4g ms/step (median)\n",
                   static_cast<long long>(c.dofs), c.precompute_seconds,
                   1e3 * c.median_step_seconds());
    else if (log)
      std::fprintf(log, "           not run: %s\n", c.failure.c_str());
    report.cases.push_back(std::move(c));
  }
  const BenchCase* ref = nullptr;
  const BenchRow* ref_row = nullptr;
  for (std::size_t k = first; k < report.cases.size(); ++k)
    if (!reference.empty() && report.cases[k].name() == reference) {
      ref = &report.cases[k];
      ref_row = &rows[k - first];
    }
  Eigen::MatrixXd fine;
  if (run.reference_check && ref != nullptr && ref->ran() && ref->tracked.rows() > 1)
    fine = refined_reference(scene, *ref_row, *ref, common, host, run.origin, log);
  const double uncertainty =
      fine.size() > 0 ? motion_error(ref->tracked, fine).relative_rms : std::nan("");
  if (log && fine.size() > 0)
    std::fprintf(log, "           the reference is %.3g of its motion away from itself at Δt/%d\n",
                 uncertainty, kRefinement);
  for (std::size_t k = first; k < report.cases.size(); ++k) {
    BenchAccuracy a = compare_with_reference(report.cases[k], ref);
    a.reference_uncertainty = uncertainty;
    if (&report.cases[k] == ref && fine.size() > 0) {
      a.self_check = true;
      a.motion = motion_error(ref->tracked, fine);
      a.error = trajectory_error(ref->tracked, fine, ref->size);
    }
    report.accuracy.push_back(a);
  }
}

}  // namespace substruct
