// SPDX-License-Identifier: GPL-3.0-or-later
// substruct's errors as Python exceptions, with the command line's messages:
//   substruct.Error            any error substruct reports (the base of the others)
//   substruct.ConfigError      a scene's settings refused (unknown key or plugin, bad value)
//   substruct.InputFileError   a malformed input file ("FILE:LINE: expected …, found …")
//   substruct.DivergenceError  a simulation that blew up (names the domain and the step)
// Ctrl-C during a long call raises KeyboardInterrupt.
#include <csignal>

#include "bindings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/interrupt.hpp"

namespace substruct::python {

namespace {

PyObject* g_error = nullptr;
PyObject* g_divergence = nullptr;
PyObject* g_input_file = nullptr;
PyObject* g_config = nullptr;

}  // namespace

void raise_config_error(const Error& e) {
  PyErr_SetString(g_config, e.what());
  throw py::error_already_set();
}

void bind_errors(py::module_& m) {
  static py::exception<Error> error(m, "Error");
  error.doc() = "Any error substruct reports; str() is the message the command line prints.";
  static py::exception<Error> config(m, "ConfigError", error.ptr());
  config.doc() = "A scene's settings were refused (unknown key or plugin, value out of range).";
  static py::exception<ParseError> input(m, "InputFileError", error.ptr());
  input.doc() = "A malformed input file; the message names the file and line.";
  static py::exception<DivergenceError> divergence(m, "DivergenceError", error.ptr());
  divergence.doc() = "A simulation that produced NaN/Inf or blew up; names the domain and step.";
  g_error = error.ptr();
  g_config = config.ptr();
  g_input_file = input.ptr();
  g_divergence = divergence.ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Interrupted&) {
      clear_interrupt();
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const DivergenceError& e) {
      PyErr_SetString(g_divergence, e.what());
    } catch (const ParseError& e) {
      PyErr_SetString(g_input_file, e.what());
    } catch (const Error& e) {
      PyErr_SetString(g_error, e.what());
    }
  });
}

void run_interruptible(const std::function<void()>& body) {
  // Python's own SIGINT handler only sets a flag that Python code checks, and none runs while
  // the GIL is released: substruct's handler takes its place for the call.
  struct sigaction previous_int {};
  struct sigaction previous_term {};
  sigaction(SIGINT, nullptr, &previous_int);
  sigaction(SIGTERM, nullptr, &previous_term);
  install_interrupt_handlers();
  clear_interrupt();
  std::exception_ptr failure;
  {
    py::gil_scoped_release release;
    try {
      body();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
  if (failure) std::rethrow_exception(failure);
  if (interrupt_signal() != 0) {  // arrived after the last checkpoint
    clear_interrupt();
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
}

}  // namespace substruct::python
