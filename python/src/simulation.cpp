// SPDX-License-Identifier: GPL-3.0-or-later
// substruct.Simulation: the main loop of `substruct run` (sim/simulation.hpp) stepped from
// Python, with its state as NumPy arrays that view the framework's buffers.
#include <map>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "python_load.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/sim/simulation.hpp"

namespace substruct::python {

namespace {

class PySimulation {
 public:
  explicit PySimulation(const Scene& scene)
      : host_(scene.host), sim_(std::make_unique<Simulation>(scene.config, *scene.host)) {}

  double precompute(const py::object& progress) {
    double seconds = 0;
    std::exception_ptr callback_error;
    if (!progress.is_none())
      Progress::set_observer([&progress, &callback_error](const ProgressReport& r) {
        py::gil_scoped_acquire gil;
        if (callback_error) return;
        try {
          py::dict d;
          d["label"] = r.label;
          d["done"] = r.done;
          d["total"] = r.total;
          d["elapsed"] = r.elapsed;
          d["finished"] = r.finished;
          progress(d);
        } catch (...) {
          callback_error = std::current_exception();
        }
      });
    try {
      run_interruptible([&] { seconds = sim_->precompute(); });
    } catch (...) {
      Progress::set_observer({});
      throw;
    }
    Progress::set_observer({});
    if (callback_error) std::rethrow_exception(callback_error);
    return seconds;
  }

  double step(long n) {
    if (n < 0) throw Error(fmt::format("step(n): n must be ≥ 0, found {}", n));
    ensure_reset();
    double seconds = 0;
    if (n == 0) return 0;
    if (n == 1) {  // one step ends soon: Python sees a Ctrl-C right after, and the call stays cheap
      py::gil_scoped_release release;
      seconds = sim_->step(stats_);
    } else {
      run_interruptible([&] {
        for (long k = 0; k < n; ++k) seconds += sim_->step(stats_);
      });
    }
    steps_ += n;
    return seconds;
  }

  void reset() {
    run_interruptible([&] {
      sim_->precompute();
      sim_->reset();
    });
    stats_ = StepStats{};
    steps_ = 0;
    was_reset_ = true;
  }

  void ensure_reset() {
    if (!was_reset_) reset();
  }

  Index dofs() {
    ensure_reset();
    return sim_->method().dofs();
  }

  double interface_gap() {
    ensure_reset();
    return sim_->method().interface_gap();
  }

  py::dict energies() {
    ensure_reset();
    const Energies e = sim_->method().energies(sim_->forces().gravity);
    py::dict d;
    d["kinetic"] = e.kinetic;
    d["elastic"] = e.elastic;
    d["gravity"] = e.gravity;
    d["total"] = e.total();
    return d;
  }

  py::dict stage_seconds() const {
    py::dict d;
    for (const auto& [stage, seconds] : stats_.stage_seconds)
      d[py::str(stage)] = steps_ > 0 ? seconds / double(steps_) : 0.0;
    return d;
  }

  void add_load(const py::object& load, const std::string& name) {
    if (!py::hasattr(load, "accumulate"))
      throw Error("add_load: the object has no accumulate(self, t, positions, forces) method");
    auto adapter = std::make_unique<PythonLoad>(load);
    loads_[name] = adapter.get();
    sim_->add_load(name, std::move(adapter));
  }

  py::dict load_seconds() const {
    py::dict d;
    for (const auto& [name, load] : loads_) {
      py::dict one;
      one["calls"] = load->calls();
      one["seconds"] = load->seconds();
      one["per_call"] = load->calls() > 0 ? load->seconds() / double(load->calls()) : 0.0;
      d[py::str(name)] = one;
    }
    return d;
  }

  Simulation& sim() { return *sim_; }

 private:
  std::shared_ptr<const PluginHost> host_;  // outlives the plugins' components
  std::unique_ptr<Simulation> sim_;
  StepStats stats_;
  long steps_ = 0;
  bool was_reset_ = false;
  std::map<std::string, PythonLoad*> loads_;  // owned by sim_
};

// A read-only view of one of the simulation's point arrays, keeping the simulation alive.
template <const Points& (Simulation::*array)() const>
py::array state_view(const py::object& self) {
  auto& s = self.cast<PySimulation&>();
  s.ensure_reset();
  return read_only_view((s.sim().*array)(), self);
}

}  // namespace

void bind_simulation(py::module_& m) {
  py::class_<PySimulation>(m, "Simulation", R"(A scene's simulation by its coupling method.

sim = Simulation(scene); sim.precompute(); sim.step(100); sim.positions
The arrays (positions, velocities) are read-only views of the simulation's own buffers, without
a copy: valid until the next step() or reset(); copy them (numpy.array(sim.positions)) to keep
them. step() and precompute() release the GIL; Ctrl-C stops them at the next safe point with
KeyboardInterrupt.)")
      .def(py::init<const Scene&>(), py::arg("scene"))
      .def("precompute", &PySimulation::precompute, py::arg("progress") = py::none(),
           "The method's offline work (once; later calls return 0). progress(report) is called "
           "from time to time with a dict (label, done, total, elapsed, finished). Returns its "
           "wall time [s].")
      .def("step", &PySimulation::step, py::arg("n") = 1,
           "n steps of [run] dt (precompute and reset first when needed); returns the method's "
           "wall time for them [s]. DivergenceError when the simulation blows up.")
      .def("reset", &PySimulation::reset,
           "Back to t = 0 in [run]'s initial state (precomputes first when needed).")
      .def_property_readonly("positions", state_view<&Simulation::positions>,
                             "World positions of the volumetric vertices (N×3, read-only view, "
                             "valid until the next step).")
      .def_property_readonly("velocities", state_view<&Simulation::velocities>,
                             "World velocities of the volumetric vertices (N×3, read-only view).")
      .def_property_readonly(
          "time", [](PySimulation& s) { return s.sim().time(); }, "Simulated time [s].")
      .def_property_readonly("step_index", [](PySimulation& s) { return s.sim().step_index(); })
      .def_property_readonly(
          "dt", [](PySimulation& s) { return s.sim().run_settings().dt; }, "[run] dt [s].")
      .def_property_readonly("dofs", &PySimulation::dofs,
                             "Degrees of freedom the method integrates.")
      .def_property_readonly("domains",
                             [](PySimulation& s) { return s.sim().scene().num_domains(); })
      .def("energies", &PySimulation::energies,
           "Kinetic, elastic, gravitational and total energy [J] of the current state.")
      .def_property_readonly("stage_seconds", &PySimulation::stage_seconds,
                             "Mean wall time per step of each stage since reset() [s].")
      .def_property_readonly("interface_gap", &PySimulation::interface_gap,
                             "Largest distance between copies of an interface vertex [m].")
      .def("add_load", &PySimulation::add_load, py::arg("load"), py::arg("name") = "python",
           "Adds a load written in Python: load.accumulate(t, positions, forces) adds its forces "
           "[N] to forces (N×3) before every step.")
      .def_property_readonly("load_seconds", &PySimulation::load_seconds,
                             "Per Python load: calls, total seconds and seconds per call.");
}

}  // namespace substruct::python
