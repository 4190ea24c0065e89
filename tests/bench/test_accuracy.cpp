// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/bench/accuracy.hpp"

#include <cmath>
#include <numbers>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/bench/bench_report.hpp"
#include "substruct/core/error.hpp"

namespace substruct {
namespace {

// A vertex vibrating about `centre` along `direction` at f Hz, sampled every dt for `frames`.
Eigen::MatrixXd vibration(double f, double dt, int frames, double damping = 0) {
  const Vec3 centre(0.3, -1.2, 2.0);
  const Vec3 direction = Vec3(1, 2, 2) / 3;
  Eigen::MatrixXd x(frames, 3);
  for (int k = 0; k < frames; ++k) {
    const double t = k * dt;
    const double a = 0.05 * std::exp(-damping * t) * std::cos(2 * std::numbers::pi * f * t + 0.4);
    x.row(k) = (centre + a * direction).transpose();
  }
  return x;
}

TEST(Accuracy, TrajectoryErrorOfAConstantOffsetIsItsLengthOverTheSize) {
  const Eigen::MatrixXd reference = Eigen::MatrixXd::Random(50, 6);
  Eigen::MatrixXd test = reference;
  test.col(0).array() += 0.03;  // 3 cm along x on vertex 0
  test.col(4).array() -= 0.04;  // 4 cm along y on vertex 1
  const TrajectoryError e = trajectory_error(test, reference, 2.0);
  EXPECT_NEAR(e.rms, std::sqrt((0.03 * 0.03 + 0.04 * 0.04) / 2) / 2.0, 1e-15);
  EXPECT_NEAR(e.max, 0.04 / 2.0, 1e-15);
}

TEST(Accuracy, TrajectoryErrorComparesTheCommonFrames) {
  const Eigen::MatrixXd reference = Eigen::MatrixXd::Zero(10, 3);
  Eigen::MatrixXd test = Eigen::MatrixXd::Zero(4, 3);
  test(3, 2) = 0.2;  // one frame of four off by 0.2
  const TrajectoryError e = trajectory_error(test, reference, 1.0);
  EXPECT_NEAR(e.rms, std::sqrt(0.04 / 4), 1e-15);
  EXPECT_NEAR(e.max, 0.2, 1e-15);
  EXPECT_THROW(trajectory_error(test, Eigen::MatrixXd::Zero(4, 6), 1.0), Error);
  EXPECT_THROW(trajectory_error(test, reference, 0.0), Error);
}

TEST(Accuracy, RunningMotionErrorMatchesMotionErrorAfterEveryFrame) {
  // Two tracked vertices; the test run lags the reference and sags a little more.
  const Eigen::MatrixXd reference = (Eigen::MatrixXd(5, 6) << 0, 0, 0, 1, 1, 1,  //
                                     0.1, -0.2, 0, 1.1, 0.9, 1,                  //
                                     0.3, -0.5, 0.1, 1.2, 0.7, 1.1,              //
                                     0.2, -0.6, 0.2, 1.3, 0.6, 1.0,              //
                                     -0.1, -0.4, 0.1, 1.0, 0.8, 0.9)
                                        .finished();
  Eigen::MatrixXd test = reference;
  test.bottomRows(4) = 1.2 * reference.topRows(4);
  test.col(1).array() -= 0.05;
  RunningMotionError running;
  EXPECT_TRUE(std::isnan(running.value().relative_rms));
  for (Index k = 0; k < reference.rows(); ++k) {
    running.add(test.row(k), reference.row(k));
    const MotionError whole = motion_error(test.topRows(k + 1), reference.topRows(k + 1));
    const MotionError live = running.value();
    EXPECT_EQ(running.frames(), k + 1);
    if (k == 0) {  // the reference has not moved yet
      EXPECT_TRUE(std::isnan(live.relative_rms) && std::isnan(whole.relative_rms));
      continue;
    }
    EXPECT_NEAR(live.relative_rms, whole.relative_rms, 1e-14) << "frame " << k;
    EXPECT_NEAR(live.offset_ratio, whole.offset_ratio, 1e-14) << "frame " << k;
  }
  EXPECT_GT(running.value().relative_rms, 0.1);
  // A run against itself is exact.
  RunningMotionError self;
  for (Index k = 0; k < reference.rows(); ++k) self.add(reference.row(k), reference.row(k));
  EXPECT_EQ(self.value().relative_rms, 0.0);
  EXPECT_EQ(self.value().offset_ratio, 1.0);
  EXPECT_THROW(self.add(reference.row(0).head(3), reference.row(0).head(3)), Error);
  self.clear();
  EXPECT_EQ(self.frames(), 0);
  self.add(reference.row(0).head(3), reference.row(0).head(3));  // a new run may track others
}

TEST(Accuracy, VibrationFrequencyOfASampledCosine) {
  EXPECT_NEAR(vibration_frequency(vibration(3.7, 1e-3, 2000), 1e-3), 3.7, 3.7 * 2e-3);
  // Damped, coarsely sampled (dt = 1/27 of a period), a few periods.
  EXPECT_NEAR(vibration_frequency(vibration(1.6, 0.023, 200, 0.8), 0.023), 1.6, 1.6 * 1e-2);
}

TEST(Accuracy, VibrationFrequencyIsNaNWithoutAFullPeriodOrMotion) {
  EXPECT_TRUE(std::isnan(vibration_frequency(vibration(1.0, 0.01, 60), 0.01)));  // 0.6 period
  EXPECT_TRUE(std::isnan(vibration_frequency(Eigen::MatrixXd::Ones(100, 3), 0.01)));
  EXPECT_TRUE(std::isnan(vibration_frequency(Eigen::MatrixXd::Zero(100, 2), 0.01)));
}

TEST(Accuracy, EnergyDriftIsTheChangeOverTheReferencesEnergy) {
  EXPECT_NEAR(energy_drift({10, 9, 8, 12}, 5.0), 2.0 / 5, 1e-15);
  EXPECT_EQ(energy_drift({1, 1}, 0.0), 0);
  EXPECT_EQ(energy_drift({1}, 3.0), 0);
  // A run that gains 120 times its energy: against its own largest energy it read +0.99; against
  // the reference's it reads the gain.
  const std::vector<double> gaining{7.27, 50, 300, 880}, reference{7.62, 7.62, 7.62, 7.62};
  EXPECT_NEAR(energy_drift(gaining, energy_scale(gaining, reference)), (880 - 7.27) / 7.62, 1e-12);
  // Without a reference: the run's initial energy, else (from rest) its largest.
  EXPECT_EQ(energy_scale(gaining, {}), 7.27);
  EXPECT_EQ(energy_scale({0, 4, 5, 1}, {}), 5);
}

// A finished case of a vertex vibrating at f Hz with constant total energy.
BenchCase vibrating_case(const std::string& method, double f, double offset) {
  BenchCase c;
  c.scene = "test";
  c.method = method;
  c.dt = 0.01;
  c.size = 2;
  c.dofs = 30;
  c.tracked_vertices = {5};
  c.tracked = vibration(f, c.dt, 301);
  c.tracked.col(0).array() += offset;
  for (int k = 0; k < 301; ++k) {
    c.kinetic.push_back(1 + std::sin(k * 0.1));
    c.elastic.push_back(1 - std::sin(k * 0.1));
    c.gravity.push_back(0);
  }
  c.step_seconds = {1e-3, 2e-3, 3e-3, 4e-3, 5e-3};
  return c;
}

TEST(BenchReport, AccuracyAgainstTheReference) {
  const BenchCase reference = vibrating_case("full", 2.0, 0);
  const BenchCase c = vibrating_case("reduced", 3.0, 0.01);
  const BenchAccuracy a = compare_with_reference(c, &reference);
  EXPECT_NEAR(a.frequency_ratio, 1.5, 1.5 * 1e-2);
  EXPECT_NEAR(a.reference_frequency_hz, 2.0, 2e-2);
  EXPECT_GT(a.error.rms, 0.01 / 2);  // the offset plus the frequency mismatch
  EXPECT_NEAR(a.energy_drift, 0, 1e-15);
  EXPECT_NEAR(c.median_step_seconds(), 3e-3, 1e-15);
  EXPECT_NEAR(c.percentile_step_seconds(10), 1.4e-3, 1e-15);
  const BenchAccuracy alone = compare_with_reference(c, nullptr);
  EXPECT_TRUE(std::isnan(alone.error.rms));
  EXPECT_NEAR(alone.frequency_hz, 3.0, 3e-2);
}

TEST(BenchReport, TableListsEveryCaseAndWhyOneDidNotRun) {
  BenchReport report;
  report.reference_method = "full";
  report.cases = {vibrating_case("full", 2.0, 0), vibrating_case("reduced", 2.0, 0.01)};
  BenchCase refused;
  refused.scene = "test";
  refused.method = "tree-only";
  refused.failure = "the domain graph has a cycle 1 → 2 → 3 → 1";
  report.cases.push_back(refused);
  for (const BenchCase& c : report.cases)
    report.accuracy.push_back(compare_with_reference(c, &report.cases[0]));
  const std::string table = bench_markdown_table(report);
  EXPECT_NE(table.find("| test | reduced | 30 |"), std::string::npos) << table;
  EXPECT_NE(table.find("not run: the domain graph has a cycle 1 → 2 → 3 → 1"), std::string::npos)
      << table;
  EXPECT_NE(table.find("| 0.005 |"), std::string::npos) << table;  // RMS error 0.01 / 2
}

TEST(BenchReport, ARunWhoseDomainsCameApartIsMarkedBrokenNotGivenFigures) {
  BenchReport report;
  report.reference_method = "full";
  BenchCase apart = vibrating_case("inertia", 2.0, 0.01);
  apart.interface_gap = 0.26;  // 13 % of the 2 m size
  BenchCase close = vibrating_case("ddm", 2.0, 0.01);
  close.interface_gap = 0.019;  // 0.95 %: not broken
  report.cases = {vibrating_case("full", 2.0, 0), apart, close};
  for (const BenchCase& c : report.cases)
    report.accuracy.push_back(compare_with_reference(c, &report.cases[0]));
  EXPECT_TRUE(report.accuracy[1].broken);
  EXPECT_FALSE(report.accuracy[2].broken);
  const std::string table = bench_markdown_table(report);
  EXPECT_NE(table.find("broken: the domains are 260 mm apart (13 % of the size)"),
            std::string::npos)
      << table;
  // The broken row shows none of its accuracy figures; the other one does.
  const std::string row = table.substr(table.find("| inertia |"));
  EXPECT_EQ(row.substr(0, row.find('\n')).find("0.005"), std::string::npos) << row;
  EXPECT_NE(table.find("| ddm |"), std::string::npos);
}

TEST(BenchReport, AnErrorBelowTheReferencesOwnIsSaidToBe) {
  BenchAccuracy self, below, above;
  self.self_check = true;
  self.motion.relative_rms = self.reference_uncertainty = 0.32;
  below.motion.relative_rms = 0.24;
  below.reference_uncertainty = above.reference_uncertainty = 0.32;
  above.motion.relative_rms = 0.93;
  BenchReport report;
  report.reference_method = "full";
  report.cases = {vibrating_case("full", 2.0, 0), vibrating_case("a", 2.0, 0),
                  vibrating_case("b", 2.0, 0)};
  report.accuracy = {self, below, above};
  const std::string table = bench_markdown_table(report);
  EXPECT_NE(table.find("| 0.32 vs Δt/4 |"), std::string::npos) << table;
  EXPECT_NE(table.find("| 0.24 < ref. 0.32 |"), std::string::npos) << table;
  EXPECT_NE(table.find("| 0.93 |"), std::string::npos) << table;
}

TEST(BenchReport, AGainIsPrintedAsAGainAgainstTheReferencesEnergy) {
  BenchCase reference = vibrating_case("full", 2.0, 0);  // K + E = 2 throughout
  BenchCase gaining = vibrating_case("inertia", 2.0, 0);
  for (std::size_t k = 0; k < gaining.kinetic.size(); ++k)
    gaining.kinetic[k] += 0.1 * double(k);  // gains 30 J against the reference's 2
  const BenchAccuracy a = compare_with_reference(gaining, &reference);
  const double gained = gaining.kinetic.back() + gaining.elastic.back() - gaining.kinetic.front() -
                        gaining.elastic.front();
  EXPECT_NEAR(a.energy_drift, gained / 2, 1e-9);
  EXPECT_GT(a.energy_drift, 10);  // against its own largest energy it would read below 1
  BenchReport report;
  report.reference_method = "full";
  report.cases = {reference, gaining};
  report.accuracy = {compare_with_reference(reference, &reference), a};
  EXPECT_NE(bench_markdown_table(report).find(fmt::format("| {:+.3g} |", a.energy_drift)),
            std::string::npos)
      << bench_markdown_table(report);
}

TEST(BenchReport, UnderARampedLoadTheEnergyChangeCountsFromTheRampsEnd) {
  BenchCase reference = vibrating_case("full", 2.0, 0);
  BenchCase c = reference;
  // While gravity ramps up the potential of the changing field falls by 50 J; from frame 10 on
  // the total is constant.
  for (std::size_t k = 0; k < c.gravity.size(); ++k)
    c.gravity[k] = -5.0 * double(std::min<std::size_t>(k, 10));
  EXPECT_NEAR(compare_with_reference(c, &reference).energy_drift, -25, 1e-12) << "from frame 0";
  c.steady_from = 10;
  EXPECT_NEAR(compare_with_reference(c, &reference).energy_drift, 0, 1e-12);
  c.steady_from = Index(c.gravity.size()) - 1;  // never settles within the run
  EXPECT_TRUE(std::isnan(compare_with_reference(c, &reference).energy_drift));
}

}  // namespace
}  // namespace substruct
