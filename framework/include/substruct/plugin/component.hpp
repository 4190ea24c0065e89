#pragma once
/// The common base of every object a plugin creates (a coupling method, a solver, a load…).

namespace substruct {

/// Plugins return their objects as Components; the host checks the concrete interface
/// (CouplingMethod, LinearSolver, …) against the plugin's declared kind.
class Component {
 public:
  virtual ~Component();
  Component() = default;
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;
};

}  // namespace substruct
