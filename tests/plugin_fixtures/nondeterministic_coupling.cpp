// SPDX-License-Identifier: GPL-3.0-or-later
// A coupling plugin that breaks one rule of the coupling contract, deterministic-runs, and keeps
// the others: it runs the `full` method (made through a plugin host of its own, which finds the
// plugins of the build tree) and scales the gravity of each step by the number of steps taken
// since the method was made: a state that reset() does not clear, so that a second run from the
// same state differs from the first. `substruct check-plugin` must fail it naming that rule.
#include <memory>

#include "substruct/coupling/coupling_method.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace {

using namespace substruct;

class NondeterministicCoupling final : public CouplingMethod {
 public:
  explicit NondeterministicCoupling(const PluginContext& context)
      : full_(host_.create<CouplingMethod>("full", PluginKind::coupling, context)) {}

 private:
  void do_precompute(const PrecomputeContext& context) override { full_->precompute(context); }
  void do_reset(const Eigen::VectorXd& u0, const Eigen::VectorXd& v0) override {
    full_->reset(u0, v0);  // the bug: steps_ is not set back to 0
  }
  void do_step(double dt, const ExternalForces& forces, StepStats& stats) override {
    ExternalForces scaled = forces;
    scaled.gravity *= 1 + 1e-6 * static_cast<double>(steps_++);
    full_->step(dt, scaled, stats);
  }
  void do_positions(Points& x) const override { full_->positions(x); }
  void do_velocities(Points& v) const override { full_->velocities(v); }
  Energies do_energies(const Vec3& gravity) const override { return full_->energies(gravity); }
  Index do_dofs() const override { return full_->dofs(); }

  PluginHost host_;  // outlives the method it made
  std::unique_ptr<CouplingMethod> full_;
  long steps_ = 0;
};

struct Settings {};
const OptionTable& options() {
  static const auto options =
      OptionSet<Settings>("nondeterministic-coupling",
                          "full FEM whose gravity grows with the steps taken, across resets");
  return options.table();
}
std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<NondeterministicCoupling>(context);
}
const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{"nondeterministic-coupling",
                                  PluginKind::coupling,
                                  "0",
                                  "full FEM that breaks the deterministic-runs rule",
                                  &options,
                                  &create};
  return d;
}

}  // namespace

SUBSTRUCT_PLUGIN(descriptor)
