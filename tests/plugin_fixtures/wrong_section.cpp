// SPDX-License-Identifier: GPL-3.0-or-later
// A plugin whose options are declared for another section than its name: the host must refuse
// it, since a scene's [wrong-section] keys would be checked against the wrong table.
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"

namespace {
struct Settings {
  double strength = 1;
};
const substruct::OptionTable& options() {
  static const auto options = substruct::OptionSet<Settings>("elsewhere", "not this plugin's")
                                  .number("strength", &Settings::strength, "", "unused");
  return options.table();
}
std::unique_ptr<substruct::Component> create(const substruct::PluginContext&) {
  return nullptr;
}
const substruct::PluginDescriptor& descriptor() {
  static const substruct::PluginDescriptor d{"wrong-section",
                                             substruct::PluginKind::load,
                                             "0",
                                             "options declared for another section",
                                             &options,
                                             &create};
  return d;
}
}  // namespace

SUBSTRUCT_PLUGIN(descriptor)
