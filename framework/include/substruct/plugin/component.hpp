// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The common base of every object a plugin creates (a coupling method, a solver, a load…).
#include <string>

namespace substruct {

/// Plugins return their objects as Components; the host checks the concrete interface
/// (CouplingMethod, LinearSolver, …) against the plugin's declared kind.
class Component {
 public:
  virtual ~Component();
  Component() = default;
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  /// The plugin that created this object (set by PluginHost::create; empty for an object made
  /// otherwise), for messages.
  const std::string& plugin_name() const { return plugin_name_; }

 private:
  friend class PluginHost;
  std::string plugin_name_;
};

}  // namespace substruct
