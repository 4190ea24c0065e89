// gravity: a uniform acceleration g [m/s²]; every coupling method turns it into the body force
// ρ g (the nodal forces M g).
#include <memory>

#include "substruct/config/config.hpp"
#include "substruct/config/options.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"

namespace substruct::gravity {
namespace {

// The [gravity] section.
struct GravitySettings {
  Vec3 acceleration = Vec3(0, -9.81, 0);  // g
};

const OptionSet<GravitySettings>& gravity_options() {
  static const auto options =
      OptionSet<GravitySettings>("gravity", "uniform gravitational acceleration")
          .vec3("acceleration", &GravitySettings::acceleration, "m/s²", "g");
  return options;
}

const OptionTable& options() {
  return gravity_options().table();
}

class GravityLoad final : public Load {
 public:
  explicit GravityLoad(const Vec3& g) : g_(g) {}
  void accumulate(const LoadContext& /*context*/, ExternalForces& forces) override {
    forces.gravity += g_;
  }

 private:
  Vec3 g_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<GravityLoad>(gravity_options().read(context.config).acceleration);
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
