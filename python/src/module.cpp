// The compiled part of the `substruct` Python package (python/substruct/__init__.py).
#include "bindings.hpp"

PYBIND11_MODULE(_substruct, m) {
  m.doc() = "substruct's scenes, methods and results from Python (see the package's docstring).";
  substruct::python::bind_errors(m);
  substruct::python::bind_scene(m);
  substruct::python::bind_simulation(m);
  substruct::python::bind_modes(m);
  substruct::python::bind_bench(m);
}
