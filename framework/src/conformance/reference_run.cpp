// SPDX-License-Identifier: GPL-3.0-or-later
// The full-referenced rule: a short run of the scene with the plugin and with `full`, the ground
// truth, as `substruct bench` runs them, and the trajectory error of the one against the other.
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "conformance_probe.hpp"
#include "substruct/bench/accuracy.hpp"
#include "substruct/bench/bench_case.hpp"

namespace substruct::conformance {

RuleOutcome check_full_referenced_run(const PluginHost& host, const std::string& plugin,
                                      const ConformanceScene& scene) {
  const BenchCaseSettings settings{std::max(1L, scene.reference_steps), 1};
  const BenchCase test = run_bench_case(rule_config(host, plugin, scene), host, settings);
  if (!test.ran())
    return {"", false, fmt::format("{} on {}: {}", plugin, scene.name, test.failure)};
  const BenchCase reference = run_bench_case(rule_config(host, "full", scene), host, settings);
  if (!reference.ran())
    return {"", false,
            fmt::format("the reference, full, on {}: {}", scene.name, reference.failure)};
  const MotionError error = motion_error(test.tracked, reference.tracked);
  const std::string run =
      fmt::format("{}, {} steps of {} s, {} domain{}", scene.name, settings.steps, test.dt,
                  test.domains, test.domains == 1 ? "" : "s");
  if (!std::isfinite(error.relative_rms))
    return {
        "", false,
        fmt::format("{}: no trajectory error (the reference's tracked vertices do not move)", run)};
  const std::string figures = fmt::format(
      "{}: trajectory error {:.3g} of full's motion (offset ratio {:.3g}), interface gap {:.3g} m",
      run, error.relative_rms, error.offset_ratio, test.interface_gap);
  if (!(error.relative_rms <= scene.max_reference_error))
    return {"", false,
            fmt::format("{}, above the bound {:.3g}", figures, scene.max_reference_error)};
  return {"", true, figures};
}

}  // namespace substruct::conformance
