// SPDX-License-Identifier: GPL-3.0-or-later
// The coupling contract the framework enforces for every method (coupling/coupling_method.hpp),
// through the conformance kit that `substruct check-plugin` runs on any plugin
// (conformance/coupling_conformance.hpp): every rule on every coupling plugin of the tree, and
// the kit failing a fixture plugin that breaks one rule, on that rule only.
#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/config/config.hpp"
#include "substruct/conformance/coupling_conformance.hpp"
#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "support/clamped_box_beam.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

using substruct::testing::error_message;

// A 1 m beam of 8×2×2 cells clamped at x = 0, cut in two domains, under gravity; small bases.
class ContractScene {
 public:
  ContractScene() : dir_("CouplingContract") {
    testing::write_clamped_box_beam(dir_.path(), "beam", Vec3(1, 0.1, 0.1), 8, 2, 2);
    scene_.settings = {{"scene.mesh", "beam.veg", "test"},
                       {"scene.fixed", "beam.bou", "test"},
                       {"scene.domains", "auto:2", "test"},
                       {"material.youngs_modulus", "1e7", "test"},
                       {"material.poisson_ratio", "0.3", "test"},
                       {"material.density", "1000", "test"},
                       {"reduction.modes", "4", "test"},
                       {"reduction.linear_modes", "4", "test"},
                       {"reduction.modal_derivatives", "false", "test"},
                       {"run.dt", "0.01", "test"},
                       {"run.loads", "gravity", "test"},
                       {"gravity.acceleration", "0 -9.81 0", "test"}};
    scene_.base_dir = dir_.path();
    scene_.name = "box beam";
    scene_.contract_steps = 3;
    scene_.reference_steps = 20;
  }
  const ConformanceScene& scene() const { return scene_; }

 private:
  testing::SuiteDir dir_;
  ConformanceScene scene_;
};

const ContractScene& contract_scene() {
  static const ContractScene scene;
  return scene;
}

const PluginHost& tree_plugins() {
  static const PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  return host;
}

using PluginRule = std::tuple<std::string, std::string>;

class CouplingContractTest : public ::testing::TestWithParam<PluginRule> {};

TEST_P(CouplingContractTest, RuleHolds) {
  const auto& [plugin, rule] = GetParam();
  const RuleOutcome outcome =
      check_coupling_rule(tree_plugins(), plugin, contract_scene().scene(), rule);
  EXPECT_EQ(outcome.rule, rule);
  EXPECT_TRUE(outcome.passed) << plugin << ": " << outcome.detail;
  EXPECT_FALSE(outcome.detail.empty());
}

std::string test_name(const ::testing::TestParamInfo<PluginRule>& info) {
  std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryMethod, CouplingContractTest,
                         ::testing::Combine(::testing::Values("full", "inertia",
                                                              "coupling-elements", "ddm",
                                                              "spectral-hybrid"),
                                            ::testing::ValuesIn(coupling_rules())),
                         test_name);

// The kit reads what the methods report: the reduced ones through their layout, the others not.
TEST(CouplingConformance, SaysHowEachMethodGivesItsPositions) {
  const auto detail = [](const std::string& plugin) {
    return check_coupling_rule(tree_plugins(), plugin, contract_scene().scene(),
                               "positions-from-layout")
        .detail;
  };
  EXPECT_NE(detail("inertia").find("2 domains: positions and velocities of 81 vertices are "
                                   "the kernel's, bit for bit"),
            std::string::npos)
      << detail("inertia");
  EXPECT_NE(detail("full").find("not reduced: its own positions, moved up to"), std::string::npos)
      << detail("full");
}

// A fixture that runs `full` but keeps a step counter reset() does not clear: a second run
// differs from the first, the other rules hold.
TEST(CouplingConformance, FailsAPluginThatBreaksOneRuleOnThatRuleOnly) {
  PluginHost host({SUBSTRUCT_FIXTURE_PLUGIN_DIR, SUBSTRUCT_PLUGIN_DIR}, false);
  std::vector<std::string> reported;
  const std::vector<RuleOutcome> outcomes =
      check_coupling_plugin(host, "nondeterministic-coupling", contract_scene().scene(),
                            [&](const RuleOutcome& o) { reported.push_back(o.rule); });
  EXPECT_EQ(reported, coupling_rules());
  ASSERT_EQ(outcomes.size(), coupling_rules().size());
  for (const RuleOutcome& o : outcomes) {
    EXPECT_EQ(o.passed, o.rule != "deterministic-runs") << o.rule << ": " << o.detail;
    if (o.rule == "deterministic-runs") {
      EXPECT_NE(o.detail.find("a run and a second run after reset() differ at step 1 by up to"),
                std::string::npos)
          << o.detail;
    }
  }
}

TEST(CouplingConformance, RefusesWhatItCannotCheck) {
  const ConformanceScene& scene = contract_scene().scene();
  std::string m = error_message([&] { check_coupling_plugin(tree_plugins(), "gravity", scene); });
  EXPECT_NE(m.find("is a load plugin"), std::string::npos) << m;
  m = error_message([&] { check_coupling_rule(tree_plugins(), "full", scene, "speed"); });
  EXPECT_NE(m.find("no coupling rule 'speed' (rules: lifecycle-order, bad-inputs-refused"),
            std::string::npos)
      << m;
  ConformanceScene missing = scene;
  missing.settings[0].value = "absent.veg";
  m = error_message([&] { check_coupling_plugin(tree_plugins(), "full", missing); });
  EXPECT_NE(m.find("absent.veg"), std::string::npos) << m;
}

}  // namespace
}  // namespace substruct
