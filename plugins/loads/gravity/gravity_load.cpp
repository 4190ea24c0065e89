// SPDX-License-Identifier: GPL-3.0-or-later
// gravity: a uniform acceleration g [m/s²]; every coupling method turns it into the body force
// ρ g (the nodal forces M g). Switched on at once, or ramped up over `ramp` seconds: a sudden
// load rings every mode of the mesh, and the highest ones, unresolved at the scene's Δt, make a
// reference that differs from itself at Δt/4; a smooth ramp much longer than those modes' periods
// leaves them at rest.
#include <memory>

#include "substruct/config/config.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"

namespace substruct::gravity {
namespace {

// The [gravity] section.
struct GravitySettings {
  Vec3 acceleration = Vec3(0, -9.81, 0);  // g
  double ramp = 0;                        // T [s]: 0 at once
};

// The ramp's factor at time t: s(τ) = τ²(3 − 2τ), τ = t/T clamped to [0, 1] (a smoothstep: its
// rate is zero at both ends, so the load has no jump in value or rate).
double ramp_factor(double t, double ramp) {
  if (!(ramp > 0) || t >= ramp) return 1;
  if (t <= 0) return 0;
  const double tau = t / ramp;
  return tau * tau * (3 - 2 * tau);
}

const OptionSet<GravitySettings>& gravity_options() {
  static const auto options =
      OptionSet<GravitySettings>("gravity", "uniform gravitational acceleration")
          .vec3("acceleration", &GravitySettings::acceleration, "m/s²", "g")
          .number("ramp", &GravitySettings::ramp, "s",
                  "0: on at once (a sudden load that rings every mode); T > 0: raised smoothly "
                  "from 0 to g over T seconds, g·τ²(3 − 2τ) with τ = t/T (no jump in the load "
                  "or its rate; releases the object into its sag without exciting what the "
                  "time step cannot resolve)",
                  non_negative);
  return options;
}

const OptionTable& options() {
  return gravity_options().table();
}

class GravityLoad final : public Load {
 public:
  explicit GravityLoad(const GravitySettings& settings) : settings_(settings) {}
  void accumulate(const LoadContext& context, ExternalForces& forces) override {
    forces.gravity += ramp_factor(context.time, settings_.ramp) * settings_.acceleration;
  }

 private:
  GravitySettings settings_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<GravityLoad>(gravity_options().read(context.config));
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "gravity",         PluginKind::load,
      SUBSTRUCT_VERSION, "uniform gravitational acceleration (body force ρ g)",
      &options,          &create};
  return d;
}

}  // namespace substruct::gravity

SUBSTRUCT_PLUGIN(substruct::gravity::descriptor)
