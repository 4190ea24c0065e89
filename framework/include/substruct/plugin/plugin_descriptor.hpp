// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// What a plugin exports: an ABI version and a descriptor (name, kind, version, summary, its
/// options and a factory). A plugin's .cpp ends with SUBSTRUCT_PLUGIN(descriptor_function).
#include <memory>

#include <boost/dll/alias.hpp>

#include "substruct/options/option_table.hpp"
#include "substruct/plugin/build_fingerprint.hpp"
#include "substruct/plugin/component.hpp"
#include "substruct/plugin/plugin_kind.hpp"

namespace substruct {

class Config;

/// Bumped whenever a plugin-visible interface or struct changes layout or meaning. The host
/// refuses plugins built against another version.
// 3: reduced geometry, PrecomputeStats, interface_gap; 4: build fingerprint, stats in core;
// 5: a plugin's options are an OptionTable (key, type, default, unit, help, choices, bounds)
// instead of a Boost options_description; 6: DomainLayout has a modal rotation matrix Ψ;
// 7: CouplingMethod has the static-solve hooks (do_can_solve_static, do_solve_static);
// 8: PrecomputeStats names the step's integrator; Exporter::targets (the files a run checks
// before it starts); 9: Config is an OptionSource (the options layer reads through it);
// 10: ExternalForces::point_stiffness (contact), CouplingMethod::rigid_domains, a geometry
// solver may read the layout in place.
inline constexpr int kPluginAbiVersion = 10;

/// What a factory receives: the validated configuration (the plugin reads its own section
/// through its OptionSet, and any framework section it needs through the framework's).
struct PluginContext {
  const Config& config;
};

struct PluginDescriptor {
  const char* name;  // unique, also the name of its config section
  PluginKind kind;
  const char* version;  // the plugin's own version
  const char* summary;  // one line
  /// The options of the plugin's config section `[<name>]` (declared once with an OptionSet,
  /// options/options.hpp): the host validates scenes against them, `substruct help` and the
  /// reference page print them.
  const OptionTable& (*options)();
  /// Creates the plugin's object; it must implement the interface of `kind`.
  std::unique_ptr<Component> (*create)(const PluginContext& context);
};

}  // namespace substruct

/// Exports `descriptor_function` (a function returning `const PluginDescriptor&`), the ABI
/// version and the build fingerprint (plugin/build_fingerprint.hpp) through Boost.DLL aliases.
/// Use exactly once per plugin library, at namespace scope.
#define SUBSTRUCT_PLUGIN(descriptor_function)                                          \
  namespace substruct_plugin_exports {                                                 \
  const int abi_version = ::substruct::kPluginAbiVersion;                              \
  const char* const build_fingerprint = SUBSTRUCT_BUILD_FINGERPRINT;                   \
  inline const ::substruct::PluginDescriptor* descriptor_pointer() {                   \
    return &descriptor_function();                                                     \
  }                                                                                    \
  }                                                                                    \
  BOOST_DLL_ALIAS(substruct_plugin_exports::abi_version, substruct_plugin_abi)         \
  BOOST_DLL_ALIAS(substruct_plugin_exports::build_fingerprint, substruct_plugin_build) \
  BOOST_DLL_ALIAS(substruct_plugin_exports::descriptor_pointer, substruct_plugin_descriptor)
