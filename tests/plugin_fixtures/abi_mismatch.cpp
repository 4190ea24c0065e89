// SPDX-License-Identifier: GPL-3.0-or-later
// A plugin built against a different plugin ABI: the host must refuse it with a clear message.
#include <boost/dll/alias.hpp>

#include "substruct/plugin/plugin_descriptor.hpp"

namespace {
const int abi_version = substruct::kPluginAbiVersion + 1000;
const substruct::OptionTable& options() {
  static const substruct::OptionTable table{"abi-mismatch", "built for another ABI", {}};
  return table;
}
std::unique_ptr<substruct::Component> create(const substruct::PluginContext&) {
  return nullptr;
}
const substruct::PluginDescriptor kDescriptor{
    "abi-mismatch", substruct::PluginKind::load, "0", "built for another ABI", &options, &create};
const substruct::PluginDescriptor* descriptor() {
  return &kDescriptor;
}
}  // namespace

BOOST_DLL_ALIAS(abi_version, substruct_plugin_abi)
BOOST_DLL_ALIAS(descriptor, substruct_plugin_descriptor)
