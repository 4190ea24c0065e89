// SPDX-License-Identifier: GPL-3.0-or-later
// The verdict after the benchmark's table, on constructed rows: the closest and the fastest
// named with their figures, ties named together, errors below the reference's own uncertainty
// called indistinguishable rather than ranked, broken and failed methods with why, a quick run
// said to be no measurement.
#include "substruct/bench/bench_verdict.hpp"

#include <cmath>
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

namespace substruct {
namespace {

// A row that ran: `ms` per step, its error / motion against the reference.
void add_row(BenchReport& report, const std::string& scene, const std::string& method, double ms,
             double error, double uncertainty = std::nan("")) {
  BenchCase c;
  c.scene = scene;
  c.method = method;
  c.size = 1.0;
  c.step_seconds = {1e-3 * ms, 1e-3 * ms, 1e-3 * ms};
  BenchAccuracy a;
  a.motion.relative_rms = error;
  a.reference_uncertainty = uncertainty;
  a.self_check = method == "full" && std::isfinite(uncertainty);
  report.cases.push_back(c);
  report.accuracy.push_back(a);
}

// A row that did not run to the end: refused before its first step, or stopped after `steps`.
void add_failed(BenchReport& report, const std::string& scene, const std::string& method,
                const std::string& failure, int steps = 0) {
  BenchCase c;
  c.scene = scene;
  c.method = method;
  c.failure = failure;
  c.step_seconds.assign(std::size_t(steps), 1e-3);
  report.cases.push_back(c);
  report.accuracy.emplace_back();
}

struct Figures {
  const char* method;
  double ms, error;
};

// A report against `full` of rows that ran on `scene`, all with the reference's own error
// `uncertainty`.
BenchReport report_of(const std::string& scene, std::initializer_list<Figures> rows,
                      double uncertainty) {
  BenchReport report;
  report.reference_method = "full";
  for (const Figures& r : rows) add_row(report, scene, r.method, r.ms, r.error, uncertainty);
  return report;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every one of `sentences` is in the verdict `v`.
void expect_says(const std::string& v, std::initializer_list<const char*> sentences) {
  for (const char* sentence : sentences) EXPECT_TRUE(has(v, sentence)) << sentence << "\n" << v;
}

TEST(BenchVerdict, NamesTheClosestAndTheFastestWithTheirFigures) {
  const BenchReport report = report_of(
      "beam", {{"full", 4.2, 0.016}, {"inertia", 0.12, 0.05}, {"coupling-elements", 0.6, 0.031}},
      0.016);
  const std::string v = bench_verdict(report);
  expect_says(v, {"**beam**:",
                  "Closest to the reference `full`: `coupling-elements`, at an error of 0.031 "
                  "of the reference's motion.",
                  "Fastest: `inertia`, at 0.12 ms per step (median), at an error of 0.05; 35× "
                  "the reference's speed (4.2 ms)."});
  EXPECT_FALSE(has(v, "Quick run")) << v;
  EXPECT_FALSE(has(v, "indistinguishable")) << v;
}

TEST(BenchVerdict, TiesToThreeDigitsAreNamedTogether) {
  const BenchReport report = report_of(
      "bar", {{"full", 3.0, 0.01}, {"a", 0.5001, 0.0421}, {"b", 0.5004, 0.04214}, {"c", 0.9, 0.3}},
      0.01);
  const std::string v = bench_verdict(report);
  expect_says(v, {"Closest to the reference `full`: `a` and `b`, at an error of 0.0421 of the "
                  "reference's motion (a tie to three digits).",
                  "Fastest: `a` and `b`, at 0.5 ms per step (median), a tie to three digits"});
}

TEST(BenchVerdict, ErrorsBelowTheReferencesOwnAreIndistinguishableNotRanked) {
  const BenchReport report = report_of("flower",
                                       {{"full", 5.0, 0.02},
                                        {"ddm", 2.0, 0.012},
                                        {"spectral-hybrid", 1.0, 0.019},
                                        {"inertia", 0.2, 0.4}},
                                       0.02);
  const std::string v = bench_verdict(report);
  EXPECT_TRUE(has(v,
                  "`ddm` (error 0.012) and `spectral-hybrid` (error 0.019) are indistinguishable "
                  "from the reference `full`: their errors are below the reference's own error "
                  "of 0.02 of its motion (its run at Δt against Δt/4)."))
      << v;
  // ddm's smaller error is not called closer than spectral-hybrid's: the others are ranked.
  EXPECT_TRUE(
      has(v, "Of the others, closest to the reference `full`: `inertia`, at an error of 0.4"))
      << v;
  EXPECT_FALSE(has(v, "Closest to the reference `full`: `ddm`")) << v;
  EXPECT_TRUE(has(v, "Fastest: `inertia`, at 0.2 ms per step (median), at an error of 0.4; 25×"))
      << v;

  // Only indistinguishable ones: no "closest"; the fastest of them says it is indistinguishable.
  const BenchReport only = report_of("flower", {{"full", 5.0, 0.02}, {"ddm", 2.0, 0.012}}, 0.02);
  const std::string w = bench_verdict(only);
  EXPECT_FALSE(has(w, "losest")) << w;
  EXPECT_TRUE(has(w,
                  "Fastest: `ddm`, at 2 ms per step (median), indistinguishable from the "
                  "reference; 2.5× the reference's speed (5 ms)."))
      << w;
}

TEST(BenchVerdict, BrokenAndFailedMethodsAreListedWithWhy) {
  BenchReport report = report_of("sheet", {{"full", 1.0, 0.01}, {"ddm", 0.1, 2.0}}, 0.01);
  report.cases.back().interface_gap = 0.031;  // 3.1 % of the 1 m size
  report.accuracy.back().broken = true;
  add_failed(report, "sheet", "inertia",
             "coupling 'inertia' cannot run scene 'sheet': the domain graph has a cycle");
  add_failed(report, "sheet", "coupling-elements", "diverged at step 12", 11);
  const std::string v = bench_verdict(report);
  expect_says(v, {"`ddm` is broken: its domains came 31 mm apart (3.1 % of the object's size), "
                  "so its figures are no result.",
                  "`inertia` could not run: coupling 'inertia' cannot run scene 'sheet': the "
                  "domain graph has a cycle.",
                  "`coupling-elements` stopped before the end: diverged at step 12."});
  // The broken one is neither the fastest nor ranked; the reference alone remains.
  expect_says(v, {"No method but the reference `full` ran to compare with it.",
                  "Fastest: the reference `full` itself, at 1 ms per step (median); no method "
                  "is faster."});
  EXPECT_FALSE(has(v, "Fastest: `ddm`")) << v;
}

TEST(BenchVerdict, AQuickRunSaysSoAndAFailedReferenceRanksNothing) {
  BenchReport report = report_of("tree", {}, std::nan(""));
  report.quick = true;
  add_failed(report, "tree", "full", "diverged at step 3", 2);
  add_row(report, "tree", "inertia", 0.3, std::nan(""));
  add_row(report, "bar", "full", 1.0, std::nan(""));
  add_row(report, "bar", "inertia", 0.5, 0.2);
  const std::string v = bench_verdict(report);
  // One paragraph per scene, in the order they appear, each saying it is a quick run.
  const auto tree = v.find("**tree**:"), bar = v.find("**bar**:");
  ASSERT_NE(tree, std::string::npos) << v;
  ASSERT_NE(bar, std::string::npos) << v;
  EXPECT_LT(tree, bar);
  const std::string quick = "Quick run: a check that every row runs, not a measurement";
  EXPECT_TRUE(has(v.substr(tree, bar - tree), quick)) << v;
  EXPECT_TRUE(has(v.substr(bar), quick)) << v;
  expect_says(v, {"The reference `full` did not run to the end (diverged at step 3), so the "
                  "methods are not ranked by accuracy.",
                  "Fastest: `inertia`, at 0.3 ms per step (median)."});
  // Without the reference's own error (a quick run does not check it) the error is ranked and
  // the reader told that the check is missing.
  EXPECT_TRUE(has(v, "The reference's own error was not checked")) << v;

  BenchReport none;
  add_row(none, "bar", "inertia", 0.5, std::nan(""));
  EXPECT_TRUE(has(bench_verdict(none), "No reference was run")) << bench_verdict(none);
  EXPECT_EQ(bench_verdict(BenchReport{}), "");
}

}  // namespace
}  // namespace substruct
