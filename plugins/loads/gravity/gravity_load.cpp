// gravity: a uniform acceleration g [m/s²]; every coupling method turns it into the body force
// ρ g (the nodal forces M g).
#include <cmath>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"

namespace substruct::gravity {
namespace {

namespace po = boost::program_options;

po::options_description options() {
  po::options_description d("[gravity] uniform gravitational acceleration");
  d.add_options()("gravity.acceleration", po::value<std::string>()->default_value("0 -9.81 0"),
                  "g = \"x y z\" [m/s²]");
  return d;
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
  const Vec3 g = context.config.vec3("gravity.acceleration");
  if (!g.allFinite())
    throw Error(fmt::format("gravity.acceleration: expected finite numbers, found '{}'",
                            context.config.get<std::string>("gravity.acceleration")));
  return std::make_unique<GravityLoad>(g);
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
