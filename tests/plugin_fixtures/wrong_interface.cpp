// SPDX-License-Identifier: GPL-3.0-or-later
// Declares kind "load" but creates an object that is not a Load.
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"

namespace {
class NotALoad : public substruct::Component {};
struct Settings {
  double strength = 1;
};
const substruct::OptionTable& options() {
  static const auto options =
      substruct::OptionSet<Settings>("wrong-interface", "a load that is not a Load")
          .number("strength", &Settings::strength, "", "unused");
  return options.table();
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
