#include "substruct/bench/bench_rows.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"

namespace substruct {

void run_bench_rows(const std::string& scene, const std::vector<BenchRow>& rows,
                    const std::string& reference, const std::vector<std::string>& common,
                    const RowRunSettings& run, const PluginHost& host, BenchReport& report,
                    std::FILE* log) {
  const std::size_t first = report.cases.size();
  for (const BenchRow& row : rows) {
    std::vector<std::string> overrides = common;
    overrides.insert(overrides.end(), row.overrides.begin(), row.overrides.end());
    overrides.push_back("--coupling.plugin=" + row.plugin);
    overrides.push_back("--run.exporters=");
    const Config config = Config::load(scene, overrides, host);
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
  for (std::size_t k = first; k < report.cases.size(); ++k)
    if (!reference.empty() && report.cases[k].name() == reference) ref = &report.cases[k];
  for (std::size_t k = first; k < report.cases.size(); ++k)
    report.accuracy.push_back(compare_with_reference(report.cases[k], ref));
}

}  // namespace substruct
