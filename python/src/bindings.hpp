// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parts of the `substruct` Python module (python/substruct/__init__.py re-exports them):
// errors.cpp (exception classes), scene.cpp (Scene, plugins(), help()), simulation.cpp
// (Simulation), python_load.cpp (loads written in Python).
#include <functional>
#include <memory>
#include <string>

#include <pybind11/pybind11.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct::python {

namespace py = pybind11;

/// The plugins, found once per process as the command line finds them (SUBSTRUCT_PLUGIN_PATH,
/// then beside the substruct libraries: <build>/plugins, <prefix>/lib/substruct/plugins).
std::shared_ptr<const PluginHost> plugin_host();

/// A validated scene: its settings and the plugins they name.
struct Scene {
  std::shared_ptr<const PluginHost> host;
  Config config;
};

void bind_errors(py::module_& m);
void bind_scene(py::module_& m);
void bind_simulation(py::module_& m);
void bind_modes(py::module_& m);
void bind_bench(py::module_& m);

/// A Python value as a scene would write it: text as is, True/False as true/false, a sequence
/// as its items separated by spaces, anything else by str().
std::string scene_text(const py::handle& value);

/// Raises substruct.ConfigError with the message of `e`.
[[noreturn]] void raise_config_error(const Error& e);

/// Runs `body` with the GIL released and Ctrl-C (SIGINT) stopping it at its next safe point
/// (core/interrupt.hpp) instead of waiting for it: then raises KeyboardInterrupt.
void run_interruptible(const std::function<void()>& body);

}  // namespace substruct::python
