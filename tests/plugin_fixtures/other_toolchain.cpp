// SPDX-License-Identifier: GPL-3.0-or-later
// A plugin of the right ABI version built with another toolchain (another compiler major
// version, an -march that changes Eigen's alignment…): the host must refuse it and say why,
// before it reads the descriptor, whose layout it cannot trust.
#include <boost/dll/alias.hpp>

#include "substruct/plugin/plugin_descriptor.hpp"

namespace {
const int abi_version = substruct::kPluginAbiVersion;
const char* const build_fingerprint = "clang 99, libc++, Eigen 9.9.9 (align 64), Boost 9_99";
const substruct::PluginDescriptor* descriptor() {
  return nullptr;  // never read: the fingerprint is refused first
}
}  // namespace

BOOST_DLL_ALIAS(abi_version, substruct_plugin_abi)
BOOST_DLL_ALIAS(build_fingerprint, substruct_plugin_build)
BOOST_DLL_ALIAS(descriptor, substruct_plugin_descriptor)
