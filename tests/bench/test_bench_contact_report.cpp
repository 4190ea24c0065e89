// SPDX-License-Identifier: GPL-3.0-or-later
// The report's contact figures (bench/bench_report): the Contact section and results.csv.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "substruct/bench/bench_report.hpp"

namespace substruct {
namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

BenchCase contact_case() {
  BenchCase c;
  c.scene = "drop";
  c.method = "full";
  c.dt = 0.01;
  c.size = 1;
  c.step_seconds = {2e-3, 4e-3, 6e-3};  // median 4 ms
  c.stage_seconds = {{"loads", 1e-4}, {"contact", 2e-4}};
  c.contact = true;
  c.contact_tolerance = 1e-3;
  c.contact_stats.evaluations = 4;
  c.contact_stats.contacts = 100;  // 25 per evaluation
  c.contact_stats.max_contacts = 27;
  c.contact_stats.sliding = 10;
  c.contact_stats.max_penetration = 1.2e-5;
  c.contact_stats.deepest_vertex = 7;
  return c;
}

TEST(BenchContactReport, ReportAndCsvCarryTheContactStagesFigures) {
  BenchReport report;
  report.cases = {contact_case()};
  BenchCase plain = contact_case();
  plain.method = "inertia";
  plain.contact = false;  // a scene without obstacles: no line, empty CSV cells
  report.cases.push_back(plain);
  report.accuracy = {BenchAccuracy{}, BenchAccuracy{}};
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "substruct_bench_contact_report";
  std::filesystem::remove_all(dir);
  write_bench_report(dir, report);
  const std::string md = read_text(dir / "report.md");
  EXPECT_NE(md.find("## Contact"), std::string::npos) << md;
  EXPECT_NE(md.find("- drop / full: deepest penetration 1.2e-05 m (vertex 7), 1.2 % of the "
                    "tolerance 0.001 m; 25 contacts per step (at most 27), 10 % of them sliding; "
                    "the contact stage 200 µs per step (5 % of the median step)"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("- drop / inertia: deepest"), std::string::npos) << md;
  report.cases[0].contact_stats.max_penetration = 0.0492;  // beyond the tolerance: a multiple
  EXPECT_NE(bench_contact_lines(report).find("0.0492 m (vertex 7), 49.2× the tolerance 0.001 m"),
            std::string::npos)
      << bench_contact_lines(report);

  const std::string csv = read_text(dir / "results.csv");
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_NE(header.find(",contact_max_penetration_m,contacts_per_step,contact_stage_us"),
            std::string::npos)
      << header;
  EXPECT_NE(csv.find(",1.2e-05,25,200\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",,,\n"), std::string::npos) << csv;  // the row without contact
  std::filesystem::remove_all(dir);
}

TEST(BenchContactReport, NoContactSectionWithoutObstacles) {
  BenchReport report;
  BenchCase c = contact_case();
  c.contact = false;
  report.cases = {c};
  report.accuracy = {BenchAccuracy{}};
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "substruct_bench_no_contact_report";
  std::filesystem::remove_all(dir);
  write_bench_report(dir, report);
  EXPECT_EQ(read_text(dir / "report.md").find("## Contact"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace substruct
