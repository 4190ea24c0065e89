// Declares kind "load" but creates an object that is not a Load.
#include "substruct/plugin/plugin_descriptor.hpp"

namespace {
class NotALoad : public substruct::Component {};
boost::program_options::options_description options() {
  boost::program_options::options_description o("[wrong-interface]");
  o.add_options()("wrong-interface.strength",
                  boost::program_options::value<double>()->default_value(1.0), "unused");
  return o;
}
std::unique_ptr<substruct::Component> create(const substruct::PluginContext&) {
  return std::make_unique<NotALoad>();
}
const substruct::PluginDescriptor& descriptor() {
  static const substruct::PluginDescriptor d{"wrong-interface",
                                             substruct::PluginKind::load,
                                             "0",
                                             "a load that is not a Load",
                                             &options,
                                             &create};
  return d;
}
}  // namespace

SUBSTRUCT_PLUGIN(descriptor)
