// SPDX-License-Identifier: GPL-3.0-or-later
// The compiled part of the `substruct` Python package (python/substruct/__init__.py).
#include <string>

#include "bindings.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"

PYBIND11_MODULE(_substruct, m) {
  m.doc() = "substruct's scenes, methods and results from Python (see the package's docstring).";
  substruct::python::bind_errors(m);
  substruct::python::bind_scene(m);
  substruct::python::bind_simulation(m);
  substruct::python::bind_modes(m);
  substruct::python::bind_bench(m);
  m.def(
      "set_verbosity",
      [](const std::string& level) {
        using substruct::log::Level;
        if (level != "quiet" && level != "normal" && level != "verbose")
          throw substruct::Error("set_verbosity: 'quiet', 'normal' or 'verbose', not '" + level +
                                 "'");
        const Level l = level == "quiet"    ? Level::quiet
                        : level == "normal" ? Level::normal
                                            : Level::verbose;
        substruct::log::set_level(l);
        substruct::Progress::set_enabled(l != Level::quiet);
      },
      pybind11::arg("level"),
      "What substruct writes to stderr: 'quiet' (warnings only, no progress lines), 'normal' "
      "(the default, as the command line), or 'verbose' (also debug messages).");
}
